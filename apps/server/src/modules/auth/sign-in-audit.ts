import { escapeMarkdown, markdownCode } from '@vexil/core';
import { AUDIT_ENTRY_ACTIONS } from '@vexil/core/audit-entries';
import type { SignInAuditEntry } from '@vexil/core/audit-entries-organisation';
import type { AuditEntry } from '../audit/audit.service';
import { FREE_FAILURES } from './login-throttle';

/*
 * What sign-ins tell the audit log (docs/product.md §2 "Audit log list"): one "signed in" entry per
 * session started, by password or by a one-time link (single sign-on, sign-up, invitation), and
 * failed password attempts as counts, written when a run of failures for one e-mail from one address
 * starts waiting and each time it doubles (the 5th, 10th, 20th… failure), so a guesser cannot flood
 * the log. Access tokens are recorded by their module at their first use of each day. Each kind of
 * sign-in entry (core's `SignInAuditEntry`) is rendered here, in one place; user text is escaped.
 */

/** The resource type of sign-in entries, kept apart from the member's own changes ('user'). */
export const SIGN_IN_RESOURCE = 'sign_in';
/** How much of a typed e-mail a failure entry repeats. */
const MAX_TYPED_EMAIL = 120;

/** Whether the `count`th failure of a run is written: when waiting starts, then at each doubling. */
export function recordsFailures(count: number): boolean {
  const first = FREE_FAILURES + 1;
  if (count < first || count % first !== 0) return false;
  const times = count / first;
  return (times & (times - 1)) === 0;
}

function text(entry: SignInAuditEntry): Pick<AuditEntry, 'title' | 'description'> {
  switch (entry.kind) {
    case 'sign_in.password':
      return {
        title: `${entry.user.email} signed in`,
        description: `${escapeMarkdown(entry.user.email)} signed in with a password.`,
      };
    case 'sign_in.link':
      return {
        title: `${entry.user.email} signed in`,
        description: entry.via
          ? `${escapeMarkdown(entry.user.email)} signed in with **${escapeMarkdown(entry.via)}** (single sign-on).`
          : `${escapeMarkdown(entry.user.email)} signed in with a one-time sign-in link (sign-up or invitation).`,
      };
    case 'sign_in.failed': {
      const { failures: count, ip } = entry;
      const email = entry.typed.trim().toLowerCase().slice(0, MAX_TYPED_EMAIL);
      const from = ip ? ` from ${markdownCode(ip)}` : '';
      return {
        title: `${count} failed sign-ins as ${email}`,
        description: `${count} password sign-ins as ${escapeMarkdown(email)}${from} failed within the hour${entry.userId ? '' : ' (no member has that e-mail)'}. Each further attempt must wait longer; the next entry comes at ${count * 2} failures.`,
      };
    }
  }
}

/** The audit entry of a sign-in, or of a run of failed ones. */
export function signInAudit(entry: SignInAuditEntry): AuditEntry {
  return {
    action: AUDIT_ENTRY_ACTIONS[entry.kind],
    resourceType: SIGN_IN_RESOURCE,
    resourceId: entry.kind === 'sign_in.failed' ? entry.userId : entry.user.id,
    ...text(entry),
  };
}
