import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { signups } from '../../db/schema/index';
import { hashToken } from '../../lib/tokens';
import { auditTrail, callerFor } from '../../../test/api';
import { randomIp } from '../../../test/helpers';
import {
  setUpSignupWizard,
  PIN_INVALID,
  h,
  mail,
  acme,
  grace,
  post,
  register,
  accountFields,
} from './signup-wizard.routes.fixture';

setUpSignupWizard();

describe('sign-up wizard', () => {
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
