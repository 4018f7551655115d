import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { signups } from '../../db/schema/index';
import { hashToken } from '../../lib/tokens';
import { auditTrail, callerFor } from '../../../test/api';
import { createHarness, randomIp, type Harness, type TestUser } from '../../../test/helpers';
import { startTestMailServer, type ReceivedMail, type TestMailServer } from '../../../test/smtp-server';

const PIN_INVALID = 'The pin you have entered is invalid.';

function pinOf(mail: ReceivedMail): string {
  const match = /^(\d{6})$/m.exec(mail.message.text ?? '');
  if (!match) throw new Error(`No pin in ${mail.message.text}`);
  return match[1]!;
}

describe('sign-up wizard', () => {
  let h: Harness;
  let mail: TestMailServer;
  let acme: TestUser;
  /** A fresh address per test: the per-address pin limit lives as long as the app. */
  let grace: string;

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

  const post = (url: string, body: unknown, ip = randomIp()) =>
    h.app.inject({
      method: 'POST',
      url: `/api/v1/signup/${url}`,
      remoteAddress: ip,
      payload: body as object,
    });

  /** registeremail, then the pin read from the e-mail the SMTP server received for that address. */
  async function register(email: string, ip?: string): Promise<{ once: string; pin: string }> {
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

  const accountFields = (email: string, once: string, pin: string) => ({
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

  async function settle() {
    await h.app.services.signup.mailsSettled();
    await new Promise((resolve) => setTimeout(resolve, 300));
  }

  describe('POST /api/v1/signup/registeremail', () => {
    it('answers a once and e-mails a 6-digit pin, in plain text and HTML', async () => {
      const res = await post('registeremail', { email: grace.toUpperCase(), beta: true });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ once: expect.stringMatching(/^vxu_[A-Za-z0-9_-]{43}$/) });
      const [received] = await mail.waitFor(1);
      expect(received!.to).toEqual([grace]);
      const pin = pinOf(received!);
      expect(received!.message.subject).toBe(`${pin} is your Vexil sign-up pin`);
      expect(received!.message.text).toContain('within 15 minutes');
      expect(received!.message.html).toContain(`>${pin}</p>`);
      // Neither the pin nor the once is stored in clear.
      const [row] = await h.database.db.select().from(signups);
      expect(row!.email).toBe(grace);
      expect(row!.beta).toBe(true);
      expect(JSON.stringify(row)).not.toContain(pin);
      expect(row!.expiresAt.getTime() - row!.createdAt.getTime()).toBe(15 * 60 * 1000);
    });

    it('answers an address that already has an account exactly like a new one, and e-mails both', async () => {
      const known = await post('registeremail', { email: acme.email, beta: false });
      const unknown = await post('registeremail', { email: 'new@example.com', beta: false });
      expect(known.statusCode).toBe(unknown.statusCode);
      expect(Object.keys(known.json())).toEqual(Object.keys(unknown.json()));
      expect(known.json<{ once: string }>().once).toHaveLength(unknown.json<{ once: string }>().once.length);
      expect(known.headers['content-type']).toBe(unknown.headers['content-type']);
      const received = await mail.waitFor(2);
      expect(received.map((m) => m.to[0]).sort()).toEqual([acme.email, 'new@example.com'].sort());
    });

    it('refuses a bad e-mail with the form message', async () => {
      const res = await post('registeremail', { email: 'not-an-email', beta: false });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        errors: [{ field: 'email', message: 'not-an-email is not a valid email.' }],
      });
    });

    it('sends one address 5 pins an hour, then answers 429, whatever the client address', async () => {
      for (let i = 0; i < 5; i++)
        expect((await post('registeremail', { email: 'busy@example.com', beta: false })).statusCode).toBe(
          200,
        );
      const res = await post('registeremail', { email: 'BUSY@example.com', beta: false });
      expect(res.statusCode).toBe(429);
      expect(res.json()).toMatchObject({
        title: 'Too many e-mails were asked for this address. Please wait and try again later.',
      });
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      await settle();
      expect(mail.received).toHaveLength(5);
    });

    it('lets one client address ask 10 times per 15 minutes', async () => {
      const ip = randomIp();
      for (let i = 0; i < 10; i++)
        expect(
          (await post('registeremail', { email: `p${i}@example.com`, beta: false }, ip)).statusCode,
        ).toBe(200);
      expect((await post('registeremail', { email: 'p10@example.com', beta: false }, ip)).statusCode).toBe(
        429,
      );
    });
  });

  describe('POST /api/v1/signup/validatepin', () => {
    it('accepts the e-mailed pin', async () => {
      const { once, pin } = await register(grace);
      const res = await post('validatepin', { email: grace, once, pin });
      expect(res.statusCode).toBe(204);
      // Validating again (the user went back) still works.
      expect((await post('validatepin', { email: grace, once, pin })).statusCode).toBe(204);
    });

    it('refuses a wrong pin, a pin that is not 6 digits, and another address’s pin', async () => {
      const { once, pin } = await register(grace);
      const wrong = String((Number(pin) + 1) % 1_000_000).padStart(6, '0');
      const res = await post('validatepin', { email: grace, once, pin: wrong });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        title: PIN_INVALID,
        errors: [{ field: 'pin', message: PIN_INVALID }],
      });
      const short = await post('validatepin', { email: grace, once, pin: '12a45' });
      expect(short.statusCode).toBe(400);
      expect(short.json()).toMatchObject({ errors: [{ field: 'pin', message: PIN_INVALID }] });
      const other = await post('validatepin', { email: 'someone@example.com', once, pin });
      expect(other.statusCode).toBe(400);
      expect(other.json()).toMatchObject({ title: PIN_INVALID });
    });

    it('kills the pin after 5 wrong tries, even for the right one', async () => {
      const { once, pin } = await register(grace);
      const wrong = String((Number(pin) + 1) % 1_000_000).padStart(6, '0');
      for (let i = 0; i < 4; i++) {
        const res = await post('validatepin', { email: grace, once, pin: wrong });
        expect(res.json()).toMatchObject({ title: PIN_INVALID });
        expect(res.json<{ detail?: string }>().detail).toBeUndefined();
      }
      const fifth = await post('validatepin', { email: grace, once, pin: wrong });
      expect(fifth.json()).toMatchObject({
        title: PIN_INVALID,
        detail: expect.stringContaining('Ask for a new pin'),
      });
      const right = await post('validatepin', { email: grace, once, pin });
      expect(right.statusCode).toBe(400);
      expect(right.json()).toMatchObject({
        title: PIN_INVALID,
        detail: expect.stringContaining('Ask for a new pin'),
      });
    });

    it('refuses a pin after 15 minutes', async () => {
      const { once, pin } = await register(grace);
      await h.database.db
        .update(signups)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(signups.onceTokenHash, hashToken(once)));
      const res = await post('validatepin', { email: grace, once, pin });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ title: PIN_INVALID });
    });

    it('refuses an unknown once', async () => {
      const res = await post('validatepin', { email: grace, once: 'vxu_nope', pin: '123456' });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ title: PIN_INVALID });
    });
  });

  describe('POST /api/v1/signup/checkdomain', () => {
    const check = (domain: string) => post('checkdomain', { domain });

    it('says a free domain is available', async () => {
      const res = await check('hopper-labs');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ available: true, suggestions: [] });
    });

    it('normalises before checking: a taken domain in other letters is taken', async () => {
      const res = await check('  ACME!! ');
      expect(res.json()).toEqual({
        available: false,
        suggestions: ['acme-global', 'acme-group', 'acme-company'],
      });
    });

    it('suggests only the -global, -group and -company domains that are free', async () => {
      await h.createOrganisation({ name: 'Acme Group', domain: 'acme-group' });
      const res = await check('acme');
      expect(res.json()).toEqual({ available: false, suggestions: ['acme-global', 'acme-company'] });
      for (const suggestion of res.json<{ suggestions: string[] }>().suggestions)
        expect((await check(suggestion)).json()).toMatchObject({ available: true });
    });

    it('refuses reserved names such as admin, login and signup', async () => {
      for (const domain of ['admin', 'login', 'signup', 'Help'])
        expect((await check(domain)).json()).toMatchObject({ available: false });
    });

    it('needs at least 4 characters after normalising', async () => {
      const res = await check('a_b');
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        errors: [{ field: 'domain', message: 'The domain must be at least 4 characters long.' }],
      });
      expect((await check('www')).statusCode).toBe(400);
    });
  });

  describe('POST /api/v1/signup/createaccount', () => {
    async function confirmed(email = grace) {
      const { once, pin } = await register(email);
      expect((await post('validatepin', { email, once, pin })).statusCode).toBe(204);
      return { once, pin };
    }

    it('creates the organisation, its active admin and a first project with Production and Development, and signs in with the token once', async () => {
      const { once, pin } = await confirmed();
      const res = await post('createaccount', accountFields(grace.toUpperCase(), once, pin));
      expect(res.statusCode).toBe(200);
      const { token, domain } = res.json<{ token: string; domain: string }>();
      expect(domain).toBe('hopper-labs');
      expect(token).toMatch(/^vxo_/);

      const signIn = () =>
        h.app.inject({
          method: 'POST',
          url: '/api/authenticate/token',
          remoteAddress: randomIp(),
          payload: { token, domain },
        });
      const session = await signIn();
      expect(session.statusCode).toBe(200);
      const call = callerFor(h.app, session.json<{ id_token: string }>().id_token);
      const initial = (await call('GET', '/api/v1/initial')).json<{
        principalUser: {
          email: string;
          firstName: string;
          lastName: string;
          authorities: string[];
          activatedDate: string;
        };
        organisation: { name: string; domain: string };
        projects: { name: string; key: string; environments: { name: string; production: boolean }[] }[];
      }>();
      expect(initial.principalUser).toMatchObject({
        email: grace,
        firstName: 'Grace',
        lastName: 'Hopper',
        authorities: ['ROLE_ORGANISATION_ADMIN'],
      });
      expect(initial.principalUser.activatedDate).toBeTruthy();
      expect(initial.organisation).toMatchObject({ name: 'Hopper Labs', domain: 'hopper-labs' });
      expect(initial.projects).toHaveLength(1);
      expect(initial.projects[0]).toMatchObject({ name: 'First Project', key: 'first' });
      expect(initial.projects[0]!.environments.map((e) => [e.name, e.production]).sort()).toEqual([
        ['Development', false],
        ['Production', true],
      ]);
      // Newest first: the sign-in with the token, after the organisation's creation.
      const trail = await auditTrail(call);
      expect(trail.map((item) => item.title).slice(0, 2)).toEqual([
        `${grace} signed in`,
        'Organisation Hopper Labs created',
      ]);

      // The login token works once; the password chosen works for a normal sign-in.
      expect((await signIn()).statusCode).toBe(401);
      const login = await h.app.inject({
        method: 'POST',
        url: '/api/authenticate',
        remoteAddress: randomIp(),
        payload: { username: grace, password: 'cobol-1959!', domain: 'hopper-labs' },
      });
      expect(login.statusCode).toBe(200);

      // The domain is now taken, with free suggestions.
      expect((await post('checkdomain', { domain: 'hopper-labs' })).json()).toMatchObject({
        available: false,
      });
    });

    it('e-mails the new admin where to sign in, escaping the organisation name in the HTML', async () => {
      const { once, pin } = await confirmed();
      const res = await post('createaccount', {
        ...accountFields(grace, once, pin),
        organisationName: '<b>Hopper</b> & "Labs"',
        firstName: '<i>Grace</i>',
      });
      expect(res.statusCode).toBe(200);
      const received = await mail.waitFor(2);
      const welcome = received.find((m) => m.message.subject?.startsWith('Welcome'))!;
      expect(welcome.message.subject).toBe('Welcome to Vexil: <b>Hopper</b> & "Labs" is ready');
      expect(welcome.message.text).toContain('http://vexil.test/hopper-labs/login');
      expect(welcome.message.html).toContain('&lt;b&gt;Hopper&lt;/b&gt; &amp; &quot;Labs&quot;');
      expect(welcome.message.html).toContain('&lt;i&gt;Grace&lt;/i&gt;');
      expect(welcome.message.html).not.toContain('<b>Hopper');
      expect(welcome.message.html).not.toContain('<i>Grace');
    });

    it('works with an address that already belongs to another organisation', async () => {
      const { once, pin } = await confirmed(acme.email);
      const res = await post('createaccount', accountFields(acme.email, once, pin));
      expect(res.statusCode).toBe(200);
    });

    it('refuses a sign-up whose pin was never validated', async () => {
      const { once, pin } = await register(grace);
      const res = await post('createaccount', accountFields(grace, once, pin));
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        title: PIN_INVALID,
        detail: expect.stringContaining('Start again'),
      });
      expect((await post('checkdomain', { domain: 'hopper-labs' })).json()).toMatchObject({
        available: true,
      });
    });

    it('spends the sign-up: the same once and pin cannot create a second organisation', async () => {
      const { once, pin } = await confirmed();
      expect((await post('createaccount', accountFields(grace, once, pin))).statusCode).toBe(200);
      const again = await post('createaccount', {
        ...accountFields(grace, once, pin),
        organisationDomain: 'another-one',
      });
      expect(again.statusCode).toBe(400);
      expect(again.json()).toMatchObject({ title: PIN_INVALID });
      expect((await post('validatepin', { email: grace, once, pin })).statusCode).toBe(400);
    });

    it('refuses a wrong pin, another e-mail, or a sign-up confirmed more than an hour ago', async () => {
      const { once, pin } = await confirmed();
      const wrong = String((Number(pin) + 1) % 1_000_000).padStart(6, '0');
      expect((await post('createaccount', accountFields(grace, once, wrong))).statusCode).toBe(400);
      expect((await post('createaccount', accountFields('eve@example.com', once, pin))).statusCode).toBe(400);
      await h.database.db
        .update(signups)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(signups.onceTokenHash, hashToken(once)));
      expect((await post('createaccount', accountFields(grace, once, pin))).statusCode).toBe(400);
    });

    it('refuses a taken or reserved domain and keeps the sign-up usable with another', async () => {
      const { once, pin } = await confirmed();
      for (const organisationDomain of ['ACME', 'admin']) {
        const taken = await post('createaccount', {
          ...accountFields(grace, once, pin),
          organisationDomain,
        });
        expect(taken.statusCode).toBe(400);
        expect(taken.json()).toMatchObject({
          errors: [{ field: 'organisationDomain', message: 'The domain name is unavailable' }],
        });
      }
      const res = await post('createaccount', {
        ...accountFields(grace, once, pin),
        organisationDomain: 'acme-global',
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ domain: 'acme-global' });
    });

    it('checks every field with the form messages', async () => {
      const { once, pin } = await confirmed();
      const res = await post('createaccount', {
        ...accountFields(grace, once, pin),
        firstName: ' ',
        organisationName: '',
        organisationDomain: 'ab',
        password: 'abc',
        confirmPassword: 'abd',
      });
      expect(res.statusCode).toBe(400);
      const messages = res.json<{ errors: { field: string; message: string }[] }>().errors;
      expect(messages).toEqual(
        expect.arrayContaining([
          { field: 'firstName', message: 'First name is required' },
          { field: 'organisationName', message: 'The Organisation name is required' },
          { field: 'organisationDomain', message: 'The domain must be at least 4 characters long.' },
          { field: 'password', message: 'Your password should be greater than 4 characters long' },
        ]),
      );
      const differ = await post('createaccount', {
        ...accountFields(grace, once, pin),
        confirmPassword: 'something-else',
      });
      expect(differ.statusCode).toBe(400);
      expect(differ.json()).toMatchObject({
        errors: [{ field: 'confirmPassword', message: 'The two passwords do not match.' }],
      });
    });
  });
});
