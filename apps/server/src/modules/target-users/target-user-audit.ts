/**
 * What the audit log says about the users SDKs reported (core's `TargetUserAuditEntry`), rendered in
 * one place. User text is escaped; keys are shown as code.
 */
import { escapeMarkdown, markdownCode } from '@vexil/core';
import { AUDIT_ENTRY_ACTIONS, type TargetUserAuditEntry } from '@vexil/core/audit-entries';
import type { AuditEntry } from '../audit/audit.service';

/** The audit entry of a forgotten SDK user. */
export function targetUserAudit(entry: TargetUserAuditEntry): AuditEntry {
  const { environment } = entry;
  return {
    action: AUDIT_ENTRY_ACTIONS[entry.kind],
    resourceType: 'target_user',
    projectKey: environment.projectKey,
    environmentKey: environment.key,
    title: `User ${entry.userKey} removed from ${environment.name}`,
    description: `${escapeMarkdown(entry.by)} removed the SDK user ${markdownCode(entry.userKey)} and their attributes from **${escapeMarkdown(environment.name)}**.`,
  };
}
