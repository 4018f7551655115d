import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { signIn, useFreshPage, viewShot } from './support/browser';
import { sharedServerURL } from './support/shared-server';
import { adminApi, type Api } from './support/api';

/*
 * An environment's feature list filtered by tag and by Off, sorted by Last changed, all kept in the
 * address through a reload (docs/product.md §2 "Feature list"). A project of its own on the shared
 * server, so that other specs' features do not show.
 */

const PROJECT = 'flt';
const LIST = `/projects/${PROJECT}/environments/development/features`;

type Created = { key: string; controls: Record<string, { id: string; lastModifiedDate: string }> };

const browser = useFreshPage();

/** Switches a feature's Development control, as the list's switch does. */
async function toggle(api: Api, feature: Created, enabled: boolean): Promise<Created> {
  const control = feature.controls.development!;
  const saved = await api<{ lastModifiedDate: string }>(
    'PUT',
    `/api/v1/feature-controls/${control.id}/enabled`,
    {
      enabled,
      lastModifiedDate: control.lastModifiedDate,
    },
  );
  return { ...feature, controls: { ...feature.controls, development: { ...control, ...saved } } };
}

beforeAll(async () => {
  const api = await adminApi(sharedServerURL());
  await api('POST', '/api/v1/projects', { name: 'Filtered list', key: PROJECT });
  const create = (name: string, key: string, tags: string[]) =>
    api<Created>('POST', `/api/v1/projects/${PROJECT}/features`, { name, key, tags });
  const alpha = await create('Alpha pay', 'alpha-pay', ['payments', 'beta']);
  await create('Bravo pay', 'bravo-pay', ['payments']);
  const charlie = await create('Charlie pay', 'charlie-pay', ['payments', 'mobile', 'checkout-redesign']);
  await create('Delta', 'delta', ['mobile']);
  await create('Echo', 'echo', []);
  await toggle(api, alpha, true);
  // Switched on and off again: off, and the most recently changed of them all.
  await toggle(api, await toggle(api, charlie, true), false);
}, 60_000);

const table = (page: Page) => page.getByRole('table', { name: 'Features in Development' });
/** The names of the rows shown, once the list has settled (a list on its way is busy). */
async function names(page: Page): Promise<string[]> {
  await expect.poll(() => table(page).getAttribute('aria-busy')).toBeNull();
  return table(page).locator('tbody tr').getByRole('link').allInnerTexts();
}
const filters = (page: Page) => page.getByRole('group', { name: 'Filters' });

describe('feature list filters', () => {
  it('filters by tag and by Off, sorts by Last changed, and finds all three again after a reload', async () => {
    const { page } = browser;
    await signIn(page, { at: LIST });
    await expect.poll(() => names(page)).toEqual(['Alpha pay', 'Bravo pay', 'Charlie pay', 'Delta', 'Echo']);

    // A tag: the features having it.
    await filters(page).getByRole('combobox', { name: 'Tags' }).click();
    await page.getByRole('option', { name: 'payments' }).click();
    await page.keyboard.press('Escape');
    await expect.poll(() => names(page)).toEqual(['Alpha pay', 'Bravo pay', 'Charlie pay']);

    // Off in this environment.
    await filters(page).getByText('Off', { exact: true }).click();
    await expect.poll(() => names(page)).toEqual(['Bravo pay', 'Charlie pay']);

    // Last changed, newest first.
    const lastChanged = page.getByRole('columnheader', { name: 'Last changed' });
    await lastChanged.getByRole('button').click();
    await expect.poll(() => names(page)).toEqual(['Charlie pay', 'Bravo pay']);
    expect(await lastChanged.getAttribute('aria-sort')).toBe('descending');
    const charlieRow = table(page).locator('tbody tr').first();
    expect(await charlieRow.locator('time').innerText()).toMatch(/ago$/);
    await viewShot(page, 'feature-list-filters', 1440);

    const address = new URL(page.url());
    expect(address.searchParams.getAll('tag')).toEqual(['payments']);
    expect(address.searchParams.get('state')).toBe('off');
    expect(address.searchParams.get('sortBy')).toBe('lastChanged');

    await page.reload();
    await expect.poll(() => names(page)).toEqual(['Charlie pay', 'Bravo pay']);
    expect(await filters(page).getByRole('radio', { name: 'Off' }).isChecked()).toBe(true);
    await filters(page).getByText('payments', { exact: true }).waitFor();
    expect(await lastChanged.getAttribute('aria-sort')).toBe('descending');

    // Clear filters: every feature again, still by last change.
    await filters(page).getByRole('button', { name: 'Clear filters' }).click();
    await expect.poll(() => names(page)).toEqual(['Charlie pay', 'Alpha pay', 'Echo', 'Delta', 'Bravo pay']);
  });

  it('says when nothing matches, and on a phone folds the filters away without scrolling sideways', async () => {
    const { page } = browser;
    await signIn(page, { at: `${LIST}?tag=beta&state=off` });
    await page.getByText('No feature matches these filters.').waitFor();

    await page.goto(`${LIST}?tag=payments`);
    await page.setViewportSize({ width: 390, height: 844 });
    const cards = page.getByRole('list', { name: 'Features in Development' });
    await cards.getByRole('link', { name: 'Charlie pay' }).waitFor();
    const toggleFilters = page.getByRole('button', { name: 'Filters (1 set)' });
    expect(await toggleFilters.getAttribute('aria-expanded')).toBe('true');
    await viewShot(page, 'feature-list-filters-phone', 390);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await toggleFilters.click();
    await expect.poll(() => toggleFilters.getAttribute('aria-expanded')).toBe('false');
    const card = cards.getByRole('listitem').filter({ hasText: 'Charlie pay' });
    await card.getByRole('list', { name: 'Tags' }).waitFor();
    expect(await card.locator('time').innerText()).toMatch(/ago$/);
    await viewShot(page, 'feature-list-cards-phone', 390);
  });
});
