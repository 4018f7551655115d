import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, openPage, screenshot, signIn } from './support/browser';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  DEMO_DOMAIN,
  addDemoUser,
  startServer,
  type RunningServer,
} from './support/server';
import { DESKTOP, PHONE } from './support/api';

/*
 * The Help page (docs/product.md §2 "Help page"): opened from the top navigation, it shows how to
 * connect an SDK to the environment the user works in, with this server's address and that
 * environment's keys, and keeps the API reference one click away. A server of its own, with a read-only
 * teammate, who must never see a server key.
 */

const VIEWER_EMAIL = 'viewer@example.com';

type Keys = { apiKey: string; jsApiKey: string };

let browser: Browser;
let server: RunningServer;
let development: Keys;

async function environmentKeys(base: string, environmentKey: string): Promise<Keys> {
  const login = await fetch(`${base}/api/authenticate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: ADMIN_EMAIL, password: ADMIN_PASSWORD, domain: DEMO_DOMAIN }),
  });
  const token = ((await login.json()) as { id_token: string }).id_token;
  const res = await fetch(`${base}/api/v1/environments/sp/${environmentKey}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(res.status).toBe(200);
  return (await res.json()) as Keys;
}

beforeAll(async () => {
  [browser, server] = await Promise.all([
    launchBrowser(),
    startServer({}, { prepare: (db) => addDemoUser(db, VIEWER_EMAIL, 'ROLE_ORGANISATION_READONLY_USER') }),
  ]);
  development = await environmentKeys(server.url, 'development');
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** Signs in and works in the sample project's development environment, so Help shows that one. */
async function signInToDevelopment(page: Page, email = ADMIN_EMAIL): Promise<void> {
  await signIn(page, { email, at: '/projects/sp/environments/development/features' });
  await page.getByRole('heading', { name: 'Features', level: 1 }).waitFor();
}

/** The JS client key the page shows, once loaded. */
async function jsKeyShown(page: Page): Promise<string> {
  const field = page.getByRole('textbox', { name: 'JS Client Key' });
  await field.waitFor();
  return field.inputValue();
}

/** The text of every code block on the page. */
async function snippets(page: Page): Promise<string> {
  const blocks = page.locator('pre');
  await blocks.first().waitFor();
  return (await blocks.allTextContents()).join('\n');
}

describe('Help page', () => {
  it('opens from the navigation with this server’s address and the environment’s keys', async () => {
    const { context, page } = await openPage(browser, server.url);
    await page.setViewportSize(DESKTOP);
    await signInToDevelopment(page);

    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    await page.getByRole('link', { name: 'Help', exact: true }).click();
    await page.getByRole('heading', { name: 'Help', level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/help');

    // The environment the user works in is the one whose keys the snippets carry.
    expect(await page.getByRole('combobox', { name: 'Environment' }).inputValue()).toMatch(/Development/);
    expect(await jsKeyShown(page)).toBe(development.jsApiKey);
    const origin = new URL(server.url).origin;
    expect(await page.getByRole('textbox', { name: 'Base URL' }).inputValue()).toBe(origin);
    const code = await snippets(page);
    expect(code).toContain(`baseUrl: '${origin}'`);
    expect(code).toContain(`'${development.jsApiKey}'`);
    expect(code).toContain(`Bearer ${development.apiKey}`);
    expect(code).toContain(`${origin}/ofrep/v1/evaluate/flags/`);

    // The table of contents leads to each section.
    await page
      .getByRole('navigation', { name: 'On this page' })
      .getByRole('link', { name: 'Splits' })
      .click();
    expect(new URL(page.url()).hash).toBe('#splits');
    // The heading scrolled to sits below the sticky navigation, not under it.
    const [headingTop, navBottom] = await page
      .getByRole('heading', { name: 'Splits' })
      .evaluate((heading) => [
        heading.getBoundingClientRect().top,
        document.querySelector('header')!.getBoundingClientRect().bottom,
      ]);
    expect(headingTop).toBeGreaterThanOrEqual(navBottom!);
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'e-help-1440');

    // The API reference opens in a new tab.
    const [reference] = await Promise.all([
      context.waitForEvent('page'),
      page
        .getByRole('main')
        .getByRole('link', { name: /API reference/ })
        .click(),
    ]);
    await reference.waitForLoadState();
    expect(new URL(reference.url()).pathname).toMatch(/^\/api\/docs\/?/);
    await reference.locator('.swagger-ui').first().waitFor();
    await context.close();
  });

  it('hides the server key from a read-only user, and reads well on a phone', async () => {
    const { context, page } = await openPage(browser, server.url);
    await page.setViewportSize(PHONE);
    await signInToDevelopment(page, VIEWER_EMAIL);

    await page.getByRole('button', { name: 'Open navigation' }).click();
    await page.getByRole('dialog').getByRole('link', { name: 'Help', exact: true }).click();
    await page.getByRole('heading', { name: 'Help', level: 1 }).waitFor();
    expect(await jsKeyShown(page)).toBe(development.jsApiKey);
    const code = await snippets(page);
    expect(code).toContain(`'${development.jsApiKey}'`);
    expect(code).not.toContain(development.apiKey);
    expect(await page.content()).not.toContain(development.apiKey);
    await page
      .getByText(/Hidden: only those who may change the flags/)
      .first()
      .waitFor();

    // Code blocks scroll inside themselves: the page itself never scrolls sideways.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    // The API reference is one click away from the navigation too.
    await page.getByRole('button', { name: 'Open navigation' }).click();
    expect(
      await page
        .getByRole('dialog')
        .getByRole('link', { name: /API reference/ })
        .getAttribute('href'),
    ).toBe('/api/docs');
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'hidden' });
    await screenshot(page, 'e-help-390');
    await context.close();
  });
});
