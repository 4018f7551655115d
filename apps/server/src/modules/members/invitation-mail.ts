import { INVITATION_LIFETIME_DAYS } from '@vexil/core';
import type { MailMessage } from '../../lib/mailer';

/** What an invitation e-mail says; every text but the link comes from people and is escaped in HTML. */
export type InvitationMailFacts = {
  invitee: { email: string; firstName: string; lastName: string };
  /** Who invited: their name, or their e-mail when they have none. */
  inviter: string;
  organisation: string;
  link: string;
};

/** Escapes text for HTML element content and double-quoted attribute values. */
export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** A header line stays one line whatever a name holds. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** The invitation e-mail: a plain-text part and an HTML part saying the same. */
export function invitationMail(facts: InvitationMailFacts): MailMessage {
  const { invitee, link } = facts;
  const inviter = oneLine(facts.inviter);
  const organisation = oneLine(facts.organisation);
  const name = oneLine(`${invitee.firstName} ${invitee.lastName}`);
  const greeting = invitee.firstName.trim() ? `Hello ${oneLine(invitee.firstName)},` : 'Hello,';
  const lifetime = `The link works once and expires in ${INVITATION_LIFETIME_DAYS} days.`;
  const ignore = 'If you were not expecting this invitation, you can ignore this e-mail.';

  const text = [
    greeting,
    '',
    `${inviter} invited you to join ${organisation} on Vexil, where the team manages its feature flags.`,
    '',
    'Accept the invitation and choose your password:',
    link,
    '',
    lifetime,
    ignore,
    '',
  ].join('\n');

  const e = escapeHtml;
  const html = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${e(organisation)} on Vexil</title></head>
<body style="margin:0;padding:24px;background:#f8f9fa;font-family:-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;color:#212529">
<div style="max-width:560px;margin:0 auto;background:#ffffff;border:1px solid #dee2e6;border-radius:8px;padding:24px">
<p style="margin:0 0 16px">${e(greeting)}</p>
<p style="margin:0 0 16px"><strong>${e(inviter)}</strong> invited you to join <strong>${e(organisation)}</strong> on Vexil, where the team manages its feature flags.</p>
<p style="margin:0 0 24px"><a href="${e(link)}" style="display:inline-block;background:#228be6;color:#ffffff;text-decoration:none;padding:10px 18px;border-radius:6px;font-weight:600">Accept the invitation</a></p>
<p style="margin:0 0 8px;font-size:14px;color:#495057">Or open this address: <a href="${e(link)}" style="color:#1c7ed6;word-break:break-all">${e(link)}</a></p>
<p style="margin:0 0 8px;font-size:14px;color:#495057">${e(lifetime)}</p>
<p style="margin:0;font-size:14px;color:#495057">${e(ignore)}</p>
</div>
</body>
</html>
`;

  return {
    to: { name, address: invitee.email },
    subject: `${inviter} invited you to join ${organisation} on Vexil`,
    text,
    html,
  };
}
