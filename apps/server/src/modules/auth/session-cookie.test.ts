import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, randomIp, type Harness, type TestUser } from '../../../test/helpers';

const HTTPS = { 'x-forwarded-proto': 'https' };

let h: Harness;
let user: TestUser;

beforeAll(async () => {
  // Behind a TLS-terminating proxy: the forwarded protocol says https.
  h = await createHarness({ PUBLIC_URL: 'https://vexil.test', TRUST_PROXY: 'on' });
  user = await h.createOrganisation({ domain: 'acme' });
});
afterAll(async () => {
  await h.close();
});

function signIn(headers: Record<string, string>) {
  return h.app.inject({
    method: 'POST',
    url: '/api/authenticate',
    payload: { username: user.email, password: user.password, domain: 'acme' },
    headers,
    remoteAddress: randomIp(),
  });
}

function initial(cookies: Record<string, string>, headers: Record<string, string>) {
  return h.app.inject({ method: 'GET', url: '/api/v1/initial', cookies, headers });
}

describe('the session cookie over https', () => {
  it('is __Host-authenticationToken: Secure, HttpOnly, Path=/ and no Domain', async () => {
    const res = await signIn(HTTPS);
    expect(res.statusCode).toBe(200);
    expect(res.cookies.map((c) => c.name)).toEqual(['__Host-authenticationToken']);
    const cookie = res.cookies[0]!;
    expect(cookie.value).toBe(res.json<{ id_token: string }>().id_token);
    expect(cookie).toMatchObject({ secure: true, httpOnly: true, path: '/', sameSite: 'Lax' });
    expect(cookie.domain).toBeUndefined();
  });

  it('is read under its prefixed name only', async () => {
    const token = (await signIn(HTTPS)).json<{ id_token: string }>().id_token;
    expect((await initial({ '__Host-authenticationToken': token }, HTTPS)).statusCode).toBe(200);
    // A plain cookie could have been planted by a sibling sub-domain: it is not a session over https.
    expect((await initial({ authenticationToken: token }, HTTPS)).statusCode).toBe(401);
  });

  it('is cleared under its prefixed name on logout, with the attributes the prefix requires', async () => {
    const token = (await signIn(HTTPS)).json<{ id_token: string }>().id_token;
    const res = await h.app.inject({
      method: 'POST',
      url: '/api/logout',
      cookies: { '__Host-authenticationToken': token },
      headers: HTTPS,
    });
    expect(res.statusCode).toBe(204);
    expect(res.cookies).toHaveLength(1);
    expect(res.cookies[0]).toMatchObject({
      name: '__Host-authenticationToken',
      value: '',
      secure: true,
      path: '/',
    });
    expect((await initial({ '__Host-authenticationToken': token }, HTTPS)).statusCode).toBe(401);
  });
});

describe('the session cookie over plain http', () => {
  it('keeps the plain name, as browsers refuse the prefix without https', async () => {
    const res = await signIn({});
    expect(res.cookies.map((c) => c.name)).toEqual(['authenticationToken']);
    const token = res.cookies[0]!.value;
    expect((await initial({ authenticationToken: token }, {})).statusCode).toBe(200);
    expect((await initial({ '__Host-authenticationToken': token }, {})).statusCode).toBe(401);
  });
});
