/**
 * What the audit log says about projects: each kind of project entry (core's `ProjectAuditEntry`)
 * rendered to its title, markdown description and data, in one place. User text is escaped; keys
 * are shown as code.
 */
import { escapeMarkdown, markdownCode } from '@vexil/core';
import { FLAGS_AUDIT_ENTRY_ACTIONS, type ProjectAuditEntry } from '@vexil/core/audit-entries-flags';
import type { AuditEntry } from '../audit/audit.service';

function describe(project: { name: string; key: string }): string {
  return `**${escapeMarkdown(project.name)}** (${markdownCode(project.key)})`;
}

function text(entry: ProjectAuditEntry): Pick<AuditEntry, 'title' | 'description' | 'data'> {
  const by = escapeMarkdown(entry.by);
  switch (entry.kind) {
    case 'project.created':
      return {
        title: `Project ${entry.project.name} created`,
        description: `${by} created the project ${describe(entry.project)} with the environments ${entry.environments
          .map((name) => `**${escapeMarkdown(name)}**`)
          .join(', ')}.`,
      };
    case 'project.updated': {
      const { name, project } = entry;
      const renamed = name.from !== name.to;
      return {
        title: `Project ${name.to} updated`,
        description: renamed
          ? `${by} renamed the project ${markdownCode(project.key)} from **${escapeMarkdown(name.from)}** to **${escapeMarkdown(name.to)}**.`
          : `${by} saved the project ${describe({ name: name.to, key: project.key })} without changes.`,
        data: renamed ? { name } : {},
      };
    }
    case 'project.deleted':
      return {
        title: `Project ${entry.project.name} deleted`,
        description: `${by} deleted the project ${describe(entry.project)} with its ${entry.archived.environments} environment(s) and ${entry.archived.features} feature(s). Their SDK keys no longer work.`,
      };
  }
}

/** The audit entry of a project write. */
export function projectAudit(entry: ProjectAuditEntry): AuditEntry {
  return {
    action: FLAGS_AUDIT_ENTRY_ACTIONS[entry.kind],
    resourceType: 'project',
    resourceId: entry.project.id,
    projectKey: entry.project.key,
    ...text(entry),
  };
}
