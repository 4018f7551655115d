import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { launchBrowser, openPage, screenshot, signIn, watchRequests } from './support/browser';
import { startServer, type RunningServer } from './support/server';
import { adminApi, DESKTOP, PHONE } from './support/api';

/*
 * Home's Features section (docs/product.md §2): Recent sorted by last change with a "Last changed"
 * column, 50 a page, the sort and page kept in the address, and a failed load said once, at once, with
 * a Retry button. A server of its own: it needs more than a page of features, which would crowd the
 * shared server's lists.
 */

/** More than a page of 50 on their own, whatever the demo organisation holds besides. */
const SEEDED = 60;
const seededName = (i: number) => `Paged ${String(i).padStart(3, '0')}`;

type SeededFeature = {
  key: string;
  controls: Record<string, { id: string; lastModifiedDate: string }>;
};

let browser: Browser;
let server: RunningServer;
/** How many live features the organisation has: the demo's and the seeded ones. */
let total = 0;

beforeAll(async () => {
  [browser, server] = await Promise.all([launchBrowser(), startServer()]);
  const api = await adminApi(server.url);
  await api('POST', '/api/v1/projects', { name: 'Paging', key: 'page' });
  let tenth: SeededFeature | undefined;
  for (let i = 0; i < SEEDED; i++) {
    const created = await api<SeededFeature>('POST', '/api/v1/projects/page/features', {
      name: seededName(i),
      key: `paged-${i}`,
    });
    if (i === 10) tenth = created;
  }
  // Switching a control is a change too: the tenth feature becomes the most recently changed.
  const control = tenth!.controls.development!;
  await api('PUT', `/api/v1/feature-controls/${control.id}/enabled`, {
    enabled: true,
    lastModifiedDate: control.lastModifiedDate,
  });
  // Every project's features, counted through the environment lists (a feature is in each environment).
  const projects = await api<{ key: string; environments: { key: string }[] }[]>('GET', '/api/v1/projects/');
  for (const project of projects) {
    const list = await api<{ totalElements: number }>(
      'GET',
      `/api/v1/projects/${project.key}/environments/${project.environments[0]!.key}/features`,
    );
    total += list.totalElements;
  }
  expect(total).toBeGreaterThan(50);
}, 120_000);
afterAll(async () => {
  await Promise.all([browser?.close(), server?.stop()]);
});

async function signedIn(viewport = DESKTOP): Promise<Page> {
  const { context, page } = await openPage(browser, server.url);
  onTestFinished(() => context.close());
  await page.setViewportSize(viewport);
  await signIn(page);
  await page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();
  return page;
}

const featuresTable = (page: Page) => page.getByRole('table', { name: 'Features' });
/** The table's data rows (a row with a feature link), top to bottom. */
const rows = (page: Page) =>
  featuresTable(page)
    .locator('tbody tr')
    .filter({ has: page.getByRole('link') });
const header = (page: Page, name: string) => page.getByRole('columnheader', { name });

/** Waits until the table shows the page asked for (a page on its way dims the one before, busy). */
async function settled(page: Page): Promise<void> {
  await expect.poll(() => featuresTable(page).getAttribute('aria-busy')).toBeNull();
}

async function firstNames(page: Page, count: number): Promise<string[]> {
  const names: string[] = [];
  for (let i = 0; i < count; i++) names.push(await rows(page).nth(i).getByRole('link').innerText());
  return names;
}

/** Whether two boxes overlap. */
async function overlap(a: Locator, b: Locator): Promise<boolean> {
  const [one, two] = await Promise.all([a.boundingBox(), b.boundingBox()]);
  if (!one || !two) return false;
  return (
    one.x < two.x + two.width &&
    two.x < one.x + one.width &&
    one.y < two.y + two.height &&
    two.y < one.y + one.height
  );
}

describe('home Features section', () => {
  it('lists Recent by last change, newest first, with a Last changed column', async () => {
    const page = await signedIn();
    await rows(page).first().waitFor();
    expect(await header(page, 'Last changed').getAttribute('aria-sort')).toBe('descending');
    // The control switched last comes first, then the features in the reverse order of creation.
    expect(await firstNames(page, 3)).toEqual([seededName(10), seededName(59), seededName(58)]);
    const changed = rows(page).first().locator('time');
    expect(await changed.innerText()).toMatch(/ago$/);
    expect(Date.parse((await changed.getAttribute('datetime'))!)).toBeGreaterThan(Date.now() - 10 * 60_000);
    await changed.hover();
    // The full date, in docs/product.md §9's format, on hover.
    await page
      .getByRole('tooltip')
      .filter({ hasText: /^\d{1,2}(st|nd|rd|th) \w{3} \d{4}, \d{1,2}:\d{2}(am|pm)$/ })
      .waitFor();
    await screenshot(page, 'b-home-1440');

    await page.setViewportSize(PHONE);
    await page.getByRole('heading', { name: 'Features' }).scrollIntoViewIfNeeded();
    await screenshot(page, 'b-home-390');
  });

  it('pages 50 at a time, and a reload keeps the page and the sort', async () => {
    const page = await signedIn();
    await rows(page).first().waitFor();
    expect(await rows(page).count()).toBe(50);
    await page.getByText(new RegExp(`^1–50 of ${total}$`)).waitFor();

    await page.getByRole('button', { name: 'Page 2' }).click();
    await page.getByText(new RegExp(`^51–${Math.min(total, 100)} of ${total}$`)).waitFor();
    expect(await rows(page).count()).toBe(Math.min(total, 100) - 50);
    expect(new URL(page.url()).searchParams.get('page')).toBe('2');

    await header(page, 'Name').getByRole('button').click();
    await expect.poll(() => header(page, 'Name').getAttribute('aria-sort')).toBe('ascending');
    await header(page, 'Name').getByRole('button').click();
    await expect.poll(() => header(page, 'Name').getAttribute('aria-sort')).toBe('descending');
    expect(new URL(page.url()).searchParams.get('sortDirection')).toBe('desc');
    // A new sort starts again from the first page.
    expect(new URL(page.url()).searchParams.get('page')).toBeNull();
    await settled(page);
    const firstPage = await firstNames(page, 2);
    await page.getByRole('button', { name: 'Page 2' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('page')).toBe('2');
    await expect
      .poll(() => page.getByRole('button', { name: 'Page 2' }).getAttribute('aria-current'))
      .toBe('page');
    await settled(page);
    const before = await firstNames(page, 2);
    expect(before).not.toEqual(firstPage);

    await page.reload();
    await rows(page).first().waitFor();
    await settled(page);
    expect(await header(page, 'Name').getAttribute('aria-sort')).toBe('descending');
    expect(await page.getByRole('button', { name: 'Page 2' }).getAttribute('aria-current')).toBe('page');
    expect(await firstNames(page, 2)).toEqual(before);
  });

  it('says once, at once, when the list fails to load, and loads it on Retry', async () => {
    const { context, page } = await openPage(browser, server.url);
    onTestFinished(() => context.close());
    await page.setViewportSize(DESKTOP);
    let failing = true;
    let asked = 0;
    await page.route('**/api/v1/features/home**', async (route) => {
      asked += 1;
      if (!failing) return route.continue();
      return route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: JSON.stringify({ title: 'Something went wrong on our side. Please try again.' }),
      });
    });
    // The page's timers on a clock the test can run ahead: time passes as usual until then.
    await page.clock.install();
    const requests = watchRequests(page);
    await signIn(page);
    const alert = page.getByRole('alert').filter({ hasText: 'We could not load the features.' });
    // At once: said after the one failed call, with no retries behind a skeleton first (they took 3 s).
    await alert.waitFor();
    expect(asked).toBe(1);
    await expect.poll(() => alert.innerText()).toContain('Something went wrong on our side.');
    // A retry (the client's comes 300 ms after a call that got no answer) or a second toast would
    // come within the next 1.5 s: the page's clock runs them at once, and what they asked is answered.
    await page.clock.runFor(1500);
    await requests.settled();
    expect(asked).toBe(1);
    expect(await page.getByText('Something went wrong on our side. Please try again.').count()).toBe(1);
    expect(await page.locator('.mantine-Notification-root').count()).toBe(0);
    expect(await featuresTable(page).count()).toBe(0);

    failing = false;
    await alert.getByRole('button', { name: 'Retry' }).click();
    await rows(page).first().waitFor();
    expect(await alert.count()).toBe(0);
  });

  it('shows a toast where it does not cover the account menu, on desktop and phone', async () => {
    for (const viewport of [DESKTOP, PHONE]) {
      const page = await signedIn(viewport);
      await page.route('**/api/v1/features/*/bookmark/*', (route) =>
        route.fulfill({
          status: 500,
          contentType: 'application/json',
          body: JSON.stringify({ title: 'The bookmark broke.' }),
        }),
      );
      await rows(page).first().waitFor();
      await rows(page)
        .first()
        .getByRole('button', { name: /^Bookmark / })
        .click();
      const toast = page.locator('.mantine-Notification-root').filter({ hasText: 'The bookmark broke.' });
      await toast.waitFor();
      const account = page.getByRole('button', { name: /^Account menu for / });
      expect(await account.isVisible()).toBe(true);
      expect(await overlap(toast, account)).toBe(false);
      // The account menu still opens while the toast shows.
      await account.click();
      await page.getByRole('menuitem', { name: 'Log Out' }).waitFor();
      await screenshot(page, `b-home-toast-${viewport.width}`);
    }
  });
});
