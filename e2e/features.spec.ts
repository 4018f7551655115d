import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { launchBrowser, openPage, screenshot, signIn, viewShot } from './support/browser';
import { ADMIN_EMAIL, addDemoUser, startServer, type RunningServer } from './support/server';
import { sharedServerURL } from './support/shared-server';
import { adminApi, type Api } from './support/api';

const createFeature = (api: Api, feature: Record<string, string>, project = 'sp') =>
  api('POST', `/api/v1/projects/${project}/features`, feature);

let browser: Browser;
/** The demo organisation with a production editor, a non-production editor and a project of 120 features. */
let second: RunningServer;
let shared: Api;

beforeAll(async () => {
  [browser, second] = await Promise.all([
    launchBrowser(),
    startServer(
      {},
      {
        prepare: async (db) => {
          await addDemoUser(db, 'prod-editor@example.com', 'ROLE_ORGANISATION_PROD_EDITOR');
          await addDemoUser(db, 'editor@example.com', 'ROLE_ORGANISATION_EDITOR');
        },
      },
    ),
  ]);
  shared = await adminApi(sharedServerURL());
  const api = await adminApi(second.url);
  await api('POST', '/api/v1/projects', { name: 'Paging', key: 'pg' });
  for (let batch = 0; batch < 12; batch++) {
    await Promise.all(
      Array.from({ length: 10 }, (_, i) => {
        const n = String(batch * 10 + i + 1).padStart(3, '0');
        return createFeature(api, { name: `Paged ${n}`, key: `paged-${n}` }, 'pg');
      }),
    );
  }
});
afterAll(async () => {
  await Promise.all([browser?.close(), second?.stop()]);
});

/** A fresh profile, signed in, that may use the clipboard; closed when the test ends. */
async function signedIn(base = sharedServerURL(), email = ADMIN_EMAIL): Promise<Page> {
  const { context, page } = await openPage(browser, base);
  onTestFinished(() => context.close());
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await signIn(page, { email });
  await page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();
  return page;
}

const listPath = (environment: string, project = 'sp') =>
  `/projects/${project}/environments/${environment}/features`;
const detailPath = (key: string, environment = 'development', tab = '') =>
  `${listPath(environment)}/${key}${tab ? `/${tab}` : ''}`;

const textbox = (scope: Page | Locator, name: string) => scope.getByRole('textbox', { name, exact: true });
/** A full-page picture taken while scrolled draws the fixed top bar mid-page: scroll to the top first. */
async function shot(page: Page, name: string): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, name);
}
const toast = (page: Page, text: string) => page.getByText(text, { exact: true }).last().waitFor();

async function choose(page: Page, field: Locator, option: string | RegExp, typed?: string): Promise<void> {
  await field.click();
  if (typed) await field.fill(typed);
  await page.getByRole('option', { name: option }).first().click();
}

const homeTable = (page: Page) => page.getByRole('table', { name: 'Features' });
const homeKeys = (page: Page) =>
  homeTable(page)
    .getByRole('button', { name: /^Copy key / })
    .allTextContents();
const listRows = (page: Page, environment: string) =>
  page.getByRole('table', { name: `Features in ${environment}` }).locator('tbody tr');

describe('creating features', () => {
  it('creates one from the Create feature page and one from the feature list, both on Home under Recent', async () => {
    const page = await signedIn();
    await page.goto('/features/create');
    const form = page.getByRole('form', { name: 'Create feature' });
    await choose(page, form.getByRole('combobox', { name: 'Project' }), /^Sample Project/);
    await textbox(form, 'Name').fill('Summer Sale Banner');
    await expect.poll(() => textbox(form, 'Key').inputValue()).toBe('summer-sale-banner');
    await form.getByRole('button', { name: 'Create Feature' }).click();
    await toast(page, 'Summer Sale Banner saved.');
    await page.waitForURL(`**${detailPath('summer-sale-banner')}`);
    await page.getByRole('heading', { name: 'Summer Sale Banner', level: 1 }).waitFor();

    await page.goto(listPath('development'));
    await page.getByRole('button', { name: 'New Feature' }).click();
    const dialog = page.getByRole('dialog', { name: 'New feature' });
    await textbox(dialog, 'Name').fill('Winter Sale Banner');
    expect(await textbox(dialog, 'Key').inputValue()).toBe('winter-sale-banner');
    await dialog.getByLabel('Description').fill('Shown in December.');
    await dialog.getByRole('button', { name: 'Create Feature' }).click();
    await toast(page, 'Winter Sale Banner saved.');
    await page.waitForURL(`**${detailPath('winter-sale-banner')}`);
    await page.getByRole('heading', { name: 'Winter Sale Banner', level: 1 }).waitFor();
    await page.getByText('Shown in December.').waitFor();

    await page.goto('/');
    expect(await page.getByRole('radio', { name: 'Recent' }).isChecked()).toBe(true);
    for (const name of ['Summer Sale Banner', 'Winter Sale Banner']) {
      await homeTable(page).getByRole('link', { name }).waitFor();
    }
  });
});

describe('home features', () => {
  it('filters (description too), shows the newest change first, sorts by key both ways, bookmarks and copies a key', async () => {
    const fruits = [
      { name: 'Pear picker', key: 'fruit-c', description: 'Picks from the E2E orchard' },
      { name: 'Apple press', key: 'fruit-a', description: 'Presses e2e orchard apples' },
      { name: 'Quince jam', key: 'fruit-b', description: 'Cooks e2e orchard quinces' },
    ];
    for (const fruit of fruits) await createFeature(shared, fruit);
    const page = await signedIn();

    await page.getByLabel('Filter Features...').fill('e2E OrcHard');
    // Newest change first: created pear (c), apple (a), then quince (b).
    await expect.poll(() => homeKeys(page)).toEqual(['fruit-b', 'fruit-a', 'fruit-c']);
    const keyHeader = homeTable(page).getByRole('columnheader', { name: 'Key' });
    await keyHeader.getByRole('button').click();
    await expect.poll(() => homeKeys(page)).toEqual(['fruit-a', 'fruit-b', 'fruit-c']);
    expect(await keyHeader.getAttribute('aria-sort')).toBe('ascending');
    await keyHeader.getByRole('button').click();
    await expect.poll(() => homeKeys(page)).toEqual(['fruit-c', 'fruit-b', 'fruit-a']);
    expect(await keyHeader.getAttribute('aria-sort')).toBe('descending');
    await page.getByLabel('Filter Features...').fill('no such feature');
    await homeTable(page).getByText('No results').waitFor();
    await page.getByLabel('Filter Features...').fill('e2e orchard');

    // Copy a key.
    await homeTable(page).getByRole('button', { name: 'Copy key fruit-a' }).click();
    await page.getByRole('tooltip', { name: 'Copied to clipboard' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('fruit-a');
    await screenshot(page, 'features-home');

    // Bookmark one and find it under Bookmarked.
    await homeTable(page).getByRole('button', { name: 'Bookmark Quince jam' }).click();
    const bookmarked = homeTable(page).getByRole('button', { name: 'Remove bookmark from Quince jam' });
    expect(await bookmarked.getAttribute('aria-pressed')).toBe('true');
    await page.getByLabel('Filter Features...').fill('');
    await page.getByText('Bookmarked', { exact: true }).click();
    // The list is in the address, beside the sort chosen above.
    await page.waitForURL((url) => url.searchParams.get('filter') === 'bookmarked');
    await expect.poll(() => homeKeys(page)).toEqual(['fruit-b']);
  });
});

describe('switching a feature on', () => {
  it('saves at once in development, after a warning in production, and keeps the state on reload', async () => {
    await createFeature(shared, { name: 'Loyalty points', key: 'loyalty-points' });
    const page = await signedIn();
    const toggle = (environment: string) =>
      page.getByRole('switch', { name: `Loyalty points on in ${environment}` });

    await page.goto(`${listPath('development')}?q=loyalty`);
    await toggle('Development').click({ force: true }); // on the track, which covers the input
    await toast(page, 'Feature saved.');
    expect(await toggle('Development').isChecked()).toBe(true);
    await screenshot(page, 'features-list');

    await page.goto(`${listPath('production')}?q=loyalty`);
    await toggle('Production').click({ force: true });
    const warning = page.getByRole('dialog', { name: 'Production environment' });
    await warning
      .getByText(
        'Warning, this is a production environment. Are you sure you wish to update Loyalty points in Production?',
      )
      .waitFor();
    await warning.getByRole('button', { name: 'Turn on' }).click();
    await toast(page, 'Feature saved.');
    await page.reload();
    await toggle('Production').waitFor();
    expect(await toggle('Production').isChecked()).toBe(true);
    await page.goto(`${listPath('development')}?q=loyalty`);
    await toggle('Development').waitFor();
    expect(await toggle('Development').isChecked()).toBe(true);
  });
});

describe('feature settings', () => {
  it('adds a variant through the confirmation and keeps the saved variants', async () => {
    await createFeature(shared, { name: 'Gift wrap', key: 'gift-wrap', description: 'Wraps presents.' });
    const page = await signedIn();
    await page.goto(detailPath('gift-wrap'));
    await page.getByRole('heading', { name: 'Gift wrap', level: 1 }).waitFor();
    await screenshot(page, 'feature-detail');
    await page.getByRole('tab', { name: 'Settings' }).click();
    await page.waitForURL(`**${detailPath('gift-wrap', 'development', 'settings')}`);
    await page.getByText('Settings apply across all environments').waitFor();

    const variant = (n: number) => page.getByRole('group', { name: `Variant ${n}` });
    const expectLocked = async (n: number) => {
      expect(await textbox(variant(n), 'Key').isEditable()).toBe(false);
      expect(
        await variant(n)
          .getByRole('button', { name: /Remove/ })
          .count(),
      ).toBe(0);
    };
    await expectLocked(1);
    await expectLocked(2);
    await page.getByRole('button', { name: 'Add variant' }).click();
    await textbox(variant(3), 'Key').fill('gold');
    await textbox(variant(3), 'Name').fill('Gold');
    await shot(page, 'feature-settings');
    await page
      .getByRole('form', { name: 'Feature Settings' })
      .getByRole('button', { name: 'Update feature' })
      .click();
    const dialog = page.getByRole('dialog', { name: 'Update feature settings' });
    await dialog.getByText('Are you sure you wish to Update Gift wrap?').waitFor();
    await dialog.getByRole('button', { name: 'Update feature' }).click();
    await toast(page, 'Gift wrap settings saved.');

    await page.reload();
    expect(await textbox(variant(3), 'Key').inputValue()).toBe('gold');
    await expectLocked(3);
  });
});

describe('variant values in feature settings', () => {
  it('warns when the values differ in type, and takes the first click on Update feature after a JSON value is fixed', async () => {
    await createFeature(shared, { name: 'Colour theme', key: 'colour-theme' });
    const page = await signedIn();
    await page.goto(detailPath('colour-theme', 'development', 'settings'));
    await page.getByText('Settings apply across all environments').waitFor();
    const form = page.getByRole('form', { name: 'Feature Settings' });
    const value = (n: number) =>
      form.getByRole('group', { name: `Variant ${n}` }).getByRole('textbox', { name: /^Value/ });

    // An object for Off only: On would answer true, a boolean.
    await value(2).fill('{"colour": "grey"}');
    const warning = form.getByRole('status', { name: 'Variant values of different types' });
    await warning.getByText('On: true/false, having no value (on or off)').waitFor();
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      for (const width of [1440, 390]) {
        await page.setViewportSize({ width, height: width < 600 ? 844 : 900 });
        await warning.evaluate((alert) => alert.scrollIntoView({ block: 'center' }));
        await viewShot(page, `settings-mixed-values-${colorScheme}-${width}`, width);
      }
    }
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 1440, height: 900 });

    // A value that is not JSON yet, left: the field says so.
    await value(1).fill('{"colour": "green"');
    await value(1).press('Tab');
    await form.getByText('Must be valid JSON.').waitFor();
    // Fixed, then straight to Update feature: leaving the field moves nothing, so one click opens
    // the confirmation.
    await value(1).click();
    await value(1).press('Control+End');
    await value(1).pressSequentially('}');
    await warning.waitFor({ state: 'detached' });
    await form.getByRole('button', { name: 'Update feature' }).click();
    const dialog = page.getByRole('dialog', { name: 'Update feature settings' });
    await dialog.waitFor({ timeout: 10_000 });
    await dialog.getByRole('button', { name: 'Update feature' }).click();
    await toast(page, 'Colour theme settings saved.');
    expect(await value(1).inputValue()).toBe('{\n  "colour": "green"\n}');
  });
});

describe('linking an issue', () => {
  it('links ABC-123 to a chosen feature and shows it in the header', async () => {
    await createFeature(shared, { name: 'Express shipping', key: 'express-shipping' });
    const page = await signedIn();
    await page.goto('/features/link?issueKey=ABC-123');
    const form = page.getByRole('form', { name: 'Link feature' });
    await form.getByText('ABC-123').waitFor();
    await choose(page, form.getByRole('combobox', { name: 'Project' }), /^Sample Project/);
    await choose(page, form.getByRole('combobox', { name: 'Feature' }), /^Express shipping/, 'express');
    await form.getByRole('button', { name: 'Link Feature' }).click();
    await page.waitForURL(`**${detailPath('express-shipping')}`);
    await page.getByRole('list', { name: 'Issues' }).getByText('ABC-123', { exact: true }).waitFor();
  });
});

describe('paging the feature list', () => {
  it('shows 50 per page, page 3 holds the last 20, and 100 per page', async () => {
    const page = await signedIn(second.url);
    await page.goto(listPath('development', 'pg'));
    await page.getByText('Showing 1–50 of 120').waitFor();
    expect(await listRows(page, 'Development').count()).toBe(50);

    await page.getByRole('button', { name: 'Page 3' }).click();
    await page.waitForURL('**/features?page=3');
    await page.getByText('Showing 101–120 of 120').waitFor();
    await page.getByRole('link', { name: 'Paged 101' }).waitFor();
    expect(await listRows(page, 'Development').count()).toBe(20);
    await shot(page, 'features-list-paged');

    await page.getByLabel('Per page').selectOption('100');
    await page.waitForURL('**/features?size=100');
    await page.getByText('Showing 1–100 of 120').waitFor();
    expect(await listRows(page, 'Development').count()).toBe(100);
  });
});

describe('deleting a feature', () => {
  it('is done by a production editor', async () => {
    await createFeature(await adminApi(second.url), { name: 'Old banner', key: 'old-banner' });
    const page = await signedIn(second.url, 'prod-editor@example.com');
    await page.goto(detailPath('old-banner', 'development', 'settings'));
    await page.getByRole('button', { name: 'Delete feature' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete feature' });
    // The key as well as the name: two features may share a name.
    await dialog.getByText(/^Are you sure you wish to delete Old banner \(old-banner\)\?/).waitFor();
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      for (const width of [1440, 390]) {
        await viewShot(page, `delete-feature-dialog-${colorScheme}-${width}`, width);
      }
    }
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 1280, height: 800 });
    await dialog.getByRole('button', { name: 'Delete feature' }).click();
    await toast(page, 'Old banner has been deleted');
    await page.waitForURL(`**${listPath('development')}`);
    await page.getByRole('table', { name: 'Features in Development' }).getByRole('link').first().waitFor();
    await page.goto(detailPath('old-banner'));
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
  });

  it('is refused to a non-production editor', async () => {
    const page = await signedIn(second.url, 'editor@example.com');
    await page.goto(detailPath('dark-mode', 'development', 'settings'));
    const remove = page.getByRole('button', { name: 'Delete feature' });
    expect(await remove.isDisabled()).toBe(true);
    await remove.hover({ force: true });
    await page.getByRole('tooltip', { name: 'Only a production editor can delete a feature.' }).waitFor();
  });
});
