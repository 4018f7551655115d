/**
 * What the audit log says about environments: each kind of environment entry (core's
 * `EnvironmentAuditEntry`) rendered to its title, markdown description and data, in one place. User
 * text is escaped; keys and values are shown as code.
 */
import { escapeMarkdown, markdownCode } from '@vexil/core';
import {
  AUDIT_ENTRY_ACTIONS,
  type AUDIT_ENVIRONMENT_FIELDS,
  type AuditEnvironment,
  type EnvironmentAuditEntry,
} from '@vexil/core/audit-entries';
import type { AuditEntry } from '../audit/audit.service';

/** How the log names each setting an update may change. */
const LABELS: Record<(typeof AUDIT_ENVIRONMENT_FIELDS)[number], string> = {
  name: 'name',
  url: 'url',
  color: 'colour',
  local: 'local',
  production: 'production',
  tags: 'tags',
  sdkCanCreateFeatures: 'SDKs may create features',
};

const SDK_KEYS = { server: 'server SDK key', js: 'JS client SDK key' } as const;

function describe(environment: AuditEnvironment): string {
  const kinds = [environment.production ? 'production' : null, environment.local ? 'local' : null].filter(
    Boolean,
  );
  return `**${escapeMarkdown(environment.name)}** (${markdownCode(environment.key)}${kinds.length ? `, ${kinds.join(', ')}` : ''})`;
}

function show(value: unknown): string {
  if (Array.isArray(value))
    return value.length ? value.map((v) => markdownCode(String(v))).join(', ') : '(none)';
  if (value === null || value === '') return '(none)';
  return markdownCode(String(value));
}

/** The version a create or an update made, and the one a restore brought forward. */
function versionData(entry: { version?: number | undefined; restoredFrom?: number | undefined }) {
  return {
    ...(entry.version === undefined ? {} : { version: entry.version }),
    ...(entry.restoredFrom === undefined ? {} : { restoredFrom: entry.restoredFrom }),
  };
}

function text(entry: EnvironmentAuditEntry): Pick<AuditEntry, 'title' | 'description' | 'data'> {
  const by = escapeMarkdown(entry.by);
  const { environment, project } = entry;
  const projectName = escapeMarkdown(project.name);
  switch (entry.kind) {
    case 'environment.created':
      return {
        title: `Environment ${environment.name} created in ${project.name}`,
        description: `${by} created the environment ${describe(environment)} in the project **${projectName}**${entry.cloned ? ', copying its targeting from another environment' : ''}.`,
        ...(entry.version === undefined ? {} : { data: versionData(entry) }),
      };
    case 'environment.updated': {
      const restored = entry.restoredFrom === undefined ? '' : ` (version ${entry.restoredFrom} restored)`;
      return {
        title: `Environment ${environment.name} updated in ${project.name}`,
        description:
          entry.changes.length === 0
            ? `${by} saved the environment ${describe(environment)} without changes.`
            : `${by} updated the environment ${describe(environment)} in **${projectName}**${restored}:\n\n${entry.changes
                .map(({ field, from, to }) => `- ${LABELS[field]}: ${show(from)} → ${show(to)}`)
                .join('\n')}`,
        data: {
          ...Object.fromEntries(entry.changes.map(({ field, from, to }) => [field, { from, to }])),
          ...versionData(entry),
        },
      };
    }
    case 'environment.deleted':
      return {
        title: `Environment ${environment.name} deleted from ${project.name}`,
        description: `${by} deleted the environment ${describe(environment)} from the project **${projectName}**. Its SDK keys no longer work.`,
      };
    case 'environment.key_rotated': {
      const label = SDK_KEYS[entry.sdk];
      return {
        title: `The ${label} of ${environment.name} rotated`,
        description: `${by} replaced the ${label} of the environment ${describe(environment)} in **${projectName}**. The previous key no longer works.`,
      };
    }
  }
}

/** The audit entry of an environment write. */
export function environmentAudit(entry: EnvironmentAuditEntry): AuditEntry {
  return {
    action: AUDIT_ENTRY_ACTIONS[entry.kind],
    resourceType: 'environment',
    resourceId: entry.environment.id,
    projectKey: entry.project.key,
    environmentKey: entry.environment.key,
    ...text(entry),
  };
}
