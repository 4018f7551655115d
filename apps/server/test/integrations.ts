import { expect } from 'vitest';
import type { Integration } from '@vexil/core';
import type { Caller } from './api';
import type { FakeSlack } from './fake-slack';
import type { Harness } from './helpers';
import { TEST_SECRETS_KEY } from './sso';

/** The real time, which tests can move forward; the app reads it through `now`. */
export function testClock() {
  let offset = 0;
  return {
    now: () => new Date(Date.now() + offset),
    advance(ms: number) {
      offset += ms;
    },
    reset() {
      offset = 0;
    },
  };
}

/**
 * The environment of an app whose integrations talk to local stand-ins: `localhost` allowed through
 * OUTGOING_ALLOWED_HOSTS (and nothing else private), the Slack app pointing at the fake.
 */
export function integrationsEnv(slack?: FakeSlack): Record<string, string> {
  return {
    SECRETS_KEY: TEST_SECRETS_KEY,
    OUTGOING_ALLOWED_HOSTS: 'localhost',
    ...(slack
      ? {
          SLACK_CLIENT_ID: slack.clientId,
          SLACK_CLIENT_SECRET: slack.clientSecret,
          SLACK_API_URL: slack.apiUrl,
          SLACK_OAUTH_URL: slack.oauthUrl,
        }
      : {}),
  };
}

/** Short retry waits, and a webhook worker that runs only when woken (tests wake it). */
export const FAST_INTEGRATIONS = { retryDelaysMs: [5, 5, 5], webhookPollMs: 0 };

/** The authorisation URL the install call hands out. */
export async function installUrl(call: Caller): Promise<URL> {
  const res = await call('GET', '/api/v1/integrations/slack/install');
  expect(res.statusCode, res.body).toBe(200);
  return new URL(res.json<{ url: string }>().url);
}

/** Follows Slack's authorisation page (the fake approves at once) to the callback URL it sends back to. */
export async function approve(url: URL): Promise<URL> {
  const res = await fetch(url, { redirect: 'manual' });
  expect(res.status).toBe(302);
  return new URL(res.headers.get('location')!);
}

/** The browser arriving at the callback: where it is sent next. */
export async function callback(h: Harness, url: URL, host = 'vexil.test'): Promise<string> {
  const res = await h.app.inject({ method: 'GET', url: `${url.pathname}${url.search}`, headers: { host } });
  expect(res.statusCode, res.body).toBe(302);
  expect(res.headers['cache-control']).toBe('no-store');
  return String(res.headers.location);
}

/** Adds Slack the whole way (install, approval, callback) and answers the installed integration. */
export async function installSlack(h: Harness, call: Caller): Promise<Integration> {
  const location = await callback(h, await approve(await installUrl(call)));
  expect(location).toBe('http://vexil.test/admin/integrations?installed=slack');
  const list = (await call('GET', '/api/v1/integrations')).json<Integration[]>();
  return list.at(-1)!;
}
