import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { launchBrowser, openPage, screenshot, signIn } from './support/browser';
import { ADMIN_EMAIL, ADMIN_PASSWORD, DEMO_DOMAIN, startServer, type RunningServer } from './support/server';

/*
 * A phone (390 px): the feature list, the feature page's header and the project admin fit the
 * window. Lists become cards rather than tables that scroll sideways; badges show their whole word.
 * A server of its own: the project (Development and Production, as a new project has) belongs to this spec.
 */

const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

type Api = <T>(method: string, path: string, body?: unknown) => Promise<T>;

async function adminApi(base: string): Promise<Api> {
  const login = await fetch(`${base}/api/authenticate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: ADMIN_EMAIL, password: ADMIN_PASSWORD, domain: DEMO_DOMAIN }),
  });
  const token = ((await login.json()) as { id_token: string }).id_token;
  return async <T>(method: string, path: string, body?: unknown) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    const text = await res.text();
    return (text ? JSON.parse(text) : undefined) as T;
  };
}

let browser: Browser;
let server: RunningServer;
/** What the server says the feature's rules serve in Development: the list's Status text. */
let statusText: string;

beforeAll(async () => {
  [browser, server] = await Promise.all([launchBrowser(), startServer()]);
  const api = await adminApi(server.url);
  await api('POST', '/api/v1/projects', { name: 'Mobile shop', key: 'phone' });
  await api('POST', '/api/v1/projects/phone/features', {
    name: 'Checkout redesign',
    key: 'checkout-redesign',
    description: 'The new checkout, one page instead of three, with the basket summary always in view.',
  });
  const feature = await api<{ controls: Record<string, { rulesDescription: string }> }>(
    'GET',
    '/api/v1/projects/phone/features/checkout-redesign',
  );
  statusText = feature.controls['development']!.rulesDescription;
  expect(statusText).not.toBe('');
});
afterAll(async () => {
  await Promise.all([browser?.close(), server?.stop()]);
});

async function onPhone(): Promise<Page> {
  const { context, page } = await openPage(browser, server.url);
  onTestFinished(() => context.close());
  await page.setViewportSize(PHONE);
  await signIn(page);
  await page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();
  return page;
}

async function expectNoSidewaysScroll(page: Page): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
    page.viewportSize()!.width,
  );
}

/** Whether the element's box lies within the window, left to right. */
async function withinWindow(locator: Locator, page: Page): Promise<boolean> {
  const box = await locator.boundingBox();
  return box !== null && box.x >= 0 && box.x + box.width <= page.viewportSize()!.width;
}

/** The element shows all of its text: its box is not narrower than what it holds. */
async function expectWhole(locator: Locator, text: string): Promise<void> {
  await expect.poll(() => locator.innerText()).toMatch(new RegExp(`^${text}$`, 'i'));
  const sizes = await locator.evaluate((element) => {
    const label = element.querySelector('.mantine-Badge-label') ?? element;
    const range = document.createRange();
    range.selectNodeContents(label);
    return {
      box: element.getBoundingClientRect().width,
      text: range.getBoundingClientRect().width,
      scroll: label.scrollWidth,
      client: label.clientWidth,
    };
  });
  expect(sizes.box, `${text}: box ${sizes.box} px, text ${sizes.text} px`).toBeGreaterThanOrEqual(sizes.text);
  expect(sizes.scroll, `${text}: cut`).toBeLessThanOrEqual(sizes.client);
}

/** Pictures of the screen at 390 px and 1440 px. */
async function pictures(page: Page, name: string): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, `d-${name}-390`);
  await page.setViewportSize(DESKTOP);
  await screenshot(page, `d-${name}-1440`);
  await page.setViewportSize(PHONE);
}

describe('on a phone (390 px)', () => {
  it('the feature list shows each feature as a card with its switch and status, without sideways scroll', async () => {
    const page = await onPhone();
    await page.goto('/projects/phone/environments/development/features');
    const name = page.getByRole('link', { name: 'Checkout redesign' });
    await name.waitFor();
    await expectNoSidewaysScroll(page);
    const status = page.getByText(statusText, { exact: true });
    await status.waitFor();
    expect(await withinWindow(status, page)).toBe(true);
    const toggle = page.getByRole('switch', { name: 'Checkout redesign on in Development' });
    expect(await withinWindow(toggle, page)).toBe(true);
    expect(await withinWindow(name, page)).toBe(true);
    await pictures(page, 'mobile-feature-list');
    // On a wide screen the table stays.
    await page.setViewportSize(DESKTOP);
    await page.getByRole('table', { name: 'Features in Development' }).waitFor();
  });

  it('the feature header shows its ON/OFF badge whole and its dates within the window', async () => {
    const page = await onPhone();
    await page.goto('/projects/phone/environments/development/features/checkout-redesign');
    const state = page.getByRole('group', { name: 'State in Development' });
    await state.waitFor();
    await expectWhole(state.getByText('Off', { exact: true }), 'Off');
    await expectNoSidewaysScroll(page);
    for (const label of ['Created', 'Last updated', 'Last impression']) {
      const fact = page.locator('dt', { hasText: label }).locator('xpath=following-sibling::dd[1]');
      expect(await withinWindow(fact, page), label).toBe(true);
      // The date wraps rather than being cut with an ellipsis.
      expect(await fact.evaluate((element) => element.scrollWidth <= element.clientWidth), label).toBe(true);
    }
    await pictures(page, 'mobile-feature-header');
  });

  it('the feature Overview shows each environment as a card with its switch, with nothing to scroll sideways', async () => {
    const page = await onPhone();
    await page.goto('/projects/phone/environments/development/features/checkout-redesign/overview');
    const environments = page.getByRole('list', { name: 'The feature in each environment' });
    await environments.waitFor();
    expect(await environments.getByRole('listitem').count()).toBe(2);
    for (const name of ['Development', 'Production']) {
      const card = environments.getByRole('listitem').filter({ hasText: name });
      const toggle = card.getByRole('switch', { name: `Checkout redesign on in ${name}` });
      expect(await withinWindow(toggle, page), name).toBe(true);
      expect(await withinWindow(card.getByText('Impressions today:'), page), name).toBe(true);
      expect(await withinWindow(card.getByText(statusText, { exact: true }), page), name).toBe(true);
    }
    // Not the document, and no box within the card either, scrolls sideways.
    await expectNoSidewaysScroll(page);
    const scrolling = await environments.evaluate((list) =>
      [list, ...Array.from(list.querySelectorAll('*'))]
        .filter((element) => ['auto', 'scroll'].includes(getComputedStyle(element).overflowX))
        .filter((element) => element.scrollWidth > element.clientWidth + 1)
        .map((element) => element.className),
    );
    expect(scrolling).toEqual([]);
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'd-mobile-feature-overview-390');
    // On a wide screen the table stays.
    await page.setViewportSize(DESKTOP);
    await page.getByRole('table', { name: 'The feature in each environment' }).waitFor();
    await screenshot(page, 'd-mobile-feature-overview-1440');
  });

  it('the project admin shows the PRODUCTION badge whole', async () => {
    const page = await onPhone();
    await page.goto('/admin/projects/phone');
    await page.getByRole('button', { name: 'Delete Production' }).waitFor();
    // The badge, not the environment's name (also "Production").
    const badge = page.locator('.mantine-Badge-root', { hasText: /^Production$/ });
    await expectWhole(badge, 'Production');
    expect(await withinWindow(badge, page)).toBe(true);
    expect(await withinWindow(page.getByRole('button', { name: 'Delete Production' }), page)).toBe(true);
    await expectNoSidewaysScroll(page);
    await pictures(page, 'mobile-admin-project');
  });
});
