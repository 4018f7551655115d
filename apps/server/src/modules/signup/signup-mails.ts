import { RESET_PASSWORD_LIFETIME_MINUTES, SIGNUP_PIN_LIFETIME_MINUTES } from '@vexil/core';
import type { MailMessage } from '../../lib/mailer';
import { escapeHtml as e } from '../members/invitation-mail';

/** A header line stays one line whatever a name holds. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function greetingOf(firstName: string): string {
  return firstName.trim() ? `Hello ${oneLine(firstName)},` : 'Hello,';
}

/** The frame every account e-mail's HTML part shares; `body` is HTML already escaped. */
function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${e(title)}</title></head>
<body style="margin:0;padding:24px;background:#f8f9fa;font-family:-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;color:#212529">
<div style="max-width:560px;margin:0 auto;background:#ffffff;border:1px solid #dee2e6;border-radius:8px;padding:24px">
${body}
</div>
</body>
</html>
`;
}

const P = 'style="margin:0 0 16px"';
const SMALL = 'style="margin:0 0 8px;font-size:14px;color:#495057"';
const BUTTON =
  'style="display:inline-block;background:#228be6;color:#ffffff;text-decoration:none;padding:10px 18px;border-radius:6px;font-weight:600"';
const LINK = 'style="color:#1c7ed6;word-break:break-all"';

export type ResetMailFacts = {
  account: { email: string; firstName: string; lastName: string };
  organisation: string;
  link: string;
};

/** The password reset e-mail: a plain-text part and an HTML part saying the same. */
export function resetPasswordMail(facts: ResetMailFacts): MailMessage {
  const { account, link } = facts;
  const organisation = oneLine(facts.organisation);
  const greeting = greetingOf(account.firstName);
  const lifetime = `The link works once and expires in ${RESET_PASSWORD_LIFETIME_MINUTES} minutes. Setting a new password signs you out everywhere.`;
  const ignore = 'If you did not ask for this, you can ignore this e-mail: your password stays as it is.';
  const text = [
    greeting,
    '',
    `Someone asked to reset the password of ${account.email} in ${organisation} on Vexil.`,
    '',
    'Choose a new password:',
    link,
    '',
    lifetime,
    ignore,
    '',
  ].join('\n');
  const html = page(
    `Reset your ${organisation} password`,
    `<p ${P}>${e(greeting)}</p>
<p ${P}>Someone asked to reset the password of <strong>${e(account.email)}</strong> in <strong>${e(organisation)}</strong> on Vexil.</p>
<p style="margin:0 0 24px"><a href="${e(link)}" ${BUTTON}>Choose a new password</a></p>
<p ${SMALL}>Or open this address: <a href="${e(link)}" ${LINK}>${e(link)}</a></p>
<p ${SMALL}>${e(lifetime)}</p>
<p style="margin:0;font-size:14px;color:#495057">${e(ignore)}</p>`,
  );
  return {
    to: { name: oneLine(`${account.firstName} ${account.lastName}`), address: account.email },
    subject: `Reset your ${organisation} password on Vexil`,
    text,
    html,
  };
}

export type OrganisationsMailFacts = {
  email: string;
  organisations: { name: string; link: string }[];
};

/** Find organisation: the sign-in address of each organisation the e-mail belongs to. */
export function organisationsMail(facts: OrganisationsMailFacts): MailMessage {
  const count = facts.organisations.length;
  const intro = `${facts.email} belongs to ${count === 1 ? 'this organisation' : `these ${count} organisations`} on Vexil. Sign in at:`;
  const ignore =
    'Someone asked for this list from the Vexil sign-in page. If it was not you, you can ignore it.';
  const text = [
    'Hello,',
    '',
    intro,
    '',
    ...facts.organisations.map((o) => `${oneLine(o.name)}: ${o.link}`),
    '',
    ignore,
    '',
  ].join('\n');
  const items = facts.organisations
    .map(
      (o) =>
        `<li style="margin:0 0 8px"><strong>${e(oneLine(o.name))}</strong><br><a href="${e(o.link)}" ${LINK}>${e(o.link)}</a></li>`,
    )
    .join('\n');
  const html = page(
    'Your organisations on Vexil',
    `<p ${P}>Hello,</p>
<p ${P}>${e(intro)}</p>
<ul style="margin:0 0 16px;padding-left:20px">
${items}
</ul>
<p style="margin:0;font-size:14px;color:#495057">${e(ignore)}</p>`,
  );
  return {
    to: { name: '', address: facts.email },
    subject: 'Your organisations on Vexil',
    text,
    html,
  };
}

/** The sign-up wizard's pin (docs/product.md §4 Signup wizard): the 6 digits, large, in both parts. */
export function signupPinMail(facts: { email: string; pin: string }): MailMessage {
  const intro = `Someone started creating a Vexil organisation with ${facts.email}. Your pin is:`;
  const lifetime = `Enter it in the sign-up page within ${SIGNUP_PIN_LIFETIME_MINUTES} minutes.`;
  const ignore =
    'If you did not ask for this, you can ignore this e-mail: nothing is created without the pin.';
  const text = ['Hello,', '', intro, '', facts.pin, '', lifetime, ignore, ''].join('\n');
  const html = page(
    'Your Vexil sign-up pin',
    `<p ${P}>Hello,</p>
<p ${P}>${e(intro)}</p>
<p style="margin:0 0 16px;font-size:32px;font-weight:700;letter-spacing:6px;font-family:ui-monospace,Menlo,Consolas,monospace">${e(facts.pin)}</p>
<p ${SMALL}>${e(lifetime)}</p>
<p style="margin:0;font-size:14px;color:#495057">${e(ignore)}</p>`,
  );
  return {
    to: { name: '', address: facts.email },
    subject: `${facts.pin} is your Vexil sign-up pin`,
    text,
    html,
  };
}

export type WelcomeMailFacts = {
  account: { email: string; firstName: string; lastName: string };
  organisation: string;
  link: string;
};

/** After createaccount: where the new organisation signs in, kept for later. */
export function welcomeMail(facts: WelcomeMailFacts): MailMessage {
  const { account, link } = facts;
  const organisation = oneLine(facts.organisation);
  const greeting = greetingOf(account.firstName);
  const intro = `Your organisation ${organisation} is ready on Vexil, with a first project and its Development and Production environments.`;
  const signIn = `Sign in with ${account.email} at:`;
  const text = [greeting, '', intro, '', signIn, link, ''].join('\n');
  const html = page(
    `Welcome to Vexil`,
    `<p ${P}>${e(greeting)}</p>
<p ${P}>Your organisation <strong>${e(organisation)}</strong> is ready on Vexil, with a first project and its Development and Production environments.</p>
<p ${P}>Sign in with <strong>${e(account.email)}</strong> at:</p>
<p style="margin:0"><a href="${e(link)}" ${LINK}>${e(link)}</a></p>`,
  );
  return {
    to: { name: oneLine(`${account.firstName} ${account.lastName}`), address: account.email },
    subject: `Welcome to Vexil: ${organisation} is ready`,
    text,
    html,
  };
}
