import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { mkdir } from 'node:fs/promises';
import { launchBrowser, openPage, screenshot, signIn } from './support/browser';
import { DESKTOP, PHONE } from './support/api';
import { sharedServerURL } from './support/shared-server';

/*
 * Targeting saved while a Targeting form holds an edit (docs/adr/0013-concurrent-edits.md): the form
 * takes in what was saved where the edit left it alone (the header's switch, another window's save),
 * so saving neither undoes it nor is refused for it; where both changed the same part, the edit is
 * kept and the form shows both sides, named and timed, to keep mine or take theirs.
 */

/** Each test's own feature, by name; its key is made from the name. */
const SWITCH_FEATURE = 'Concurrent edits switch';
const CONFLICT_FEATURE = 'Concurrent edits demo';

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
async function createFeature(page: Page, name: string): Promise<string> {
  // The server takes a write with the session cookie only from its own origin.
  const origin = new URL(page.url()).origin;
  const response = await page.request.post(`${origin}/api/v1/projects/sp/features`, {
    data: { name, key: name.toLowerCase().replaceAll(' ', '-') },
    headers: { Origin: origin },
  });
  expect(response.status(), await response.text()).toBe(201);
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
const changedNotice = (page: Page) =>
  page.getByRole('status').filter({ hasText: /changed this targeting at/ });
const saved = (page: Page, name: string) => page.getByText(`${name} targeting for Development saved.`).last();

/** The screen at 1440 and 390 px wide, light and dark, for the one looking at it (not kept in the repository). */
async function shots(page: Page, name: string): Promise<void> {
  const folder = '/tmp/shots/h4-live';
  await mkdir(folder, { recursive: true });
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const size of [DESKTOP, PHONE]) {
      await page.setViewportSize(size);
      await changedNotice(page).scrollIntoViewIfNeeded();
      await page.evaluate(() => document.fonts.ready);
      await page.screenshot({ path: `${folder}/${name}-${size.width}-${scheme}.png` });
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize(DESKTOP);
}

async function openTargeting(page: Page, featureKey: string): Promise<void> {
  await page.goto(`/projects/sp/environments/development/features/${featureKey}/targeting`);
  await page.getByRole('heading', { name: 'Targeting for Development' }).waitFor();
  await enabledSwitch(page).waitFor();
}

describe('targeting saved while a Targeting form holds an edit', () => {
  it(
    'follows the header’s switch, saved at once, and saves its own edit on top of it without a conflict',
    { timeout: 120_000 },
    async () => {
      const page = await signedInWindow();
      const featureKey = await createFeature(page, SWITCH_FEATURE);
      await openTargeting(page, featureKey);
      // The edit: everyone else gets a 50/50 split.
      await otherwiseSplit(page).check({ force: true });
      await page.getByText('Total: 100 %').waitFor();

      // The header's switch saves at once, and the form follows it.
      // Clicked, not checked: the switch moves once its optimistic change is in the cache, a moment
      // after the click; what the user then sees is waited for.
      const header = page.getByRole('switch', { name: `${SWITCH_FEATURE} on in Development` });
      await header.click({ force: true });
      await page.getByText('Feature saved.').last().waitFor();
      expect(await header.isChecked()).toBe(true);
      await expect.poll(() => enabledSwitch(page).isChecked()).toBe(true);
      expect(await otherwiseSplit(page).isChecked()).toBe(true);

      await saveButton(page).click();
      await saved(page, SWITCH_FEATURE).waitFor();
      expect(await failure(page).count()).toBe(0);
      expect(await changedNotice(page).count()).toBe(0);
      const stored = await storedControl(page, featureKey);
      expect(stored.enabled).toBe(true);
      expect(stored.rules.at(-1)?.variantSplits).toEqual([
        { variantKey: 'on', split: 50 },
        { variantKey: 'off', split: 50 },
      ]);
    },
  );

  it(
    'keeps the second window’s edit of the part both changed, shows both sides with who and when, and saves the one kept',
    { timeout: 120_000 },
    async () => {
      const first = await signedInWindow();
      const featureKey = await createFeature(first, CONFLICT_FEATURE);
      const second = await signedInWindow();
      for (const page of [first, second]) await openTargeting(page, featureKey);

      // The second window starts an edit: everyone else gets a 50/50 split.
      await otherwiseSplit(second).check({ force: true });
      await second.getByText('Total: 100 %').waitFor();

      // The first turns targeting on and gives everyone else Off, and saves.
      await enabledSwitch(first).check({ force: true });
      const serve = first.getByRole('group', { name: 'Everyone else: serve' });
      await serve.getByRole('combobox', { name: 'Variant' }).click();
      await first.getByRole('option', { name: 'Off', exact: true }).click();
      await saveButton(first).click();
      await saved(first, CONFLICT_FEATURE).waitFor();
      const firstSaved = await storedControl(first, featureKey);

      // The second window hears of it: their switch is in the form, the part both changed is asked.
      const notice = changedNotice(second);
      await notice.getByText(/^admin@example\.com changed this targeting at \d\d:\d\d\.$/).waitFor();
      const part = notice.getByRole('group', { name: 'Everyone else' });
      await part.getByText('Yours: 50% On, 50% Off').waitFor();
      await part.getByText('Theirs: Off').waitFor();
      await expect.poll(() => enabledSwitch(second).isChecked()).toBe(true);
      expect(await otherwiseSplit(second).isChecked()).toBe(true);
      expect(await saveButton(second).isDisabled()).toBe(true);
      await screenshot(second, 'concurrent-edits-conflict');
      await shots(second, 'targeting-conflict');
      expect(await storedControl(second, featureKey)).toEqual(firstSaved);

      await part.getByRole('button', { name: 'Keep mine' }).click();
      await notice.waitFor({ state: 'detached' });
      await saveButton(second).click();
      await saved(second, CONFLICT_FEATURE).waitFor();
      const stored = await storedControl(second, featureKey);
      expect(stored.enabled).toBe(true);
      expect(stored.rules.at(-1)?.variantSplits).toEqual([
        { variantKey: 'on', split: 50 },
        { variantKey: 'off', split: 50 },
      ]);
    },
  );
});
