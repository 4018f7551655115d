/**
 * What the audit log says about the organisation's single sign-on connection: each kind of entry
 * (core's `SsoAuditEntry`) rendered to its title and markdown description, in one place. User text is
 * escaped; the issuer, client ID and domains are shown as code, and the client secret never.
 */
import { AUTHORITY_LABELS, escapeMarkdown, markdownCode } from '@vexil/core';
import { AUDIT_ENTRY_ACTIONS } from '@vexil/core/audit-entries';
import type { AuditSsoConnection, SsoAuditEntry } from '@vexil/core/audit-entries-organisation';
import type { AuditEntry } from '../audit/audit.service';

const SECRET_CHANGES = {
  replaced: ' The client secret was replaced.',
  removed: ' The client secret was removed.',
} as const;

/** The connection as the audit log describes it, in markdown. */
function describeConnection(connection: AuditSsoConnection): string {
  const domains = connection.allowedDomains.map((domain) => markdownCode(domain)).join(', ');
  return [
    `- Issuer: ${markdownCode(connection.issuer)}`,
    `- Client ID: ${markdownCode(connection.clientId)}`,
    `- Client secret: ${connection.secretStored ? 'stored' : 'none (public client)'}`,
    `- Allowed e-mail domains: ${domains}`,
    `- Role of new members: **${AUTHORITY_LABELS[connection.defaultRole]}**`,
    `- Single sign-on required: ${connection.required ? '**yes**' : 'no'}`,
  ].join('\n');
}

function text(entry: SsoAuditEntry): Pick<AuditEntry, 'title' | 'description'> {
  const by = escapeMarkdown(entry.by);
  const { displayName } = entry.connection;
  switch (entry.kind) {
    case 'sso.created':
    case 'sso.updated': {
      const created = entry.kind === 'sso.created';
      const secretChange = entry.secret ? SECRET_CHANGES[entry.secret] : '';
      return {
        title: created
          ? `Single sign-on with ${displayName} set up`
          : `Single sign-on with ${displayName} changed`,
        description: `${by} ${created ? 'set up' : 'changed'} single sign-on with **${escapeMarkdown(displayName)}**.${secretChange}\n\n${describeConnection(entry.connection)}`,
      };
    }
    case 'sso.removed':
      return {
        title: `Single sign-on with ${displayName} removed`,
        description: `${by} removed single sign-on with **${escapeMarkdown(displayName)}**. Members sign in with their passwords.`,
      };
  }
}

/** The audit entry of a write to the single sign-on connection. */
export function ssoAudit(entry: SsoAuditEntry): AuditEntry {
  return {
    action: AUDIT_ENTRY_ACTIONS[entry.kind],
    resourceType: 'sso_connection',
    resourceId: entry.connection.id,
    ...text(entry),
  };
}
