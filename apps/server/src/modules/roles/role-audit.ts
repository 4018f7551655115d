/**
 * What the audit log says about custom roles: each kind of role entry (core's `RoleAuditEntry`)
 * rendered to its title and markdown description, in one place. User text (names, and grants, which
 * name projects) is escaped.
 */
import { describeGrant, escapeMarkdown, type Grant } from '@vexil/core';
import { FLAGS_AUDIT_ENTRY_ACTIONS, type RoleAuditEntry } from '@vexil/core/audit-entries-flags';
import type { AuditEntry } from '../audit/audit.service';

/** The grants as a markdown list. */
function grantsMarkdown(grants: readonly Grant[], projectNames: ReadonlyMap<string, string>): string {
  if (grants.length === 0) return 'It grants nothing yet.';
  return grants
    .map((grant) => `- ${escapeMarkdown(describeGrant(grant, (id) => projectNames.get(id)))}`)
    .join('\n');
}

function membersMarkdown(names: readonly string[]): string {
  return names.map((name) => `**${escapeMarkdown(name)}**`).join(', ');
}

function text(entry: RoleAuditEntry): Pick<AuditEntry, 'title' | 'description'> {
  const by = escapeMarkdown(entry.by);
  const { name } = entry.role;
  const role = `**${escapeMarkdown(name)}**`;
  switch (entry.kind) {
    case 'role.created':
      return {
        title: `Role ${name} created`,
        description: `${by} created the role ${role}.\n\n${grantsMarkdown(entry.grants, entry.projectNames)}`,
      };
    case 'role.updated': {
      const { grants, projectNames } = entry;
      const renamed = entry.formerName === null ? '' : ` (formerly **${escapeMarkdown(entry.formerName)}**)`;
      const held = entry.holders.length ? `\n\nHeld by ${membersMarkdown(entry.holders)}.` : '';
      return {
        title: `Role ${name} changed`,
        description: `${by} changed the role ${role}${renamed}.\n\nBefore:\n\n${grantsMarkdown(grants.before, projectNames)}\n\nNow:\n\n${grantsMarkdown(grants.after, projectNames)}${held}`,
      };
    }
    case 'role.deleted':
      return { title: `Role ${name} deleted`, description: `${by} deleted the role ${role}.` };
    case 'role.members_changed': {
      const changes = [
        entry.added.length ? `gave it to ${membersMarkdown(entry.added)}` : '',
        entry.removed.length ? `took it from ${membersMarkdown(entry.removed)}` : '',
      ].filter(Boolean);
      return {
        title: `Members of role ${name} changed`,
        description: `${by} ${changes.join(' and ')} (role ${role}).`,
      };
    }
  }
}

/** The audit entry of a role write. */
export function roleAudit(entry: RoleAuditEntry): AuditEntry {
  return {
    action: FLAGS_AUDIT_ENTRY_ACTIONS[entry.kind],
    resourceType: 'role',
    resourceId: entry.role.id,
    ...text(entry),
  };
}
