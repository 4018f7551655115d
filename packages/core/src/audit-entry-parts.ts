/*
 * The facts most kinds of audit entries share (audit-entries.ts and its families), declared once so
 * that the families need not import the union that gathers them.
 */

/** A resource as the log names it, as it was at the time: its key and name. */
export type AuditNamed = { key: string; name: string };

/** The member who made a change, named by e-mail. */
export type ByMember = { by: string };
