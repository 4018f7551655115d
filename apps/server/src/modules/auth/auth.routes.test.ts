import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { AUTHORITIES } from '@vexil/core';
import { sessions, users } from '../../db/schema/index';
import { bearer, createHarness, randomIp, type Harness, type TestUser } from '../../../test/helpers';

const INVALID = 'The email and password combination you have provided is invalid.';

let h: Harness;
let user: TestUser;

beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h.close();
});
beforeEach(async () => {
  await h.database.reset();
  user = await h.createOrganisation({ domain: 'acme' });
});

/** Each call comes from its own address unless one is given, so the per-IP limit only bites where tested. */
function authenticate(
  payload: Record<string, unknown>,
  headers: Record<string, string> = {},
  remoteAddress = randomIp(),
) {
  return h.app.inject({ method: 'POST', url: '/api/authenticate', payload, headers, remoteAddress });
}

describe('POST /api/authenticate', () => {
  it('returns an id_token and sets the session cookie', async () => {
    const res = await authenticate({
      username: user.email,
      password: user.password,
      domain: 'acme',
      rememberMe: false,
    });
    expect(res.statusCode).toBe(200);
    const token = res.json<{ id_token: string }>().id_token;
    expect(token).toMatch(/^vxs_/);
    const cookie = res.cookies.find((c) => c.name === 'authenticationToken');
    expect(cookie?.value).toBe(token);
    expect(cookie?.httpOnly).toBe(true);
    expect(cookie?.sameSite).toBe('Lax');
    expect(cookie?.path).toBe('/');
    expect(cookie?.maxAge).toBeUndefined();
  });

  it('keeps the cookie for 30 days with rememberMe', async () => {
    const res = await authenticate({
      username: user.email,
      password: user.password,
      domain: 'acme',
      rememberMe: true,
    });
    const cookie = res.cookies.find((c) => c.name === 'authenticationToken');
    expect(cookie?.maxAge).toBe(30 * 24 * 60 * 60);
  });

  it('marks the cookie Secure over https', async () => {
    const res = await authenticate(
      { username: user.email, password: user.password, domain: 'acme' },
      { 'x-forwarded-proto': 'https' },
    );
    // Without TRUST_PROXY the forwarded header is ignored: the connection decides.
    expect(res.cookies.find((c) => c.name === 'authenticationToken')?.secure).toBeFalsy();
  });

  it('accepts the e-mail in any case', async () => {
    const res = await authenticate({
      username: user.email.toUpperCase(),
      password: user.password,
      domain: 'acme',
    });
    expect(res.statusCode).toBe(200);
  });

  it('answers a wrong password and an unknown account with the same 401 message', async () => {
    const wrong = await authenticate({ username: user.email, password: 'nope', domain: 'acme' });
    const unknown = await authenticate({ username: 'ghost@example.com', password: 'nope', domain: 'acme' });
    const otherOrg = await authenticate({
      username: user.email,
      password: user.password,
      domain: 'elsewhere',
    });
    for (const res of [wrong, unknown, otherOrg]) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ title: INVALID, code: 'unauthenticated' });
    }
  });

  it('refuses a user who has not activated the account', async () => {
    const pending = await h.createUser(user.organisationId, 'acme', { activated: false });
    const res = await authenticate({ username: pending.email, password: pending.password, domain: 'acme' });
    expect(res.statusCode).toBe(401);
  });

  it('rejects a malformed body with 400 and the failing fields', async () => {
    const res = await authenticate({ username: 42, domain: 'acme' });
    expect(res.statusCode).toBe(400);
    const body = res.json<{ title: string; errors: { field: string }[] }>();
    expect(body.title).toBeTruthy();
    expect(body.errors.map((e) => e.field)).toEqual(expect.arrayContaining(['username', 'password']));
  });

  it('limits login attempts per IP address', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 22; i++) {
      const res = await authenticate(
        { username: `x${i}@example.com`, password: 'bad', domain: 'acme' },
        {},
        '10.9.9.9',
      );
      statuses.push(res.statusCode);
    }
    expect(statuses.slice(0, 20).every((s) => s === 401)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });

  it('resolves the organisation from the sub-domain', async () => {
    const res = await authenticate(
      { username: user.email, password: user.password },
      { host: 'acme.vexil.test' },
    );
    expect(res.statusCode).toBe(200);
  });

  it('resolves the organisation from the /{organisation}/ path', async () => {
    const res = await h.app.inject({
      method: 'POST',
      url: '/acme/api/authenticate',
      payload: { username: user.email, password: user.password },
    });
    expect(res.statusCode).toBe(200);
  });

  it('asks for the organisation when none is given', async () => {
    const res = await authenticate({ username: user.email, password: user.password });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ errors: { field: string }[] }>().errors[0]?.field).toBe('domain');
  });

  it('refuses a login posted from another site', async () => {
    const res = await authenticate(
      { username: user.email, password: user.password, domain: 'acme' },
      { origin: 'https://evil.example' },
    );
    expect(res.statusCode).toBe(403);
  });

  it('stores the password as a scrypt hash and the session as a SHA-256 hash', async () => {
    const res = await authenticate({ username: user.email, password: user.password, domain: 'acme' });
    const token = res.json<{ id_token: string }>().id_token;
    const [row] = await h.database.db.select().from(users).where(eq(users.id, user.id));
    expect(row!.passwordHash).toMatch(/^scrypt\$/);
    expect(row!.passwordHash).not.toContain(user.password);
    const stored = await h.database.db.select().from(sessions).where(eq(sessions.userId, user.id));
    expect(stored).toHaveLength(1);
    expect(stored[0]!.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(stored[0]!.tokenHash).not.toBe(token);
  });
});

describe('session use', () => {
  it('accepts the token as a Bearer header and as the cookie', async () => {
    const token = await h.login(user);
    const viaHeader = await h.app.inject({ method: 'GET', url: '/api/v1/initial', headers: bearer(token) });
    const viaCookie = await h.app.inject({
      method: 'GET',
      url: '/api/v1/initial',
      cookies: { authenticationToken: token },
    });
    expect(viaHeader.statusCode).toBe(200);
    expect(viaCookie.statusCode).toBe(200);
  });

  it('refuses a write authenticated by cookie from another origin, accepts it from its own', async () => {
    const token = await h.login(user);
    const url = `/api/v1/users/${user.id}/settings/intro/read`;
    const cookies = { authenticationToken: token };
    const foreign = await h.app.inject({
      method: 'PUT',
      url,
      cookies,
      headers: { origin: 'https://evil.example' },
    });
    const noOrigin = await h.app.inject({ method: 'PUT', url, cookies });
    const own = await h.app.inject({ method: 'PUT', url, cookies, headers: { origin: 'http://vexil.test' } });
    const fetchMeta = await h.app.inject({
      method: 'PUT',
      url,
      cookies,
      headers: { 'sec-fetch-site': 'same-origin' },
    });
    expect(foreign.statusCode).toBe(403);
    expect(noOrigin.statusCode).toBe(403);
    expect(own.statusCode).toBe(200);
    expect(fetchMeta.statusCode).toBe(200);
  });

  it('refuses a session on another organisation’s sub-domain', async () => {
    await h.createOrganisation({ domain: 'other' });
    const token = await h.login(user);
    const res = await h.app.inject({
      method: 'GET',
      url: '/api/v1/initial',
      headers: { ...bearer(token), host: 'other.vexil.test' },
    });
    expect(res.statusCode).toBe(401);
  });
});

describe('POST /api/logout', () => {
  it('revokes the session on the server and clears the cookie', async () => {
    const token = await h.login(user);
    const res = await h.app.inject({ method: 'POST', url: '/api/logout', headers: bearer(token) });
    expect(res.statusCode).toBe(204);
    const cleared = res.cookies.find((c) => c.name === 'authenticationToken');
    expect(cleared?.value).toBe('');
    const after = await h.app.inject({ method: 'GET', url: '/api/v1/initial', headers: bearer(token) });
    expect(after.statusCode).toBe(401);
  });

  it('clears a stale cookie without failing', async () => {
    const res = await h.app.inject({
      method: 'POST',
      url: '/api/logout',
      cookies: { authenticationToken: 'vxs_stale' },
    });
    expect(res.statusCode).toBe(204);
  });
});

describe('POST /api/authenticate/token', () => {
  it('exchanges a one-time token for a session exactly once', async () => {
    const oneTime = await h.app.services.auth.createLoginToken(user.organisationId, user.id);
    const first = await h.app.inject({
      method: 'POST',
      url: '/api/authenticate/token',
      payload: { token: oneTime, domain: 'acme', rememberMe: true },
    });
    expect(first.statusCode).toBe(200);
    const session = first.json<{ id_token: string }>().id_token;
    const initial = await h.app.inject({ method: 'GET', url: '/api/v1/initial', headers: bearer(session) });
    expect(initial.json<{ principalUser: { email: string } }>().principalUser.email).toBe(user.email);

    const again = await h.app.inject({
      method: 'POST',
      url: '/api/authenticate/token',
      payload: { token: oneTime },
    });
    expect(again.statusCode).toBe(401);
  });

  it('refuses a token presented to another organisation', async () => {
    await h.createOrganisation({ domain: 'other' });
    const oneTime = await h.app.services.auth.createLoginToken(user.organisationId, user.id);
    const res = await h.app.inject({
      method: 'POST',
      url: '/api/authenticate/token',
      payload: { token: oneTime, domain: 'other' },
    });
    expect(res.statusCode).toBe(401);
  });

  it('refuses an unknown token', async () => {
    const res = await h.app.inject({
      method: 'POST',
      url: '/api/authenticate/token',
      payload: { token: 'vxo_nothing' },
    });
    expect(res.statusCode).toBe(401);
  });
});

describe('authorities', () => {
  it('returns the authorities of the signed-in user', async () => {
    const editor = await h.createUser(user.organisationId, 'acme', {
      authority: AUTHORITIES.ROLE_ORGANISATION_EDITOR,
    });
    const token = await h.login(editor);
    const res = await h.app.inject({ method: 'GET', url: '/api/v1/initial', headers: bearer(token) });
    expect(res.json<{ principalUser: { authorities: string[] } }>().principalUser.authorities).toEqual([
      AUTHORITIES.ROLE_ORGANISATION_EDITOR,
    ]);
  });
});
