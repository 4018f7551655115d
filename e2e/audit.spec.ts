import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { signIn, useFreshPage, viewShot } from './support/browser';
import { adminApi } from './support/api';
import { sharedServerURL } from './support/shared-server';
import { ADMIN_EMAIL } from './support/server';

const t = useFreshPage();

/** 55 features in a project of this spec's own, one of them renamed: more than a page of entries. */
const FEATURES = 55;

beforeAll(async () => {
  const api = await adminApi(sharedServerURL());
  await api('POST', '/api/v1/projects', { name: 'Audit trail', key: 'adt' });
  for (let i = 0; i < FEATURES; i++) {
    await api('POST', '/api/v1/projects/adt/features', {
      name: `Audited ${String(i).padStart(2, '0')}`,
      key: `audited-${i}`,
    });
  }
  const feature = await api<Record<string, unknown>>('GET', '/api/v1/projects/adt/features/audited-7');
  await api('PUT', '/api/v1/projects/adt/features', { ...feature, name: 'Audited seven' });
});

const entries = (page: Page) => page.getByRole('list', { name: 'Audit log' }).locator(':scope > li');
/** Each entry's title, newest first. */
const titles = async (page: Page) =>
  Promise.all((await entries(page).all()).map((entry) => entry.locator('p').first().innerText()));

/** A filter's field (its label also names the list of options it opens). */
const field = (page: Page, label: string) =>
  page.locator('input').and(page.getByLabel(label, { exact: true }));

async function choose(page: Page, label: string, option: string): Promise<void> {
  await field(page, label).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

describe('Admin › Audit', () => {
  it(
    'pages 50 at a time, and narrows to a project, a feature and an action, kept on reload',
    { timeout: 120_000 },
    async () => {
      const { page } = t;
      await signIn(page, { at: '/admin/audit' });
      await entries(page).first().waitFor();

      await choose(page, 'Project', 'Audit trail');
      await expect.poll(() => page.url()).toContain('project=adt');
      // The project's 57 entries (project, 55 features, one change): 50, then the rest on Load More.
      // Newest first, once the filter applies (unfiltered, the admin's sign-in comes first).
      await expect.poll(async () => (await titles(page))[0]).toContain('Audited seven');
      await expect.poll(() => entries(page).count()).toBe(50);
      await page.getByRole('button', { name: 'Load More' }).click();
      await expect.poll(() => entries(page).count()).toBe(FEATURES + 2);
      expect(await page.getByRole('button', { name: 'Load More' }).count()).toBe(0);

      await choose(page, 'Action', 'Changed');
      await expect.poll(() => entries(page).count()).toBe(1);
      expect((await titles(page))[0]).toContain('Audited seven');

      await page.reload();
      await expect.poll(() => entries(page).count()).toBe(1);
      await expect.poll(() => field(page, 'Project').inputValue()).toBe('Audit trail');
      await expect.poll(() => field(page, 'Action').inputValue()).toBe('Changed');

      await choose(page, 'Action', 'Deleted');
      await page.getByText('No entry matches these filters.').waitFor();

      await page.getByRole('button', { name: 'Clear filters' }).click();
      await expect.poll(() => page.url()).not.toContain('project=');
      await expect.poll(() => entries(page).count()).toBe(50);

      // Sign-ins are recorded: "Signed in" finds the admin's.
      await choose(page, 'Action', 'Signed in');
      await expect.poll(async () => (await titles(page)).includes(`${ADMIN_EMAIL} signed in`)).toBe(true);
      await page.getByRole('button', { name: 'Clear filters' }).click();
      await expect.poll(() => entries(page).count()).toBe(50);

      await choose(page, 'Project', 'Audit trail');
      await field(page, 'Feature').fill('Audited 1');
      await page.getByRole('option', { name: 'Audited 12', exact: true }).click();
      await expect.poll(() => entries(page).count()).toBe(1);
      expect((await titles(page))[0]).toContain('Audited 12');
      await viewShot(page, 'audit-filters-1440', 1440);
      await viewShot(page, 'audit-filters-390', 390);
    },
  );
});
