/**
 * What the sign-up wizard tests share: a harness whose mail goes to a test SMTP server, the organisation
 * `acme`, a fresh address per test, and the wizard's steps as a client takes them.
 */
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { randomBytes } from 'node:crypto';
import { createHarness, randomIp, type Harness, type TestUser } from '../../../test/helpers';
import { startTestMailServer, type ReceivedMail, type TestMailServer } from '../../../test/smtp-server';

export const PIN_INVALID = 'The pin you have entered is invalid.';

export function pinOf(mail: ReceivedMail): string {
  const match = /^(\d{6})$/m.exec(mail.message.text ?? '');
  if (!match) throw new Error(`No pin in ${mail.message.text}`);
  return match[1]!;
}

export let h: Harness;
export let mail: TestMailServer;
export let acme: TestUser;
/** A fresh address per test: the per-address pin limit lives as long as the app. */
export let grace: string;

export const post = (url: string, body: unknown, ip = randomIp()) =>
  h.app.inject({
    method: 'POST',
    url: `/api/v1/signup/${url}`,
    remoteAddress: ip,
    payload: body as object,
  });

/** registeremail, then the pin read from the e-mail the SMTP server received for that address. */
export async function register(email: string, ip?: string): Promise<{ once: string; pin: string }> {
  const seen = mail.received.length;
  const res = await post('registeremail', { email, beta: false }, ip);
  expect(res.statusCode).toBe(200);
  const { once } = res.json<{ once: string }>();
  for (let count = seen + 1; ; count++) {
    const received = await mail.waitFor(count);
    const pinMail = received
      .slice(seen)
      .find((m) => m.to[0] === email.toLowerCase() && /sign-up pin/.test(m.message.subject ?? ''));
    if (pinMail) return { once, pin: pinOf(pinMail) };
  }
}

export const accountFields = (email: string, once: string, pin: string) => ({
  email,
  once,
  pin,
  firstName: 'Grace',
  lastName: 'Hopper',
  organisationName: 'Hopper Labs',
  organisationDomain: 'Hopper Labs',
  password: 'cobol-1959!',
  confirmPassword: 'cobol-1959!',
});

export async function settle() {
  await h.app.services.signup.mailsSettled();
  await new Promise((resolve) => setTimeout(resolve, 300));
}

/**
 * Starts the mail server and the harness for the calling test file, and starts each of its tests with no mail
 * received, a fresh organisation `acme` and a new address for Grace.
 */
export function setUpSignupWizard(): void {
  beforeAll(async () => {
    mail = await startTestMailServer();
    h = await createHarness({ SMTP_URL: mail.url, MAIL_FROM: 'Vexil <no-reply@vexil.test>' });
  });
  afterAll(async () => {
    await h.close();
    await mail.close();
  });
  beforeEach(async () => {
    // Mail posted by the previous test arrives before this one counts.
    await h.app.services.signup.mailsSettled();
    await h.database.reset();
    mail.received.length = 0;
    acme = await h.createOrganisation({ name: 'Acme', domain: 'acme' });
    grace = `grace-${randomBytes(4).toString('hex')}@example.com`;
  });
}
