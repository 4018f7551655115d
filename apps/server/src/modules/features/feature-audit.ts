/**
 * What the audit log says about features: each kind of feature entry (core's `FeatureAuditEntry`)
 * rendered to its title and markdown description, in one place so the wording stays consistent
 * whichever path (dashboard or SDK) made the change. User text is escaped; keys are shown as code.
 */
import { escapeMarkdown, markdownCode } from '@vexil/core';
import { FLAGS_AUDIT_ENTRY_ACTIONS, type FeatureAuditEntry } from '@vexil/core/audit-entries-flags';
import type { AuditEntry } from '../audit/audit.service';

type Named = { name: string; key: string };

function list(values: readonly string[]): string {
  return values.length ? values.map(markdownCode).join(', ') : '(none)';
}

function feature(row: Named): string {
  return `**${escapeMarkdown(row.name)}** (${markdownCode(row.key)})`;
}

/** The lines of an update's description, one per setting that changed. */
function changes(entry: Extract<FeatureAuditEntry, { kind: 'feature.updated' }>): string[] {
  const { before, after } = entry.settings;
  return [
    before.name !== after.name ? `- name: ${markdownCode(before.name)} → ${markdownCode(after.name)}` : null,
    before.description !== after.description ? '- description changed' : null,
    before.permanent !== after.permanent ? `- permanent: ${markdownCode(String(after.permanent))}` : null,
    JSON.stringify(before.tags) !== JSON.stringify(after.tags)
      ? `- tags: ${list(before.tags)} → ${list(after.tags)}`
      : null,
    before.maintainerId !== after.maintainerId ? '- maintainer changed' : null,
    entry.variantsAdded.length ? `- variants added: ${list(entry.variantsAdded)}` : null,
    entry.variantsEdited.length ? `- variants changed: ${list(entry.variantsEdited)}` : null,
    JSON.stringify(entry.issues.before) !== JSON.stringify(entry.issues.after)
      ? `- issues: ${list(entry.issues.before)} → ${list(entry.issues.after)}`
      : null,
  ].filter((line): line is string => line !== null);
}

function text(entry: FeatureAuditEntry): Pick<AuditEntry, 'title' | 'description'> {
  if (entry.kind === 'feature.registered') {
    const { environment } = entry;
    const sdk = `The server SDK key of the environment ${feature(environment)}`;
    return {
      title: `Feature ${entry.feature.key} registered by the SDK of ${environment.name}`,
      description: `${sdk} registered the feature ${markdownCode(entry.feature.key)} with the variants ${list(entry.variantKeys)}. It is off in every environment.`,
    };
  }
  const by = escapeMarkdown(entry.by);
  switch (entry.kind) {
    case 'feature.created':
      return {
        title: `Feature ${entry.feature.name} created in ${entry.project.name}`,
        description: `${by} created the feature ${feature(entry.feature)} with the variants ${list(entry.variantKeys)}. It is off in every environment.`,
      };
    case 'feature.updated': {
      const lines = changes(entry);
      const restored = entry.restoredFrom === undefined ? '' : ` (version ${entry.restoredFrom} restored)`;
      return {
        title: `Feature ${entry.settings.after.name} updated`,
        description: `${by} updated the settings of ${feature(entry.feature)}${restored}${entry.bypass ? ', bypassing the change requests this project asks for' : ''}${lines.length ? `:\n\n${lines.join('\n')}` : '.'}`,
      };
    }
    case 'feature.deleted':
      return {
        title: `Feature ${entry.feature.name} deleted`,
        description: `${by} deleted the feature ${feature(entry.feature)} from **${escapeMarkdown(entry.project.name)}**. SDKs no longer receive it.`,
      };
    case 'feature.linked':
      return {
        title: `Feature ${entry.feature.name} linked to ${entry.issueKey}`,
        description: `${by} linked the issue ${markdownCode(entry.issueKey)} to ${feature(entry.feature)}.`,
      };
  }
}

/** The version of the settings an entry links to, and the version a restore brought forward. */
function versionData(entry: FeatureAuditEntry): Record<string, number> | undefined {
  if (entry.kind === 'feature.registered' || entry.kind === 'feature.deleted') return undefined;
  const restoredFrom = entry.kind === 'feature.updated' ? entry.restoredFrom : undefined;
  if (entry.version === undefined && restoredFrom === undefined) return undefined;
  return {
    ...(entry.version === undefined ? {} : { version: entry.version }),
    ...(restoredFrom === undefined ? {} : { restoredFrom }),
  };
}

/**
 * The audit entry of a feature write. A feature an SDK registered names the SDK as its actor in
 * `data`, as there is no member to name; a write that created a version of the settings names it
 * (`data.version`, and `data.restoredFrom` for a restore).
 */
export function featureAudit(entry: FeatureAuditEntry): AuditEntry {
  const registered = entry.kind === 'feature.registered';
  const version = versionData(entry);
  return {
    action: FLAGS_AUDIT_ENTRY_ACTIONS[entry.kind],
    resourceType: 'feature',
    resourceId: entry.feature.id,
    projectKey: registered ? entry.environment.projectKey : entry.project.key,
    ...(registered ? { environmentKey: entry.environment.key } : {}),
    featureKey: entry.feature.key,
    ...text(entry),
    ...(registered
      ? {
          data: {
            actor: {
              type: 'sdk',
              environmentId: entry.environment.id,
              environmentKey: entry.environment.key,
            },
          },
        }
      : {}),
    ...(version ? { data: version } : {}),
  };
}
