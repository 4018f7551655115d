/**
 * What the audit log says about feature controls (core's `ControlAuditEntry`): a switch turned or
 * targeting changed, with what the control served before and after, rendered in one place. User text
 * is escaped; keys are shown as code.
 */
import { describeRules, escapeMarkdown, markdownCode } from '@vexil/core';
import { FLAGS_AUDIT_ENTRY_ACTIONS, type ControlAuditEntry } from '@vexil/core/audit-entries-flags';
import type { AuditEntry } from '../audit/audit.service';

/** The audit entry of a control write; its data holds the control before and after. */
export function controlAudit(entry: ControlAuditEntry): AuditEntry {
  const { feature, environment, before, after } = entry;
  const where = `**${escapeMarkdown(feature.name)}** (${markdownCode(feature.key)}) in **${escapeMarkdown(environment.name)}**`;
  const switched = before.enabled !== after.enabled;
  const turned = `turned ${after.enabled ? 'on' : 'off'}`;
  const restored = entry.restoredFrom === undefined ? '' : ` (version ${entry.restoredFrom} restored)`;
  const through = entry.changeRequest
    ? ` through the change request **${escapeMarkdown(entry.changeRequest.title)}**`
    : entry.scheduled
      ? ` as scheduled (${escapeMarkdown(entry.scheduled.label)})${entry.bypass ? ', bypassing the change requests this environment asks for' : ''}`
      : entry.bypass
        ? ', bypassing the change requests this environment asks for'
        : '';
  return {
    action: FLAGS_AUDIT_ENTRY_ACTIONS[entry.kind],
    resourceType: 'feature_control',
    resourceId: feature.id,
    projectKey: entry.project.key,
    environmentKey: environment.key,
    featureKey: feature.key,
    title:
      switched && !entry.targetingChanged
        ? `Feature ${feature.name} ${turned} in ${environment.name}`
        : `Targeting of ${feature.name} in ${environment.name} updated`,
    description: `${escapeMarkdown(entry.by)} ${switched ? turned : 'updated the targeting of'} ${where}${restored}${through}.\n\n- before: ${escapeMarkdown(describeRules(before, entry.variantNames))}\n- after: ${escapeMarkdown(describeRules(after, entry.variantNames))}`,
    data: {
      before: { enabled: before.enabled, offVariantKey: before.offVariantKey, rules: before.rules },
      after: {
        id: entry.control.id,
        enabled: after.enabled,
        offVariantKey: after.offVariantKey,
        rules: after.rules,
      },
      ...(entry.version === undefined ? {} : { version: entry.version }),
      ...(entry.restoredFrom === undefined ? {} : { restoredFrom: entry.restoredFrom }),
      ...(entry.changeRequest ? { changeRequestId: entry.changeRequest.id } : {}),
      ...(entry.bypass ? { bypass: true } : {}),
      ...(entry.scheduled ? { scheduleId: entry.scheduled.id } : {}),
    },
  };
}
