/**
 * What the audit log says about members and invitations: each kind of member entry (core's
 * `MemberAuditEntry`) rendered to its title, markdown description and data, in one place. User text
 * is escaped.
 */
import { AUTHORITY_LABELS, displayName, escapeMarkdown, type Authority } from '@vexil/core';
import { AUDIT_ENTRY_ACTIONS } from '@vexil/core/audit-entries';
import type { MemberAuditEntry } from '@vexil/core/audit-entries-organisation';
import type { AuditEntry } from '../audit/audit.service';
import { describeMember } from './member-text';

function roleLabel(role: Authority | null): string {
  return role ? AUTHORITY_LABELS[role] : 'no role';
}

function text(entry: MemberAuditEntry): Pick<AuditEntry, 'title' | 'description' | 'data'> {
  switch (entry.kind) {
    case 'member.updated': {
      const changes: string[] = [];
      const data: Record<string, unknown> = {};
      if (entry.name) {
        changes.push(
          `renamed them from **${escapeMarkdown(entry.name.from || '(no name)')}** to **${escapeMarkdown(entry.name.to)}**`,
        );
        data['name'] = entry.name;
      }
      if (entry.role) {
        changes.push(
          `changed their role from **${roleLabel(entry.role.from)}** to **${roleLabel(entry.role.to)}**`,
        );
        data['role'] = entry.role;
      }
      return {
        title: `Member ${displayName(entry.member)} updated`,
        description: changes.length
          ? `${escapeMarkdown(entry.by)} updated ${describeMember(entry.member)}: ${changes.join('; ')}.`
          : `${escapeMarkdown(entry.by)} saved ${describeMember(entry.member)} without changes.`,
        data,
      };
    }
    case 'member.removed':
      return {
        title: `${displayName(entry.member)} removed from the team`,
        description: `${escapeMarkdown(entry.by)} removed ${describeMember(entry.member)}, who was a **${roleLabel(entry.role)}**. Their sessions and access tokens no longer work, and single sign-on does not let them back in unless they are invited again.`,
      };
    case 'member.invitation_cancelled':
      return {
        title: `Invitation to ${entry.member.email} cancelled`,
        description: `${escapeMarkdown(entry.by)} cancelled the invitation of ${describeMember(entry.member)}. Its link no longer works.`,
      };
    case 'member.invited':
      return entry.resent
        ? {
            title: `Invitation to ${entry.member.email} sent again`,
            description: `${escapeMarkdown(entry.by)} invited ${describeMember(entry.member)} again; the earlier invitation link no longer works. The new one expires in ${entry.expiresInDays} days.`,
          }
        : {
            title: `${entry.member.email} invited`,
            description: `${escapeMarkdown(entry.by)} invited ${describeMember(entry.member)} to join as **${AUTHORITY_LABELS[entry.role]}**. The invitation expires in ${entry.expiresInDays} days.`,
          };
    case 'member.signed_out_everywhere':
      return {
        title: `${entry.by} signed out everywhere`,
        description: `${escapeMarkdown(entry.by)} ended all of their sessions (${entry.sessions}).`,
      };
    case 'member.sso_linked':
      return {
        title: `${displayName(entry.member)} linked to ${entry.via}`,
        description: `${describeMember(entry.member)} signed in with ${escapeMarkdown(entry.via)} for the first time: from now on that identity signs them in, whatever e-mail the provider gives.`,
      };
    case 'member.sso_invitation_accepted':
      return {
        title: `${displayName(entry.member)} joined the team`,
        description: `${describeMember(entry.member)} accepted their invitation by signing in with ${escapeMarkdown(entry.via)}.`,
      };
    case 'member.sso_joined':
      return {
        title: `${displayName(entry.member)} joined the team`,
        description: `${describeMember(entry.member)} signed in with ${escapeMarkdown(entry.via)} for the first time and joined as **${AUTHORITY_LABELS[entry.role]}**.`,
      };
  }
}

/** The audit entry of a write to the organisation's members. */
export function memberAudit(entry: MemberAuditEntry): AuditEntry {
  return {
    action: AUDIT_ENTRY_ACTIONS[entry.kind],
    resourceType: 'user',
    resourceId: entry.kind === 'member.signed_out_everywhere' ? entry.userId : entry.member.id,
    ...text(entry),
  };
}
