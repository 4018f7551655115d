import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { launchBrowser, openPage, screenshot, signIn } from './support/browser';
import { ADMIN_EMAIL, ADMIN_PASSWORD, DEMO_DOMAIN, startServer, type RunningServer } from './support/server';

/*
 * A phone (390 px): the feature list, the feature page's header, the Users, Segments and experiment
 * statistics pages and the admin fit the window. Lists become cards rather than tables that scroll
 * sideways; badges show their whole word; the admin tabs are one strip that scrolls.
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
/** The experiment whose statistics the phone shows. */
let experimentId: string;
const USER_ID = 'shopper-with-attributes';

beforeAll(async () => {
  [browser, server] = await Promise.all([launchBrowser(), startServer()]);
  const api = await adminApi(server.url);
  await api('POST', '/api/v1/projects', { name: 'Mobile shop', key: 'phone' });
  await api('POST', '/api/v1/projects/phone/features', {
    name: 'Checkout redesign',
    key: 'checkout-redesign',
    description: 'The new checkout, one page instead of three, with the basket summary always in view.',
  });
  const feature = await api<{ id: string; controls: Record<string, { rulesDescription: string }> }>(
    'GET',
    '/api/v1/projects/phone/features/checkout-redesign',
  );
  statusText = feature.controls['development']!.rulesDescription;
  expect(statusText).not.toBe('');
  // A permanent feature with a name long enough to crowd its badge.
  await api('POST', '/api/v1/projects/phone/features', {
    name: 'Kill switch for the payment provider',
    key: 'payment-kill-switch',
    permanent: true,
  });
  await api('POST', '/api/v2/segments', {
    projectKey: 'phone',
    environmentKey: 'development',
    key: 'beta-testers',
    name: 'Beta testers',
    description: 'People who asked to try new things first.',
  });
  const experiment = await api<{ id: string }>('POST', '/api/v1/experiments/', {
    projectKey: 'phone',
    environmentKey: 'development',
    name: 'Checkout conversion',
    goalKey: 'purchase',
    featureId: feature.id,
    control: 'off',
    variation: 'on',
    enabled: true,
    mode: 'fixed',
  });
  experimentId = experiment.id;
  await reportTraffic(api);
});
afterAll(async () => {
  await Promise.all([browser?.close(), server?.stop()]);
});

/**
 * What an application's server SDK reports in Development: a user with attributes, and exposures and
 * valued conversions of the experiment; waits until the server has recorded them.
 */
async function reportTraffic(api: Api): Promise<void> {
  const project = await api<{ environments: { key: string; apiKey: string }[] }>(
    'GET',
    '/api/v1/projects/phone',
  );
  const { apiKey } = project.environments.find((environment) => environment.key === 'development')!;
  const send = async (rows: unknown[]) => {
    const res = await fetch(`${server.url}/api/sdk/v1/events`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(rows),
    });
    expect(res.status, await res.text()).toBe(200);
  };
  // 4 shoppers a variant, 2 of whom buy.
  const shoppers = ['off', 'on'].flatMap((variant) =>
    Array.from({ length: 4 }, (_, i) => ({ id: `${variant}-shopper-${i}`, variant, buys: i < 2 })),
  );
  await send([
    // Another feature: this user is not one of the experiment's.
    {
      type: 'evaluate',
      featureKey: 'payment-kill-switch',
      evaluatedVariant: 'off',
      user: { id: USER_ID, attributes: { country: 'Ireland', plan: 'Team', device: 'phone' } },
    },
    ...shoppers.map((shopper) => ({
      type: 'evaluate',
      featureKey: 'checkout-redesign',
      evaluatedVariant: shopper.variant,
      user: { id: shopper.id },
    })),
  ]);
  await send(
    shoppers
      .filter((shopper) => shopper.buys)
      .map((shopper) => ({ type: 'goal', goalKey: 'purchase', value: 40, user: { id: shopper.id } })),
  );
  // The server records SDK users and events in batches: wait until they are there.
  for (let tries = 0; ; tries++) {
    const users = await api<unknown>('GET', '/api/v1/projects/phone/environments/development/users');
    const statistics = await api<{ variantResults: Record<string, { goals: number }> }>(
      'GET',
      `/api/v1/experiment-statistics/${experimentId}`,
    );
    const goals = Object.values(statistics.variantResults).reduce((sum, result) => sum + result.goals, 0);
    if (JSON.stringify(users).includes(USER_ID) && goals === 4) break;
    if (tries === 80) throw new Error('The SDK traffic was not recorded within 20 s.');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

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

/** The button is wholly within the window, and clicking it does what it says (a real click, not forced). */
async function expectUsable(button: Locator, page: Page): Promise<void> {
  await button.scrollIntoViewIfNeeded();
  expect(await withinWindow(button, page), await button.innerText()).toBe(true);
  expect(await button.isEnabled()).toBe(true);
}

describe('on a phone (390 px)', () => {
  it('the feature list shows each feature as a card with its switch and status, without sideways scroll', async () => {
    const page = await onPhone();
    await page.goto('/projects/phone/environments/development/features');
    const name = page.getByRole('link', { name: 'Checkout redesign' });
    await name.waitFor();
    await expectNoSidewaysScroll(page);
    const status = page.getByRole('listitem').filter({ has: name }).getByText(statusText, { exact: true });
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

  it('the Users page shows each user as a card with its attributes, Last seen and a usable Delete', async () => {
    const page = await onPhone();
    await page.goto('/projects/phone/environments/development/users');
    const users = page.getByRole('list', { name: 'Target Users' });
    const card = users.getByRole('listitem', { name: USER_ID });
    await card.waitFor();
    await expectNoSidewaysScroll(page);
    expect(await withinWindow(card.getByText('Last seen'), page)).toBe(true);
    expect(await withinWindow(card.locator('time'), page)).toBe(true);
    expect(await withinWindow(card.getByText('Ireland'), page)).toBe(true);
    const remove = card.getByRole('button', { name: `Delete ${USER_ID}` });
    await expectUsable(remove, page);
    await remove.click();
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    await pictures(page, 'mobile-users');
    await page.setViewportSize(DESKTOP);
    await page.getByRole('table', { name: 'Target Users' }).waitFor();
  });

  it('the Segments page shows each segment as a card with usable Edit and Delete', async () => {
    const page = await onPhone();
    await page.goto('/projects/phone/environments/development/segments');
    const card = page.getByRole('list', { name: 'Segments' }).getByRole('listitem', { name: 'Beta testers' });
    await card.waitFor();
    await expectNoSidewaysScroll(page);
    await card.getByText('People who asked to try new things first.').waitFor();
    await expectUsable(card.getByRole('button', { name: 'Delete Beta testers' }), page);
    const edit = card.getByRole('button', { name: 'Edit Beta testers' });
    await expectUsable(edit, page);
    await edit.click();
    await page.getByRole('dialog').waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'hidden' });
    await pictures(page, 'mobile-segments');
    await page.setViewportSize(DESKTOP);
    await page.getByRole('table', { name: 'Segments' }).waitFor();
  });

  it('the experiment statistics show each variant as a card with its conversion rate and value', async () => {
    const page = await onPhone();
    await page.goto(`/projects/phone/environments/development/experiments/${experimentId}/stats`);
    const variants = page.getByRole('list', { name: 'Results by variant' });
    await variants.waitFor();
    await expectNoSidewaysScroll(page);
    for (const variant of ['off', 'on']) {
      const card = variants.getByRole('listitem', { name: variant });
      for (const label of [
        'Impressions (exposed users)',
        'Goals (converted users)',
        'Conversion rate',
        'Value',
      ]) {
        const figure = card.locator('dt', { hasText: label }).locator('xpath=following-sibling::dd[1]');
        expect(await withinWindow(figure, page), `${variant}: ${label}`).toBe(true);
      }
      // 4 exposed, 2 of whom bought at 40 each.
      expect(
        await card
          .locator('dt', { hasText: 'Conversion rate' })
          .locator('xpath=following-sibling::dd[1]')
          .innerText(),
      ).toMatch(/^50\.00\s%$/);
      expect(
        await card.locator('dt', { hasText: 'Value' }).locator('xpath=following-sibling::dd[1]').innerText(),
      ).toMatch(/80/);
    }
    await pictures(page, 'mobile-experiment-stats');
    await page.setViewportSize(DESKTOP);
    await page.getByRole('table', { name: 'Results by variant' }).waitFor();
  });

  it('the admin tabs are one strip that scrolls, the selected tab in view', async () => {
    const page = await onPhone();
    await page.goto('/admin/integrations');
    const tabs = page.getByRole('tablist', { name: 'Admin sections' });
    const selected = tabs.getByRole('tab', { name: 'Integrations' });
    await selected.waitFor();
    await expectNoSidewaysScroll(page);
    const heights = await tabs.evaluate((list) => ({
      list: list.getBoundingClientRect().height,
      tab: list.querySelector('[role="tab"]')!.getBoundingClientRect().height,
      scrolls: list.scrollWidth > list.clientWidth,
    }));
    // One line of tabs, which scrolls sideways.
    expect(heights.list).toBeLessThan(heights.tab * 1.5);
    expect(heights.scrolls).toBe(true);
    await expect.poll(() => withinWindow(selected, page)).toBe(true);
    await expect.poll(() => tabs.getAttribute('data-more-start')).toBe('');
    await tabs.getByRole('tab', { name: 'Projects' }).scrollIntoViewIfNeeded();
    await tabs.getByRole('tab', { name: 'Projects' }).click();
    await page.waitForURL('**/admin/projects');
    // The edge beyond which tabs are hidden fades: a hint that the strip scrolls.
    await expect.poll(() => tabs.getAttribute('data-more-end')).toBe('');
    expect(await tabs.getAttribute('data-more-start')).toBeNull();
    await pictures(page, 'mobile-admin-tabs');
  });

  it('the feature header shows the PERMANENT badge whole beside a long name', async () => {
    const page = await onPhone();
    await page.goto('/projects/phone/environments/development/features/payment-kill-switch');
    await page.getByRole('heading', { name: 'Kill switch for the payment provider', level: 1 }).waitFor();
    const badge = page.locator('.mantine-Badge-root', { hasText: /^Permanent$/ });
    await expectWhole(badge, 'Permanent');
    expect(await withinWindow(badge, page)).toBe(true);
    await expectNoSidewaysScroll(page);
    await pictures(page, 'mobile-feature-permanent');
  });
});
