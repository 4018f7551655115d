import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { AUTHORITIES } from '@vexil/core';
import { oneTimeTokens, organisations, users } from '../../db/schema/index';
import { hashToken } from '../../lib/tokens';
import { auditTrail, callerFor } from '../../../test/api';
import { bearer, createHarness, randomIp, type Harness, type TestUser } from '../../../test/helpers';
import { captureLogs } from '../../../test/logs';
import { startTestMailServer, type TestMailServer } from '../../../test/smtp-server';

const LINK = /http:\/\/vexil\.test\/resetpassword\?key=(vxr_[A-Za-z0-9_-]+)/;
const NOT_SENT_WAIT_MS = 300;

function keyOf(text: string | undefined): string {
  const match = LINK.exec(text ?? '');
  if (!match) throw new Error(`No reset link in ${text}`);
  return match[1]!;
}

describe('password reset', () => {
  let h: Harness;
  let mail: TestMailServer;
  let user: TestUser;
  const logs = captureLogs('info');

  beforeAll(async () => {
    mail = await startTestMailServer();
    h = await createHarness(
      { SMTP_URL: mail.url, MAIL_FROM: 'Vexil <no-reply@vexil.test>' },
      { logger: logs.logger },
    );
  });
  afterAll(async () => {
    await h.close();
    await mail.close();
  });
  beforeEach(async () => {
    await h.database.reset();
    mail.received.length = 0;
    user = await h.createOrganisation({ name: 'Acme' });
  });

  const init = (body: unknown, options: { url?: string; host?: string; ip?: string } = {}) =>
    h.app.inject({
      method: 'POST',
      url: options.url ?? '/api/account/reset_password/init',
      remoteAddress: options.ip ?? randomIp(),
      ...(options.host ? { headers: { host: options.host } } : {}),
      payload: body as object,
    });
  const finish = (key: string, password: string) =>
    h.app.inject({
      method: 'POST',
      url: '/api/account/reset_password/finish',
      remoteAddress: randomIp(),
      payload: { key, password },
    });
  const signIn = (email: string, password: string, domain = user.domain) =>
    h.app.inject({
      method: 'POST',
      url: '/api/authenticate',
      remoteAddress: randomIp(),
      payload: { username: email, password, domain },
    });

  /** Asks for a reset of `user` and answers the key of the link the e-mail brings. */
  async function requestKey(): Promise<string> {
    const before = mail.received.length;
    const res = await init({ email: user.email, domain: user.domain });
    expect(res.statusCode, res.body).toBe(204);
    const received = await mail.waitFor(before + 1);
    return keyOf(received.at(-1)!.message.text);
  }

  /** Lets the e-mails posted so far reach the server (or not), so "nothing was sent" is observed. */
  async function settle() {
    await h.app.services.signup.mailsSettled();
    await new Promise((resolve) => setTimeout(resolve, NOT_SENT_WAIT_MS));
  }

  it('e-mails a link /resetpassword?key= with a plain-text and an HTML part; only the key’s SHA-256 is kept, for 1 hour', async () => {
    const res = await init({ email: user.email.toUpperCase(), domain: user.domain });
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    const [received] = await mail.waitFor(1);
    expect(received!.to).toEqual([user.email]);
    expect(received!.message.subject).toBe('Reset your Acme password on Vexil');
    const key = keyOf(received!.message.text);
    expect(received!.message.text).toMatch(/^Hello Test,/);
    expect(received!.message.text).toContain('expires in 60 minutes');
    expect(received!.message.html).toContain(`href="http://vexil.test/resetpassword?key=${key}"`);

    const rows = await h.database.db.select().from(oneTimeTokens).where(eq(oneTimeTokens.userId, user.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ purpose: 'reset_password', tokenHash: hashToken(key), usedAt: null });
    expect(rows[0]!.expiresAt.getTime() - rows[0]!.createdAt.getTime()).toBe(60 * 60 * 1000);
    expect(JSON.stringify(rows)).not.toContain(key);
  });

  it('takes the organisation from the host or the /{organisation}/api path, which win over the body', async () => {
    expect((await init({ email: user.email }, { host: `${user.domain}.vexil.test` })).statusCode).toBe(204);
    await mail.waitFor(1);
    expect(
      (await init({ email: user.email }, { url: `/${user.domain}/api/account/reset_password/init` }))
        .statusCode,
    ).toBe(204);
    await mail.waitFor(2);
    // Another organisation's address with this organisation's body domain: nothing for this member.
    const other = await h.createOrganisation();
    const res = await init(
      { email: user.email, domain: user.domain },
      { host: `${other.domain}.vexil.test` },
    );
    expect(res.statusCode).toBe(204);
    await settle();
    expect(mail.received).toHaveLength(2);
  });

  it('needs an organisation: 400 without host, path or body domain', async () => {
    const res = await init({ email: user.email });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      title: 'Which organisation? Ask for the reset from your organisation’s sign-in page.',
      errors: [{ field: 'domain', message: 'Organisation domain is required' }],
    });
  });

  it('answers an unknown e-mail, an unknown organisation and a pending invitee exactly like a member, and e-mails none of them', async () => {
    const member = await init({ email: user.email, domain: user.domain });
    await mail.waitFor(1);
    const pending = await h.createUser(user.organisationId, user.domain, { activated: false });
    const answers = [
      member,
      await init({ email: 'nobody@example.com', domain: user.domain }),
      await init({ email: user.email, domain: 'no-such-org' }),
      await init({ email: pending.email, domain: user.domain }),
    ];
    for (const res of answers) {
      expect(res.statusCode).toBe(204);
      expect(res.body).toBe('');
      expect(res.headers['content-type']).toBe(member.headers['content-type']);
    }
    await settle();
    expect(mail.received.map((m) => m.to)).toEqual([[user.email]]);
  });

  it('refuses a malformed e-mail with the form’s message', async () => {
    const res = await init({ email: 'not-an-email', domain: user.domain });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      errors: [{ field: 'email', message: 'Must be a valid email address' }],
    });
  });

  it('sets the new password once: the old one and every session end, the key and the other keys die', async () => {
    const browser = await h.login(user);
    const phone = await h.login(user);
    const earlier = await requestKey();
    const key = await requestKey();

    const res = await finish(key, 'n3w password');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ domain: user.domain });

    for (const token of [browser, phone]) {
      const initial = await h.app.inject({ method: 'GET', url: '/api/v1/initial', headers: bearer(token) });
      expect(initial.statusCode).toBe(401);
    }
    expect((await signIn(user.email, user.password)).statusCode).toBe(401);
    const fresh = await signIn(user.email, 'n3w password');
    expect(fresh.statusCode).toBe(200);

    for (const spent of [key, earlier]) {
      const again = await finish(spent, 'another one');
      expect(again.statusCode).toBe(400);
      expect(again.json()).toMatchObject({
        title: 'There was an error resetting your password',
        detail: 'This reset link is not valid: it may have expired or been used already. Ask for a new one.',
      });
    }
    expect((await signIn(user.email, 'n3w password')).statusCode).toBe(200);

    const call = callerFor(h.app, fresh.json<{ id_token: string }>().id_token);
    // The sign-ins with the new password aside.
    const trail = (await auditTrail(call)).filter((item) => !item.title.endsWith(' signed in'));
    expect(trail[0]?.title).toBe(`${user.email} reset their password`);
    expect(trail[0]?.description).toContain(
      'set a new password from a reset link; their 2 session(s) were ended.',
    );
    expect(trail[1]?.title).toBe(`Password reset requested for ${user.email}`);
  });

  it('refuses an expired key, an unknown one, and a member removed since', async () => {
    const expired = await requestKey();
    await h.database.db
      .update(oneTimeTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(oneTimeTokens.tokenHash, hashToken(expired)));
    const removedUser = await h.createUser(user.organisationId, user.domain, {
      authority: AUTHORITIES.ROLE_ORGANISATION_EDITOR,
    });
    const other = user;
    user = removedUser;
    const removedKey = await requestKey();
    await h.database.db
      .update(users)
      .set({ archived: true })
      .where(and(eq(users.id, removedUser.id), eq(users.organisationId, other.organisationId)));
    for (const key of [expired, removedKey, `vxr_${randomBytes(32).toString('base64url')}`]) {
      const res = await finish(key, 'whatever');
      expect(res.statusCode).toBe(400);
      expect(res.json<{ title: string }>().title).toBe('There was an error resetting your password');
    }
    expect((await signIn(other.email, other.password, other.domain)).statusCode).toBe(200);
  });

  it('refuses a new password shorter than 4 characters, keeping the key', async () => {
    const key = await requestKey();
    const res = await finish(key, 'abc');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      errors: [{ field: 'password', message: 'Your password should be greater than 4 characters long' }],
    });
    expect((await finish(key, 'abcd')).statusCode).toBe(200);
  });

  it('escapes the organisation’s and the member’s names in the HTML part', async () => {
    await h.database.db
      .update(organisations)
      .set({ name: 'Acme & <b>Partners</b>' })
      .where(eq(organisations.id, user.organisationId));
    await h.database.db
      .update(users)
      .set({ firstName: '<img src=x onerror=alert(1)>' })
      .where(eq(users.id, user.id));
    await requestKey();
    const html = mail.received[0]!.message.html as string;
    expect(html).toContain('Acme &amp; &lt;b&gt;Partners&lt;/b&gt;');
    expect(html).toContain('Hello &lt;img src=x onerror=alert(1)&gt;,');
    expect(html).not.toMatch(/<img|<b>/);
    expect(mail.received[0]!.message.text).toContain('in Acme & <b>Partners</b> on Vexil');
  });

  it('limits e-mails per address, known or not, with 429 and Retry-After', async () => {
    for (const email of [user.email, 'nobody@example.com']) {
      const statuses: number[] = [];
      let last = null as Awaited<ReturnType<typeof init>> | null;
      for (let i = 0; i < 6; i++) {
        last = await init({ email, domain: user.domain });
        statuses.push(last.statusCode);
      }
      expect(statuses).toEqual([204, 204, 204, 204, 204, 429]);
      expect(last!.json()).toMatchObject({
        title: 'Too many e-mails were asked for this address. Please wait and try again later.',
      });
      expect(Number(last!.headers['retry-after'])).toBeGreaterThan(0);
    }
    await settle();
    expect(mail.received).toHaveLength(5);
  });

  it('limits requests per client address', async () => {
    const ip = randomIp();
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      statuses.push(
        (await init({ email: `someone-${i}@example.com`, domain: user.domain }, { ip })).statusCode,
      );
    }
    expect(statuses.slice(0, 10).every((s) => s === 204)).toBe(true);
    expect(statuses[10]).toBe(429);
  });

  it('keeps the key out of the request log', async () => {
    const key = await requestKey();
    await h.app.inject({ method: 'GET', url: `/resetpassword?key=${key}` });
    await finish(key, 'n3w password');
    expect(logs.raw()).not.toContain(key);
  });
});

describe('password reset without a mail server', () => {
  let h: Harness;
  const logs = captureLogs('info');

  beforeAll(async () => {
    h = await createHarness({}, { logger: logs.logger });
  });
  afterAll(async () => {
    await h.close();
  });

  it('answers the same and tells the operator that nothing was sent', async () => {
    const user = await h.createOrganisation();
    const res = await h.app.inject({
      method: 'POST',
      url: '/api/account/reset_password/init',
      remoteAddress: randomIp(),
      payload: { email: user.email, domain: user.domain },
    });
    expect(res.statusCode).toBe(204);
    // The account is looked up, and the e-mail posted, after the answer.
    await h.app.services.signup.mailsSettled();
    expect(logs.raw()).toContain('A password reset e-mail was not sent: mail is not configured (SMTP_URL)');
    expect(logs.raw()).not.toContain(user.email);
  });
});
