import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, openPage, screenshot, signIn } from './support/browser';
import { sharedServerURL } from './support/shared-server';

/*
 * Two windows of the same admin edit one feature's targeting: the second save, based on what the
 * window loaded before the first save, is refused with the server's message instead of silently
 * undoing the first (docs/adr/0013-concurrent-edits.md), and Reload shows what is stored.
 */

const FEATURE_NAME = 'Concurrent edits demo';

type Rule = { defaultRule: boolean; variantSplits: { variantKey: string; split: number }[] };

let browser: Browser;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  for (const context of contexts) await context.close();
  await browser.close();
});

/** A fresh profile, signed in as the demo admin. */
async function signedInWindow(): Promise<Page> {
  const { context, page } = await openPage(browser, sharedServerURL());
  contexts.push(context);
  await signIn(page);
  await page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();
  return page;
}

/** Our own feature (the shared server's features belong to other specs too); the server may change its key. */
async function createFeature(page: Page): Promise<string> {
  // The server takes a write with the session cookie only from its own origin.
  const origin = new URL(page.url()).origin;
  const response = await page.request.post(`${origin}/api/v1/projects/sp/features`, {
    data: { name: FEATURE_NAME, key: 'concurrent-edits-demo' },
    headers: { Origin: origin },
  });
  expect(response.status()).toBe(201);
  return ((await response.json()) as { key: string }).key;
}

async function storedControl(page: Page, featureKey: string): Promise<{ enabled: boolean; rules: Rule[] }> {
  const response = await page.request.get(`/api/v1/projects/sp/features/${featureKey}`);
  const feature = (await response.json()) as {
    controls: Record<string, { enabled: boolean; rules: Rule[] }>;
  };
  return feature.controls.development!;
}

const enabledSwitch = (page: Page) => page.getByRole('switch', { name: 'Targeting enabled' });
const otherwiseSplit = (page: Page) =>
  page.getByRole('group', { name: 'Everyone else: serve' }).getByRole('switch', { name: 'Split' });
const saveButton = (page: Page) => page.getByRole('button', { name: 'Save', exact: true });
const failure = (page: Page) => page.getByRole('alert').filter({ hasText: 'The targeting was not saved' });

describe('two people editing the same targeting', () => {
  it(
    'refuses the second save with who changed it, and Reload shows the first one’s change',
    { timeout: 120_000 },
    async () => {
      const first = await signedInWindow();
      const featureKey = await createFeature(first);
      const second = await signedInWindow();
      const targeting = `/projects/sp/environments/development/features/${featureKey}/targeting`;
      for (const page of [first, second]) {
        await page.goto(targeting);
        await page.getByRole('heading', { name: 'Targeting for Development' }).waitFor();
        await enabledSwitch(page).waitFor();
      }

      // The second window starts an edit: it turns targeting on. (An editor without edits takes a save
      // made elsewhere as soon as it hears of it, so the edit has to start before the first one saves.)
      await enabledSwitch(second).check({ force: true });

      // The first window turns targeting on and splits everyone else 50/50, and saves.
      await enabledSwitch(first).check({ force: true });
      await otherwiseSplit(first).check({ force: true });
      await first.getByText('Total: 100 %').waitFor();
      await saveButton(first).click();
      await first.getByText(`${FEATURE_NAME} targeting for Development saved.`).last().waitFor();
      const firstSaved = await storedControl(first, featureKey);
      expect(firstSaved.enabled).toBe(true);
      expect(firstSaved.rules.at(-1)?.variantSplits).toEqual([
        { variantKey: 'on', split: 50 },
        { variantKey: 'off', split: 50 },
      ]);

      // The second window keeps its edit, based on what it loaded, and saves it.
      expect(await otherwiseSplit(second).isChecked()).toBe(false);
      expect(await enabledSwitch(second).isChecked()).toBe(true);
      await saveButton(second).click();
      const message =
        'You changed this targeting in another window after you opened it. Reload to see the changes, then make yours again.';
      await failure(second).getByText(message).waitFor();
      // Nothing of the second save was stored.
      expect(await storedControl(second, featureKey)).toEqual(firstSaved);
      // The second window's edit is still there until it chooses to drop it.
      expect(await enabledSwitch(second).isChecked()).toBe(true);
      expect(await otherwiseSplit(second).isChecked()).toBe(false);
      await screenshot(second, 'concurrent-edits-stale');

      await failure(second).getByRole('button', { name: 'Reload' }).click();
      await failure(second).waitFor({ state: 'detached' });
      // The warning toast, which said to reload, goes too.
      await second.getByText(message).waitFor({ state: 'detached' });
      await second.getByText('Everything is saved.').waitFor();
      expect(await otherwiseSplit(second).isChecked()).toBe(true);
      expect(await enabledSwitch(second).isChecked()).toBe(true);
      await second.getByText('Everyone gets 50% On, 50% Off.').first().waitFor();
      await screenshot(second, 'concurrent-edits-reloaded');
    },
  );
});
