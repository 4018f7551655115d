import { beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { AUTHORITIES, type InvitesResult } from '@vexil/core';
import { invites, ssoAttempts, users } from '../../db/schema/index';
import { hashToken } from '../../lib/tokens';
import { auditTrail, callerFor, subscribe } from '../../../test/api';
import { randomIp, type TestUser } from '../../../test/helpers';
import {
  PUBLIC_HOST,
  REDIRECT_URI,
  configureSso,
  deliver,
  loginTokenOf,
  runSso,
  signedInAs,
  startSso,
} from '../../../test/sso';
import {
  setUpSsoSignIn,
  h,
  provider,
  logs,
  admin,
  adminCall,
  member,
  memberCount,
  failure,
} from './sso.sign-in.fixture';

setUpSsoSignIn();

describe('signing in', () => {
  it('signs an existing member in by e-mail, whatever its case, through a one-time login link', async () => {
    const existing = await h.createUser(admin.organisationId, 'acme', {
      authority: AUTHORITIES.ROLE_ORGANISATION_READONLY_USER,
    });
    await h.database.db.update(users).set({ email: 'ada@example.com' }).where(eq(users.id, existing.id));
    const count = await memberCount(admin.organisationId);

    const run = await runSso(h, provider, 'acme', 'ada', { rememberMe: true });
    expect(run.location.origin).toBe(`http://${PUBLIC_HOST}`);
    expect(run.location.pathname).toMatch(/^\/login\/vxo_/);
    expect(Object.fromEntries(run.location.searchParams)).toEqual({ domain: 'acme', rememberMe: 'true' });

    const initial = await signedInAs(h, run.location);
    expect(initial.principalUser).toMatchObject({
      id: existing.id,
      email: 'ada@example.com',
      authorities: [AUTHORITIES.ROLE_ORGANISATION_READONLY_USER],
    });
    expect(initial.organisation.domain).toBe('acme');
    expect(await memberCount(admin.organisationId)).toBe(count);
  });

  it('sent the provider a PKCE S256 request with state, nonce and the openid email profile scope', async () => {
    const { location, cookie, state } = await startSso(h, 'acme');
    expect(location.pathname).toBe('/auth');
    const params = Object.fromEntries(location.searchParams);
    expect(params).toMatchObject({
      client_id: 'vexil',
      redirect_uri: REDIRECT_URI,
      response_type: 'code',
      scope: 'openid email profile',
      code_challenge_method: 'S256',
    });
    expect(params['code_challenge']).toMatch(/^[\w-]{43}$/);
    expect(params['nonce']).toMatch(/^[\w-]{43}$/);
    expect(state).toMatch(/^[\w-]{43}$/);
    expect(cookie).toBe(state);
    // Only the state's hash is stored.
    const [attempt] = await h.database.db.select().from(ssoAttempts);
    expect(attempt?.stateHash).toBe(hashToken(state));
    expect(JSON.stringify(attempt)).not.toContain(state);
  });

  it('makes a newcomer of an allowed domain a member with the default role and the provider’s names', async () => {
    const run = await runSso(h, provider, 'acme', 'grace');
    const initial = await signedInAs(h, run.location);
    expect(initial.principalUser).toMatchObject({
      email: 'grace@example.com',
      firstName: 'Grace',
      lastName: 'Brewster Hopper',
      authorities: [AUTHORITIES.ROLE_ORGANISATION_EDITOR],
    });
    expect(await member(admin.organisationId, 'grace@example.com')).toMatchObject({
      activated: true,
      passwordHash: null,
    });
    // The joining, and the sign-in itself.
    const trail = await auditTrail(adminCall);
    const joined = trail.find((item) => item.title === 'Grace Brewster Hopper joined the team');
    expect(joined?.description).toContain('signed in with Acme ID for the first time');
    expect(trail.map((item) => item.description)).toContain(
      'grace@example\\.com signed in with **Acme ID** (single sign-on).',
    );
  });

  it('accepts a pending invitation for that e-mail, keeping the invited role', async () => {
    const res = await adminCall('POST', '/api/v1/invites', [
      { email: 'ada@example.com', firstName: 'Augusta' },
    ]);
    expect(res.statusCode, res.body).toBe(201);
    const pending = res.json<InvitesResult>().invitations[0]!;

    const initial = await signedInAs(h, (await runSso(h, provider, 'acme', 'ada')).location);
    expect(initial.principalUser).toMatchObject({
      id: pending.id,
      email: 'ada@example.com',
      firstName: 'Augusta',
      authorities: [AUTHORITIES.ROLE_ORGANISATION_READONLY_USER],
    });
    const [invitation] = await h.database.db.select().from(invites).where(eq(invites.userId, pending.id));
    expect(invitation?.acceptedAt).toBeInstanceOf(Date);
    expect(
      (await auditTrail(adminCall)).some((item) => item.description.includes('accepted their invitation')),
    ).toBe(true);
  });

  it('leaves a pending invitation pending when the plan has no seat left for it', async () => {
    const res = await adminCall('POST', '/api/v1/invites', [{ email: 'ada@example.com' }]);
    expect(res.statusCode, res.body).toBe(201);
    // The plan shrinks to the members already active (the admin): the invitation no longer fits.
    await subscribe(h, admin.organisationId, { maxOrganisationUsers: 1 });
    expect(failure((await runSso(h, provider, 'acme', 'ada')).location)).toBe(
      `http://${PUBLIC_HOST}/acme/login?sso=not-allowed`,
    );
    expect(await member(admin.organisationId, 'ada@example.com')).toMatchObject({ activated: false });
  });

  it('ends on the organisation’s sub-domain when it started there', async () => {
    const first = await h.app.inject({
      method: 'GET',
      url: '/api/v1/sso/start?rememberMe=false',
      remoteAddress: randomIp(),
      headers: { host: `acme.${PUBLIC_HOST}` },
    });
    expect(first.statusCode).toBe(302);
    // The attempt begins at the public address, where the provider comes back to.
    const restart = new URL(String(first.headers.location));
    expect(restart.origin).toBe(`http://${PUBLIC_HOST}`);
    expect(Object.fromEntries(restart.searchParams)).toEqual({
      domain: 'acme',
      rememberMe: 'false',
      via: 'sub-domain',
    });
    const started = await startSso(h, 'acme', { via: 'sub-domain' });
    const answer = await provider.signIn(started.location.href, 'grace');
    const location = await deliver(h, answer, started.cookie);
    expect(location.origin).toBe(`http://acme.${PUBLIC_HOST}`);
    expect(location.pathname).toMatch(/^\/login\/vxo_/);
    expect((await signedInAs(h, location)).principalUser.email).toBe('grace@example.com');
  });

  it('starts in place on an address that is not a sub-domain (a proxy that rewrites Host): no redirect loop', async () => {
    const started = await startSso(h, 'acme', { host: 'vexil-upstream:3000' });
    expect(started.location.origin).toBe(provider.issuer);
    // Once sent from the sub-domain, a start is never sent on again.
    const again = await startSso(h, 'acme', { host: `acme.${PUBLIC_HOST}`, via: 'sub-domain' });
    expect(again.location.origin).toBe(provider.issuer);
  });

  it('starts from the organisation named in the path, as the sign-in page at /{organisation}/login does', async () => {
    const started = await startSso(h, '', { path: '/acme/api/v1/sso/start' });
    expect(started.location.origin).toBe(provider.issuer);
  });
});

describe('organisations', () => {
  let beta: TestUser;
  beforeEach(async () => {
    beta = await h.createOrganisation({ domain: 'beta' });
    await configureSso(callerFor(h.app, await h.login(beta)), provider, {
      clientId: 'other-app',
      clientSecret: 'other-s3cret-value',
      allowedDomains: ['example.com', 'elsewhere.org'],
    });
  });

  it('signs in to the organisation whose attempt the state names, whatever address the answer comes to', async () => {
    const started = await startSso(h, 'acme');
    const answer = await provider.signIn(started.location.href, 'grace');
    const location = await deliver(h, answer, started.cookie, `beta.${PUBLIC_HOST}`);
    expect(location.searchParams.get('domain')).toBe('acme');
    const token = loginTokenOf(location);
    // The token is acme's: beta's address refuses it.
    const atBeta = await h.app.inject({
      method: 'POST',
      url: '/api/authenticate/token',
      remoteAddress: randomIp(),
      payload: { token, domain: 'beta' },
    });
    expect(atBeta.statusCode).toBe(401);
    expect(await member(beta.organisationId, 'grace@example.com')).toBeUndefined();
    expect(await member(admin.organisationId, 'grace@example.com')).toBeDefined();
  });

  it('refuses one organisation’s answer delivered with another organisation’s state', async () => {
    // mallory@elsewhere.org may join beta, not acme: an answer obtained through beta…
    const atBeta = await startSso(h, 'beta');
    const answer = await provider.signIn(atBeta.location.href, 'mallory');
    // …brought back with a sign-in started at acme (its state and cookie) is refused.
    const atAcme = await startSso(h, 'acme');
    const forged = new URL(answer);
    forged.searchParams.set('state', atAcme.state);
    expect(failure(await deliver(h, forged, atAcme.cookie))).toBe(
      `http://${PUBLIC_HOST}/acme/login?sso=invalid`,
    );
    expect(await member(admin.organisationId, 'mallory@elsewhere.org')).toBeUndefined();
    expect(await member(beta.organisationId, 'mallory@elsewhere.org')).toBeUndefined();
  });
});

describe('logs', () => {
  it('log failures with the reason and organisation only: no e-mail, code, state or token', async () => {
    const run = await runSso(h, provider, 'acme', 'mallory');
    provider.tamperIdTokens({ claims: (claims) => ({ ...claims, aud: 'other-app' }) });
    const invalid = await runSso(h, provider, 'acme', 'grace');
    provider.tamperIdTokens(null);
    const success = await runSso(h, provider, 'acme', 'grace');
    const failures = logs.lines().filter((line) => line.msg === 'Single sign-on failed');
    expect(failures).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ organisationId: admin.organisationId, reason: 'not-allowed' }),
        expect.objectContaining({ organisationId: admin.organisationId, reason: 'invalid' }),
      ]),
    );
    const raw = logs.raw();
    for (const secret of [
      'mallory@elsewhere.org',
      'grace@example.com',
      run.state,
      invalid.state,
      String(run.answer.searchParams.get('code')),
      String(invalid.answer.searchParams.get('code')),
      loginTokenOf(success.location),
      'client-s3cret-value',
    ])
      expect(raw).not.toContain(secret);
  });
});
