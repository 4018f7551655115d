import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import { ADMIN_EMAIL, ADMIN_PASSWORD, DEMO_DOMAIN } from './server';

/** The viewports the specs take their screenshots at. */
export const DESKTOP = { width: 1440, height: 900 };
export const PHONE = { width: 390, height: 844 };

/** A call to the dashboard API as the demo admin: the parsed JSON answer, or undefined for none. */
export type Api = <T>(
  method: string,
  path: string,
  body?: unknown,
  headers?: Record<string, string>,
) => Promise<T>;

/**
 * Signs in as the demo admin from Node and returns a caller with its bearer token, for setting up
 * data a spec needs without clicking through screens it does not test. A failed call throws with the
 * status and the server's answer.
 */
export async function adminApi(base: string): Promise<Api> {
  const login = await fetch(`${base}/api/authenticate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: ADMIN_EMAIL, password: ADMIN_PASSWORD, domain: DEMO_DOMAIN }),
  });
  const token = ((await login.json()) as { id_token: string }).id_token;
  return async <T>(method: string, path: string, body?: unknown, headers?: Record<string, string>) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    const text = await res.text();
    return (text ? JSON.parse(text) : undefined) as T;
  };
}

/** A call to the dashboard API with the page's session (a write only from the server's own origin). */
export async function call<T>(
  page: Page,
  method: 'GET' | 'POST' | 'PUT',
  path: string,
  data?: unknown,
): Promise<T> {
  const origin = new URL(page.url()).origin;
  const response = await page.request.fetch(`${origin}${path}`, {
    method,
    data,
    headers: { Origin: origin },
  });
  expect(response.ok(), `${method} ${path}: ${response.status()} ${await response.text()}`).toBe(true);
  return (await response.json()) as T;
}
