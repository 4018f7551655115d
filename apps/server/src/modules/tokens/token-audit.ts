/**
 * What the audit log says about personal access tokens: each kind of token entry (core's
 * `AccessTokenAuditEntry`) rendered to its title and markdown description, in one place. User text is
 * escaped; a token is shown masked, as code.
 */
import { escapeMarkdown, markdownCode } from '@vexil/core';
import { FLAGS_AUDIT_ENTRY_ACTIONS, type AccessTokenAuditEntry } from '@vexil/core/audit-entries-flags';
import type { AuditEntry } from '../audit/audit.service';

function expiryPhrase(expiresAt: Date | null): string {
  return expiresAt ? `expiring on ${expiresAt.toISOString().slice(0, 10)}` : 'that does not expire';
}

function text(entry: AccessTokenAuditEntry): Pick<AuditEntry, 'title' | 'description'> {
  const by = escapeMarkdown(entry.by);
  const name = escapeMarkdown(entry.token.name);
  switch (entry.kind) {
    case 'access_token.created':
      return {
        title: `Access token ${entry.token.name} created`,
        description: `${by} created the personal access token **${name}** (${markdownCode(entry.token.masked)}) ${expiryPhrase(entry.expiresAt)}.`,
      };
    case 'access_token.deleted':
      return {
        title: `Access token ${entry.token.name} deleted`,
        description: `${by} deleted the personal access token **${name}** (${markdownCode(entry.token.masked)}).`,
      };
    case 'access_token.used':
      return {
        title: `${entry.by} used the access token ${entry.token.name}`,
        description: `${by} signed in with the access token **${name}**: its first use today (UTC). Later uses the same day are not recorded.`,
      };
  }
}

/**
 * The audit entry of a token write, or of a token's first use in a day, which the log files as a
 * sign-in (resource type `token`, as sign-ins have always been filed).
 */
export function tokenAudit(entry: AccessTokenAuditEntry): AuditEntry {
  return {
    action: FLAGS_AUDIT_ENTRY_ACTIONS[entry.kind],
    resourceType: entry.kind === 'access_token.used' ? 'token' : 'access_token',
    resourceId: entry.token.id,
    ...text(entry),
  };
}
