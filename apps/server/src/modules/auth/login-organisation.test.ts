import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bearer, createHarness, randomIp, type Harness, type TestUser } from '../../../test/helpers';

const INVALID = 'The email and password combination you have provided is invalid.';
const INVALID_LINK = 'This login link is invalid or has expired.';

let h: Harness;
let acme: TestUser;
let other: TestUser;

beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h.close();
});
beforeEach(async () => {
  await h.database.reset();
  acme = await h.createOrganisation({ domain: 'acme' });
  other = await h.createOrganisation({ domain: 'other' });
});

function authenticate(url: string, payload: Record<string, unknown>, headers: Record<string, string> = {}) {
  return h.app.inject({ method: 'POST', url, payload, headers, remoteAddress: randomIp() });
}

describe('POST /api/authenticate on an organisation’s own address', () => {
  it('refuses a body domain naming another organisation like a wrong password, even with its right password', async () => {
    const viaHost = await authenticate(
      '/api/authenticate',
      { username: other.email, password: other.password, domain: 'other' },
      { host: 'acme.vexil.test' },
    );
    const viaPath = await authenticate('/acme/api/authenticate', {
      username: other.email,
      password: other.password,
      domain: 'other',
    });
    const ownAccount = await authenticate(
      '/api/authenticate',
      { username: acme.email, password: acme.password, domain: 'other' },
      { host: 'acme.vexil.test' },
    );
    for (const res of [viaHost, viaPath, ownAccount]) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ title: INVALID, code: 'unauthenticated' });
      expect(res.cookies).toEqual([]);
    }
  });

  it('accepts a body domain that names the same organisation, in any case', async () => {
    const res = await authenticate(
      '/api/authenticate',
      { username: acme.email, password: acme.password, domain: 'ACME' },
      { host: 'acme.vexil.test' },
    );
    expect(res.statusCode).toBe(200);
  });

  it('signs in to the host’s organisation when the body names none', async () => {
    const res = await authenticate('/acme/api/authenticate', {
      username: acme.email,
      password: acme.password,
    });
    expect(res.statusCode).toBe(200);
    const session = res.json<{ id_token: string }>().id_token;
    const initial = await h.app.inject({ method: 'GET', url: '/api/v1/initial', headers: bearer(session) });
    expect(initial.json<{ principalUser: { email: string } }>().principalUser.email).toBe(acme.email);
  });
});

describe('POST /api/authenticate/token on an organisation’s own address', () => {
  it('refuses a body domain naming another organisation, and the link still works at home', async () => {
    const token = await h.app.services.auth.createLoginToken(other.organisationId, other.id);
    const foreign = await authenticate(
      '/api/authenticate/token',
      { token, domain: 'other' },
      { host: 'acme.vexil.test' },
    );
    expect(foreign.statusCode).toBe(401);
    expect(foreign.json()).toEqual({ title: INVALID_LINK, code: 'unauthenticated' });
    const home = await authenticate('/other/api/authenticate/token', { token, domain: 'other' });
    expect(home.statusCode).toBe(200);
  });

  it('refuses another organisation’s link on the host even without a body domain', async () => {
    const token = await h.app.services.auth.createLoginToken(other.organisationId, other.id);
    const res = await authenticate('/acme/api/authenticate/token', { token });
    expect(res.statusCode).toBe(401);
  });
});
