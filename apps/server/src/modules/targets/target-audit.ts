/**
 * What the audit log says about targets (core's `TargetAuditEntry`), rendered in one place. User
 * text is escaped; keys are shown as code.
 */
import { escapeMarkdown, markdownCode } from '@vexil/core';
import { AUDIT_ENTRY_ACTIONS, type TargetAuditEntry } from '@vexil/core/audit-entries';
import type { AuditEntry } from '../audit/audit.service';

/** The audit entry of a target write. */
export function targetAudit(entry: TargetAuditEntry): AuditEntry {
  const { target, project } = entry;
  return {
    action: AUDIT_ENTRY_ACTIONS[entry.kind],
    resourceType: 'target',
    resourceId: target.id,
    projectKey: project.key,
    title: `Target ${target.name} created in ${project.name}`,
    description: `${escapeMarkdown(entry.by)} created the ${target.type} target **${escapeMarkdown(target.name)}** (${markdownCode(target.key)}) in **${escapeMarkdown(project.name)}**.`,
  };
}
