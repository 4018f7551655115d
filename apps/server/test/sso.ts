import { expect } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { AUTHORITIES, type InitialPayload, type SsoConnectionInput } from '@vexil/core';
import type { Caller } from './api';
import { bearer, randomIp, type Harness } from './helpers';
import type { OidcProviderHandle } from './oidc-provider';

/** The public address of the test app (helpers.ts) and the redirect URI every organisation registers. */
export const PUBLIC_HOST = 'vexil.test';
export const REDIRECT_URI = `http://${PUBLIC_HOST}/api/v1/sso/callback`;
export const STATE_COOKIE = 'vexil-sso-state';
/** 32 bytes in hex: the tests' SECRETS_KEY. */
export const TEST_SECRETS_KEY = '00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff';

/** A connection to `provider` for PUT /api/v1/sso, with `changes` applied. */
export function connectionInput(
  provider: OidcProviderHandle,
  changes: Partial<SsoConnectionInput> = {},
): Record<string, unknown> {
  return {
    displayName: 'Acme ID',
    issuer: provider.issuer,
    clientId: 'vexil',
    clientSecret: 'client-s3cret-value',
    allowedDomains: ['example.com'],
    defaultRole: AUTHORITIES.ROLE_ORGANISATION_EDITOR,
    required: false,
    ...changes,
  };
}

export async function configureSso(
  call: Caller,
  provider: OidcProviderHandle,
  changes: Partial<SsoConnectionInput> = {},
): Promise<LightMyRequestResponse> {
  const res = await call('PUT', '/api/v1/sso', connectionInput(provider, changes));
  expect(res.statusCode, res.body).toBe(200);
  return res;
}

export type SsoRun = {
  /** The answer of GET /api/v1/sso/start. */
  start: LightMyRequestResponse;
  /** The state of the authorization request, and the browser's state cookie. */
  state: string;
  cookie: string;
  /** Where the provider sent the browser back to (the redirect URI with its answer). */
  answer: URL;
  /** Where the callback sent the browser (the token login page, or the sign-in page with `sso=`). */
  location: URL;
};

/** GET on the test app from a fresh client address (the sign-in routes are rate limited per address). */
export function browserGet(h: Harness, url: string, options: { host?: string; cookie?: string } = {}) {
  return h.app.inject({
    method: 'GET',
    url,
    remoteAddress: randomIp(),
    headers: { host: options.host ?? PUBLIC_HOST },
    ...(options.cookie === undefined ? {} : { cookies: { [STATE_COOKIE]: options.cookie } }),
  });
}

/** Starts a sign-in the way the sign-in page's button does, and answers where it sent the browser. */
export async function startSso(
  h: Harness,
  domain: string,
  options: { rememberMe?: boolean; host?: string; path?: string; via?: string } = {},
) {
  const query = new URLSearchParams({ domain, rememberMe: String(options.rememberMe ?? false) });
  if (options.via) query.set('via', options.via);
  const start = await browserGet(h, `${options.path ?? '/api/v1/sso/start'}?${query.toString()}`, options);
  expect(start.statusCode, start.body).toBe(302);
  const location = new URL(String(start.headers.location));
  const cookie = start.cookies.find((c) => c.name === STATE_COOKIE)?.value ?? '';
  return { start, location, cookie, state: location.searchParams.get('state') ?? '' };
}

/** Sends the provider's answer to the callback, as the browser does, with the browser's state cookie. */
export async function deliver(h: Harness, answer: URL, cookie: string | undefined, host = PUBLIC_HOST) {
  const res = await browserGet(h, `${answer.pathname}${answer.search}`, {
    host,
    ...(cookie === undefined ? {} : { cookie }),
  });
  expect(res.statusCode, res.body).toBe(302);
  return new URL(String(res.headers.location));
}

/** The whole round trip: start, sign in at the provider as `login`, come back. */
export async function runSso(
  h: Harness,
  provider: OidcProviderHandle,
  domain: string,
  login: string,
  options: { rememberMe?: boolean; cancel?: boolean } = {},
): Promise<SsoRun> {
  const started = await startSso(h, domain, options);
  expect(started.location.origin).toBe(provider.issuer);
  const answer = await provider.signIn(started.location.href, login, { cancel: options.cancel ?? false });
  expect(answer.href.startsWith(REDIRECT_URI)).toBe(true);
  const location = await deliver(h, answer, started.cookie);
  return { ...started, answer, location };
}

/** The one-time token of a `/login/{token}` location, or throws with where the browser went instead. */
export function loginTokenOf(location: URL): string {
  const match = /^\/login\/(vxo_[A-Za-z0-9_-]+)$/.exec(location.pathname);
  if (!match) throw new Error(`Not signed in: sent to ${location.href}`);
  return match[1]!;
}

/** Exchanges the token login page's token for a session, as the dashboard does, and loads who it is. */
export async function signedInAs(h: Harness, location: URL) {
  const domain = location.searchParams.get('domain') ?? undefined;
  const res = await h.app.inject({
    method: 'POST',
    url: '/api/authenticate/token',
    remoteAddress: randomIp(),
    payload: {
      token: loginTokenOf(location),
      domain,
      rememberMe: location.searchParams.get('rememberMe') === 'true',
    },
  });
  expect(res.statusCode, res.body).toBe(200);
  const token = res.json<{ id_token: string }>().id_token;
  const initial = await h.app.inject({ method: 'GET', url: '/api/v1/initial', headers: bearer(token) });
  expect(initial.statusCode, initial.body).toBe(200);
  return initial.json<InitialPayload>();
}
