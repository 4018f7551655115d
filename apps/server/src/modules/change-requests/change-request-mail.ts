import type { ChangeRequestTransition } from '@vexil/core';
import type { MailMessage } from '../../lib/mailer';
import { escapeHtml } from '../members/invitation-mail';

/** What a change request's e-mail says; every text but the link comes from people and is escaped. */
export type ChangeRequestMailFacts = {
  to: { name: string; email: string };
  /** Who did it. */
  actor: string;
  transition: ChangeRequestTransition;
  request: { title: string; environment: string; project: string };
  /** A reviewer's comment, when there is one. */
  comment: string | null;
  /** Why a suspended request stopped. */
  reason: string | null;
  link: string;
};

/** A header line stays one line whatever a name holds. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** The e-mail's subject and first sentence for each transition. */
function wording(facts: ChangeRequestMailFacts): { subject: string; sentence: string } {
  const { actor, request } = facts;
  const title = `“${oneLine(request.title)}”`;
  const where = `in ${oneLine(request.environment)} (${oneLine(request.project)})`;
  switch (facts.transition) {
    case 'submitted':
      return {
        subject: `Review requested: ${title}`,
        sentence: `${actor} asks for your review of the change request ${title} ${where}.`,
      };
    case 'approved':
      return {
        subject: `Approved: ${title}`,
        sentence: `${actor} approved your change request ${title} ${where}. It can be applied.`,
      };
    case 'changes-requested':
      return {
        subject: `Changes requested: ${title}`,
        sentence: `${actor} asked for changes to your change request ${title} ${where}.`,
      };
    case 'rejected':
      return {
        subject: `Rejected: ${title}`,
        sentence: `${actor} rejected your change request ${title} ${where}.`,
      };
    case 'applied':
      return {
        subject: `Applied: ${title}`,
        sentence: `${actor} applied your change request ${title} ${where}. Its changes are live.`,
      };
    case 'suspended':
      return {
        subject: `Suspended: ${title}`,
        sentence: `Your change request ${title} ${where} was not applied: what it changes was changed since you drafted it.`,
      };
    case 'cancelled':
      return {
        subject: `Cancelled: ${title}`,
        sentence: `${actor} cancelled your change request ${title} ${where}.`,
      };
  }
}

/** The e-mail of a change request's transition: a plain-text part and an HTML part saying the same. */
export function changeRequestMail(facts: ChangeRequestMailFacts): MailMessage {
  const { subject, sentence } = wording({ ...facts, actor: oneLine(facts.actor) });
  const extra = [facts.comment ? `Comment: ${facts.comment}` : null, facts.reason].filter(
    (line): line is string => line !== null,
  );
  const text = [
    sentence,
    '',
    ...extra.flatMap((line) => [line, '']),
    'Open the change request:',
    facts.link,
    '',
  ].join('\n');
  const e = escapeHtml;
  const html = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${e(subject)}</title></head>
<body style="margin:0;padding:24px;background:#f8f9fa;font-family:-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;color:#212529">
<div style="max-width:560px;margin:0 auto;background:#ffffff;border:1px solid #dee2e6;border-radius:8px;padding:24px">
<p style="margin:0 0 16px">${e(sentence)}</p>
${extra.map((line) => `<p style="margin:0 0 16px;white-space:pre-wrap">${e(line)}</p>`).join('\n')}
<p style="margin:0 0 8px"><a href="${e(facts.link)}" style="display:inline-block;background:#228be6;color:#ffffff;text-decoration:none;padding:10px 18px;border-radius:6px;font-weight:600">Open the change request</a></p>
</div>
</body>
</html>
`;
  return { to: { name: oneLine(facts.to.name), address: facts.to.email }, subject, text, html };
}
