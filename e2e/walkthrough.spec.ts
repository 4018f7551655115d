import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { DESKTOP, PHONE } from './support/api';
import { launchBrowser, openPage, signIn, viewShot, watchRequests } from './support/browser';
import { ADMIN_PASSWORD, addDemoUser, startServer, type RunningServer } from './support/server';

/*
 * The welcome walkthrough (docs/product.md §2 "Onboarding walkthrough", §4) for a member who has never
 * closed it: shown over the first page after signing in while flag welcome-message is on, pointing at
 * the navigation where it is on screen; closing it marks the intro read for good; the profile menu
 * replays it. A server of its own, with the flag on (support/server.ts turns it off for other specs).
 */

const NEWCOMER = 'newcomer@example.com';
const STEPS = [
  'Welcome to Vexil',
  'Projects and environments',
  'Home',
  'The project menu',
  'Creating features',
  'Key, name and description',
  'The on/off switch',
  'Targeting',
  'Learn more',
];
/** The steps about an element of the navigation, and the element's label. */
const POINTED: Record<string, string> = {
  'Projects and environments': '[data-tour="environment-menu"]',
  Home: '[data-tour="home"]',
  'The project menu': '[data-tour="project-menu"]',
  'Learn more': '[data-tour="help"]',
};

let browser: Browser;
let server: RunningServer;

beforeAll(async () => {
  [browser, server] = await Promise.all([
    launchBrowser(),
    startServer(
      { VEXIL_UI_FLAGS: 'welcome-message=on' },
      { prepare: (db) => addDemoUser(db, NEWCOMER, 'ROLE_ORGANISATION_EDITOR') },
    ),
  ]);
});
afterAll(async () => {
  await Promise.all([browser?.close(), server?.stop()]);
});

const tour = (page: Page): Locator => page.getByRole('dialog');
const tourTitle = (page: Page) => tour(page).getByRole('heading').first().textContent();

/** Waits for the answer to the intro/read call that closing the walkthrough makes. */
function introRead(page: Page) {
  return page.waitForResponse(
    (response) =>
      response.request().method() === 'PUT' &&
      /\/api\/v1\/users\/[^/]+\/settings\/intro\/read$/.test(response.url()),
  );
}

/** The box of the first element matching `selector` that is drawn. */
async function boxOf(page: Page, selector: string) {
  return page.evaluate((query) => {
    for (const element of Array.from(document.querySelectorAll(query))) {
      const rect = element.getBoundingClientRect();
      if (rect.width > 0) return { top: rect.top, left: rect.left, bottom: rect.bottom, right: rect.right };
    }
    return null;
  }, selector);
}

describe('Welcome walkthrough', () => {
  it('greets a new member, points at the navigation, and once done never opens by itself again', async () => {
    const { context, page } = await openPage(browser, server.url);
    await page.setViewportSize(DESKTOP);
    await signIn(page, { email: NEWCOMER, password: ADMIN_PASSWORD });
    await page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();
    await tour(page).getByRole('heading', { name: 'Welcome to Vexil' }).waitFor();
    expect(await tour(page).textContent()).toContain('Hello Demo!');

    for (const [index, title] of STEPS.entries()) {
      expect(await tourTitle(page)).toBe(title);
      expect(
        await tour(page)
          .getByText(`Step ${index + 1} of ${STEPS.length}`)
          .isVisible(),
      ).toBe(true);
      const pointed = POINTED[title];
      const spotlight = await boxOf(page, '[data-testid="walkthrough-spotlight"]');
      if (pointed) {
        // The lit hole is around the element, and the card just below it.
        const target = (await boxOf(page, pointed))!;
        expect(target).not.toBeNull();
        expect(spotlight!.top).toBeLessThan(target.top);
        expect(spotlight!.bottom).toBeGreaterThan(target.bottom);
        expect(spotlight!.left).toBeLessThan(target.left);
        const card = (await tour(page).boundingBox())!;
        expect(card.y).toBeGreaterThan(target.bottom);
      } else {
        expect(spotlight).toEqual({ top: 0, left: 0, bottom: DESKTOP.height, right: DESKTOP.width });
      }
      await viewShot(page, `walkthrough-${index + 1}-1440`, 1440);
      if (index < STEPS.length - 1) await tour(page).getByRole('button', { name: 'Next' }).click();
    }
    await tour(page).getByRole('button', { name: 'Back' }).click();
    expect(await tourTitle(page)).toBe('Targeting');
    await tour(page).getByRole('button', { name: 'Next' }).click();

    const read = introRead(page);
    await tour(page).getByRole('button', { name: 'Done' }).click();
    expect((await read).status()).toBe(200);
    await tour(page).waitFor({ state: 'detached' });

    // Read for good: not on the next visit either.
    const requests = watchRequests(page);
    await page.reload();
    await page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();
    // The walkthrough's code is loaded on demand: once every load has answered, it would be open.
    await requests.settled();
    expect(await tour(page).count()).toBe(0);
    const initial = await page.evaluate(() => fetch('/api/v1/initial').then((response) => response.json()));
    expect(
      (initial as { principalUser: { settings: { introReadDate: string | null } } }).principalUser.settings
        .introReadDate,
    ).not.toBeNull();
    await context.close();
  });

  it('replays from the profile menu on a phone, centred, and Escape closes it as read', async () => {
    const { context, page } = await openPage(browser, server.url);
    await page.setViewportSize(PHONE);
    await signIn(page);
    await page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();
    // The admin has never closed it either: Skip counts as closing.
    await tour(page).getByRole('heading', { name: 'Welcome to Vexil' }).waitFor();
    const skipped = introRead(page);
    await tour(page).getByRole('button', { name: 'Skip' }).click();
    expect((await skipped).status()).toBe(200);
    await tour(page).waitFor({ state: 'detached' });

    await page.getByRole('button', { name: /Account menu/ }).click();
    await page.getByRole('menuitem', { name: 'Welcome tour' }).click();
    await tour(page).getByRole('heading', { name: 'Welcome to Vexil' }).waitFor();
    for (const [index, title] of STEPS.entries()) {
      expect(await tourTitle(page)).toBe(title);
      // Nothing of the navigation is on screen at this width but the menu button: every step is centred.
      const card = (await tour(page).boundingBox())!;
      expect(card.x).toBeGreaterThanOrEqual(0);
      expect(card.x + card.width).toBeLessThanOrEqual(PHONE.width);
      await viewShot(page, `walkthrough-${index + 1}-390`, 390);
      if (index < STEPS.length - 1) await tour(page).getByRole('button', { name: 'Next' }).click();
    }
    const read = introRead(page);
    await page.keyboard.press('Escape');
    expect((await read).status()).toBe(200);
    await tour(page).waitFor({ state: 'detached' });
    await context.close();
  });
});
