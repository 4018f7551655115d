import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { and, eq } from 'drizzle-orm';
import {
  environments,
  featureControls,
  features,
  impressionCounters,
} from '../apps/server/src/db/schema/index';
import { escapeMenu, launchBrowser, openAccountMenu, openPage, signIn, viewShot } from './support/browser';
import { startServer, type RunningServer } from './support/server';

/*
 * Appearance (docs/product.md "Top navigation"): the dashboard follows the system's light or dark
 * preference until the user chooses Light, Dark or System in the profile menu; the choice is kept in
 * the browser and applied before the first paint. A server of its own, with impressions for New
 * checkout, so that the dark screenshots show a drawn chart.
 */

const DAYS = 30;
const utcDay = (back: number) => new Date(Date.now() - back * 86_400_000).toISOString().slice(0, 10);

let browser: Browser;
let server: RunningServer;

beforeAll(async () => {
  [browser, server] = await Promise.all([
    launchBrowser(),
    startServer(
      {},
      {
        prepare: async (db) => {
          const [control] = await db
            .select({ id: featureControls.id, organisationId: featureControls.organisationId })
            .from(featureControls)
            .innerJoin(features, eq(features.id, featureControls.featureId))
            .innerJoin(environments, eq(environments.id, featureControls.environmentId))
            .where(and(eq(features.key, 'new-checkout'), eq(environments.key, 'development')));
          await db.insert(impressionCounters).values(
            Array.from({ length: DAYS }, (_, back) => [
              { variantKey: 'on', day: utcDay(back), count: 400 + ((back * 37) % 300) },
              { variantKey: 'off', day: utcDay(back), count: 250 + ((back * 53) % 200) },
            ])
              .flat()
              .map((row) => ({
                ...row,
                organisationId: control!.organisationId,
                featureControlId: control!.id,
              })),
          );
        },
      },
    ),
  ]);
});
afterAll(async () => {
  await Promise.all([browser?.close(), server?.stop()]);
});

/** A fresh browser profile whose system prefers `scheme`, signed in as the demo admin on Home. */
async function signedIn(scheme: 'light' | 'dark'): Promise<Page> {
  const { context, page } = await openPage(browser, server.url);
  onTestFinished(() => context.close());
  await page.emulateMedia({ colorScheme: scheme });
  await signIn(page);
  await page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();
  return page;
}

/** What the page looks like: its background and the colour of its text, by relative luminance (0–1). */
async function looks(page: Page): Promise<'light' | 'dark'> {
  const [background, text] = await page.evaluate(() => [
    getComputedStyle(document.body).backgroundColor,
    getComputedStyle(document.body).color,
  ]);
  const luminance = (rgb: string) => {
    const [r, g, b] = (rgb.match(/\d+(\.\d+)?/g) ?? []).map(Number);
    return (0.2126 * r! + 0.7152 * g! + 0.0722 * b!) / 255;
  };
  if (luminance(background!) < 0.2 && luminance(text!) > 0.6) return 'dark';
  if (luminance(background!) > 0.9 && luminance(text!) < 0.3) return 'light';
  throw new Error(`Neither light nor dark: text ${text} on ${background}`);
}

/** The scheme the page has before any of the app's code runs: what the first paint shows. */
async function looksBeforeTheApp(page: Page): Promise<'light' | 'dark'> {
  await page.route('**/assets/*.js', (route) => route.abort());
  await page.reload();
  const scheme = await looks(page);
  expect(await page.locator('#root').innerHTML()).toBe('');
  await page.unroute('**/assets/*.js');
  await page.reload();
  await page.getByRole('button', { name: /Account menu/ }).waitFor();
  return scheme;
}

/** The profile menu's appearance choices, opened from the button as a user does. */
async function openAppearance(page: Page) {
  return (await openAccountMenu(page)).getByRole('group', { name: 'Appearance' });
}

async function checkedChoice(page: Page): Promise<string | null> {
  const appearance = await openAppearance(page);
  const checked = appearance.getByRole('menuitemradio', { checked: true });
  const label = await checked.textContent();
  await escapeMenu(page);
  return label;
}

describe('dark mode', () => {
  it('is dark when the system prefers dark, before any choice and from the first paint', async () => {
    const page = await signedIn('dark');
    expect(await looks(page)).toBe('dark');
    expect(await page.locator('html').getAttribute('data-mantine-color-scheme')).toBe('dark');
    expect(await checkedChoice(page)).toBe('System');
    expect(await looksBeforeTheApp(page)).toBe('dark');
  });

  it('turns light when Light is chosen, stays light after a reload, and follows the system again on System', async () => {
    const page = await signedIn('dark');
    const appearance = await openAppearance(page);
    await appearance.getByRole('menuitemradio', { name: 'Light' }).click();
    expect(await looks(page)).toBe('light');
    // The menu stays open on the choice, now checked.
    expect(await appearance.getByRole('menuitemradio', { name: 'Light' }).getAttribute('aria-checked')).toBe(
      'true',
    );
    await escapeMenu(page);

    await page.reload();
    await page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();
    expect(await looks(page)).toBe('light');
    expect(await checkedChoice(page)).toBe('Light');
    expect(await looksBeforeTheApp(page)).toBe('light');

    await (await openAppearance(page)).getByRole('menuitemradio', { name: 'System' }).click();
    expect(await looks(page)).toBe('dark');
    await escapeMenu(page);
    // The system changing its mind is followed at once.
    await page.emulateMedia({ colorScheme: 'light' });
    await expect.poll(() => looks(page)).toBe('light');
    await page.reload();
    await page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();
    expect(await looks(page)).toBe('light');
    expect(await checkedChoice(page)).toBe('System');
  });

  it('keeps Dark chosen against a light system', async () => {
    const page = await signedIn('light');
    expect(await looks(page)).toBe('light');
    await (await openAppearance(page)).getByRole('menuitemradio', { name: 'Dark' }).click();
    expect(await looks(page)).toBe('dark');
    await escapeMenu(page);
    await page.goto('/help');
    await page.getByRole('heading', { name: 'Help', level: 1 }).waitFor();
    expect(await looks(page)).toBe('dark');
  });
});

describe('the dashboard in dark', () => {
  /** Each screen's address and what shows once it has loaded. */
  const screens: { name: string; path: string; ready: (page: Page) => Locator }[] = [
    { name: 'home', path: '/', ready: (page) => page.getByRole('heading', { name: 'Home', level: 1 }) },
    {
      name: 'feature-list',
      path: '/projects/sp/environments/development/features',
      ready: (page) => page.getByRole('link', { name: 'New checkout' }).first(),
    },
    {
      name: 'feature-overview',
      path: '/projects/sp/environments/development/features/new-checkout/overview',
      ready: (page) => page.locator('.recharts-line').first(),
    },
    {
      name: 'feature-targeting',
      path: '/projects/sp/environments/development/features/new-checkout/targeting',
      ready: (page) => page.getByRole('heading', { name: 'Rules' }),
    },
    {
      name: 'admin',
      path: '/admin/projects/sp',
      ready: (page) => page.getByRole('heading', { name: 'Sample Project', level: 2 }),
    },
    { name: 'help', path: '/help', ready: (page) => page.getByRole('heading', { name: 'Help', level: 1 }) },
    {
      name: 'feature-settings',
      path: '/projects/sp/environments/development/features/new-checkout/settings',
      ready: (page) => page.getByRole('button', { name: /Delete/ }).first(),
    },
    {
      name: 'production-features',
      path: '/projects/sp/environments/production/features',
      ready: (page) => page.getByText('PRODUCTION ENVIRONMENT').first(),
    },
    {
      name: 'segments',
      path: '/projects/sp/environments/development/segments',
      ready: (page) => page.getByRole('heading', { name: 'Segments', level: 1 }),
    },
    {
      name: 'users',
      path: '/projects/sp/environments/development/users',
      ready: (page) => page.getByRole('heading', { name: 'Users', level: 1 }),
    },
    {
      name: 'not-found',
      path: '/no-such-page',
      ready: (page) => page.getByRole('heading', { name: 'Page not found' }),
    },
  ];

  it('reads well on every screen, wide and narrow', async () => {
    const page = await signedIn('dark');
    for (const screen of screens) {
      await page.setViewportSize({ width: 1440, height: 900 });
      await page.goto(screen.path);
      await screen.ready(page).waitFor();
      expect(await looks(page)).toBe('dark');
      await viewShot(page, `dark-${screen.name}-1440`, 1440);
      await viewShot(page, `dark-${screen.name}-390`, 390);
    }

    // The profile menu, open on its appearance choice.
    for (const width of [1440, 390]) {
      await page.setViewportSize({ width, height: width < 600 ? 844 : 900 });
      await page.goto('/');
      await page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();
      await (await openAppearance(page)).getByRole('menuitemradio', { name: 'System' }).waitFor();
      await viewShot(page, `dark-profile-menu-${width}`, width);
    }
  });

  it('reads well before signing in', async () => {
    const { context, page } = await openPage(browser, server.url);
    onTestFinished(() => context.close());
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto('/demo/login');
    await page.getByRole('heading', { name: 'Sign in to Demo' }).waitFor();
    expect(await looks(page)).toBe('dark');
    await viewShot(page, 'dark-login-1440', 1440);
    await viewShot(page, 'dark-login-390', 390);
  });
});
