import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { signIn, useFreshPage, viewShot } from './support/browser';

/*
 * The quick search (docs/product.md §2 "Quick search") on the demo organisation: "/" or Ctrl-K opens it on
 * any signed-in page, the arrows and Enter open what it found. The shared server may hold other specs'
 * projects and features too, so results are picked by what they read, not by position.
 */

const current = useFreshPage();

async function signedIn(): Promise<Page> {
  const { page } = current;
  await signIn(page);
  await page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();
  return page;
}

const dialog = (page: Page) => page.getByRole('dialog', { name: 'Quick search' });
const searchField = (page: Page) =>
  page.getByRole('combobox', { name: 'Search features, projects and environments' });

/** The option of `group` that reads `name` and then `details` (its key, its project). */
const option = (page: Page, group: string, name: string, details: string) =>
  dialog(page)
    .getByRole('group', { name: group, exact: true })
    .getByRole('option', { name: new RegExp(`^${name}`) })
    .filter({ hasText: details });

/** Presses the down arrow until `target` is the selected result, as a keyboard user does. */
async function arrowTo(page: Page, target: Locator): Promise<void> {
  await target.waitFor();
  const field = searchField(page);
  const targetId = await target.evaluate((element) => element.id);
  for (let step = 0; step < 50; step++) {
    const selected = await field.getAttribute('aria-activedescendant');
    if (selected === targetId) return;
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => field.getAttribute('aria-activedescendant')).not.toBe(selected);
  }
  throw new Error('The arrows never reached the result.');
}

describe('quick search', () => {
  it('opens with / on Home and takes the user to the feature whose name they typed part of', async () => {
    const page = await signedIn();
    await page.keyboard.press('/');
    await dialog(page).waitFor();
    expect(await searchField(page).evaluate((field) => field === document.activeElement)).toBe(true);
    expect(await searchField(page).inputValue()).toBe('');

    await page.keyboard.type('ark mo');
    const darkMode = option(page, 'Features', 'Dark mode', 'dark-mode');
    expect(await darkMode.textContent()).toContain('Sample Project');
    await arrowTo(page, darkMode);
    await page.keyboard.press('Enter');

    // Nothing remembered in this browser: the project's non-production environment.
    await page.waitForURL('**/projects/sp/environments/development/features/dark-mode');
    await page.getByRole('heading', { name: 'Dark mode', level: 1 }).waitFor();
    expect(await dialog(page).count()).toBe(0);
  });

  it('opens with Ctrl-K on a feature page and takes the user to the environment found', async () => {
    const page = await signedIn();
    await page.goto('/projects/sp/environments/development/features/new-checkout');
    await page.getByRole('heading', { name: 'New checkout', level: 1 }).waitFor();

    await page.keyboard.press('Control+k');
    await dialog(page).waitFor();
    await page.keyboard.type('prod');
    const production = option(page, 'Environments', 'Production', 'Sample Project');
    await arrowTo(page, production);
    await page.keyboard.press('Enter');

    await page.waitForURL('**/projects/sp/environments/production/features');
    await page.getByRole('heading', { name: 'Features', level: 1 }).waitFor();
    // It is the current environment now, as when chosen in the switcher.
    await page.getByRole('button', { name: 'Environment: Production (Sample Project)' }).waitFor();
  });

  it('leaves a slash typed in the feature list’s search box there', async () => {
    const page = await signedIn();
    await page.goto('/projects/sp/environments/development/features');
    const box = page.getByRole('searchbox', { name: 'Search features' });
    await box.click();
    await page.keyboard.type('a/b');
    expect(await box.inputValue()).toBe('a/b');
    expect(await dialog(page).count()).toBe(0);
  });

  it('opens from the Search button, and Escape closes it and gives the focus back', async () => {
    const page = await signedIn();
    const button = page.getByRole('button', { name: 'Search', exact: true });
    expect(await button.getAttribute('aria-keyshortcuts')).toBe('/ Control+K');
    // Beside the magnifier, the shortcut.
    expect(await button.textContent()).toBe('/');
    expect(await button.getAttribute('title')).toBe('Search (/ or Ctrl+K)');
    await viewShot(page, 'quick-search-button-1440', 1440);
    await button.click();
    await dialog(page).waitFor();
    await page.keyboard.type('d');
    await option(page, 'Features', 'Dark mode', 'dark-mode').waitFor();
    await viewShot(page, 'quick-search-1440', 1440);

    await page.keyboard.press('Escape');
    await dialog(page).waitFor({ state: 'detached' });
    await expect.poll(() => button.evaluate((element) => element === document.activeElement)).toBe(true);

    // On a phone the button is an icon; before anything is typed, projects and environments show.
    await page.setViewportSize({ width: 390, height: 844 });
    await button.click();
    await option(page, 'Environments', 'Development', 'Sample Project').waitFor();
    await option(page, 'Projects', 'Sample Project', 'sp').waitFor();
    await viewShot(page, 'quick-search-390', 390);
    await page.keyboard.type('nothing-is-called-this');
    await dialog(page).getByText('Nothing found').waitFor();
  });
});
