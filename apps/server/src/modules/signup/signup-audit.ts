/**
 * What the audit log says about signing up, accepting an invitation and resetting a password: each
 * kind of entry (core's `SignupAuditEntry`) rendered to its title and markdown description, in one
 * place. User text is escaped; the domain and keys are shown as code.
 */
import { escapeMarkdown, markdownCode } from '@vexil/core';
import { AUDIT_ENTRY_ACTIONS } from '@vexil/core/audit-entries';
import type { SignupAuditEntry } from '@vexil/core/audit-entries-organisation';
import type { AuditEntry } from '../audit/audit.service';

function text(entry: SignupAuditEntry): Pick<AuditEntry, 'title' | 'description'> {
  switch (entry.kind) {
    case 'signup.invitation_accepted':
      return {
        title: `${entry.name} (${entry.email}) joined the team`,
        description: `**${escapeMarkdown(entry.name)}** (${escapeMarkdown(entry.email)}) accepted the invitation and activated their account.`,
      };
    case 'signup.password_reset_requested':
      return {
        title: `Password reset requested for ${entry.email}`,
        description: `A password reset link was e-mailed to ${escapeMarkdown(entry.email)}. It works once, for ${entry.lifetimeMinutes} minutes.`,
      };
    case 'signup.password_reset':
      return {
        title: `${entry.email} reset their password`,
        description: `${escapeMarkdown(entry.email)} set a new password from a reset link; their ${entry.sessionsEnded} session(s) were ended.`,
      };
    case 'signup.organisation_created': {
      const { admin, organisation, project } = entry;
      return {
        title: `Organisation ${organisation.name} created`,
        description: `**${escapeMarkdown(admin.name)}** (${escapeMarkdown(admin.email)}) signed up and created the organisation **${escapeMarkdown(organisation.name)}** (${markdownCode(organisation.domain)}) with the project **${escapeMarkdown(project.name)}** (${markdownCode(project.key)}) and the environments ${entry.environments
          .map((name) => `**${escapeMarkdown(name)}**`)
          .join(', ')}.`,
      };
    }
  }
}

/** The audit entry of a sign-up, an invited sign-up or a password reset. */
export function signupAudit(entry: SignupAuditEntry): AuditEntry {
  const organisation = entry.kind === 'signup.organisation_created';
  return {
    action: AUDIT_ENTRY_ACTIONS[entry.kind],
    resourceType: organisation ? 'organisation' : 'user',
    resourceId: organisation ? entry.organisation.id : entry.userId,
    ...text(entry),
  };
}
