import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { launchBrowser, openPage, signIn, viewShot } from './support/browser';
import { ADMIN_EMAIL, ADMIN_PASSWORD, addDemoUser, startServer, type RunningServer } from './support/server';
import { DESKTOP } from './support/api';

/*
 * Role Management (docs/product.md §2, §6): an organisation admin creates a custom role limited to the
 * non-production environments of one project and gives it to a read-only member, who may then switch
 * a feature in Development, while the Production switch stays disabled with its reason. A server of
 * its own: the role and the switch change what other specs would see.
 */

const VIEWER = 'viewer@example.com';
const ROLE = 'Non-production switchers';

let browser: Browser;
let server: RunningServer;

beforeAll(async () => {
  [browser, server] = await Promise.all([
    launchBrowser(),
    startServer({}, { prepare: async (db) => addDemoUser(db, VIEWER, 'ROLE_ORGANISATION_READONLY_USER') }),
  ]);
});
afterAll(async () => {
  await Promise.all([browser?.close(), server?.stop()]);
});

async function signedIn(email = ADMIN_EMAIL): Promise<Page> {
  const { context, page } = await openPage(browser, server.url);
  onTestFinished(() => context.close());
  await page.setViewportSize(DESKTOP);
  await signIn(page, { email, password: ADMIN_PASSWORD });
  await page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();
  return page;
}

const toast = (page: Page, text: string) => page.getByText(text, { exact: true }).last().waitFor();

async function closeToasts(page: Page): Promise<void> {
  const buttons = page.locator('.mantine-Notification-closeButton');
  for (let left = await buttons.count(); left > 0; left--) await buttons.first().click();
  await page.locator('.mantine-Notification-root').first().waitFor({ state: 'detached' });
}

/** Picks `option` in a select or multi-select, as a user clicks it. */
async function choose(page: Page, field: Locator, option: string): Promise<void> {
  await field.click();
  await page.getByRole('option', { name: option, exact: true }).click();
  await page.keyboard.press('Escape');
}

/** The tooltip a disabled switch shows when hovered: its wrapper takes the pointer. */
async function tooltipOf(page: Page, toggle: Locator): Promise<string> {
  await toggle.locator('xpath=ancestor::span[1]').hover();
  const tooltip = page.getByRole('tooltip');
  await tooltip.waitFor();
  return (await tooltip.textContent()) ?? '';
}

const switchOf = (page: Page, feature: string, environment: string) =>
  page.getByRole('switch', { name: `${feature} on in ${environment}` });

describe('custom roles', () => {
  it('a role limited to non-production lets a read-only member switch Development, not Production', async () => {
    const admin = await signedIn();
    await admin.getByRole('button', { name: /Account menu/ }).click();
    await admin.getByRole('menuitem', { name: 'Admin' }).click();
    await admin.getByRole('tab', { name: 'Roles' }).click();
    await admin.getByRole('heading', { name: 'Role Management' }).waitFor();
    expect(new URL(admin.url()).pathname).toBe('/admin/roles');
    const builtIn = admin.getByRole('table', { name: 'Built-in roles' });
    await builtIn.getByText('Read-only user').waitFor();
    await admin.getByText('No custom roles yet.').waitFor();

    // New Role: one grant, switching features in Sample Project outside production.
    await admin.getByRole('button', { name: 'New Role' }).first().click();
    const dialog = admin.getByRole('dialog', { name: 'New Role' });
    await dialog.getByRole('textbox', { name: 'Name' }).fill(ROLE);
    await dialog
      .getByRole('textbox', { name: 'Description' })
      .fill('Testers who switch features in Development without touching Production.');
    const grant = dialog.getByRole('group', { name: 'Grant 1' });
    expect(await grant.getByRole('checkbox', { name: 'Update' }).isChecked()).toBe(true);
    expect(await grant.getByRole('combobox', { name: 'Environments' }).inputValue()).toBe(
      'Non-production only',
    );
    await grant.getByText('Chosen projects').click();
    await choose(admin, grant.getByRole('combobox', { name: 'Projects of grant 1' }), 'Sample Project');
    await viewShot(admin, 'roles-new-role', 1440);
    await dialog.getByRole('button', { name: 'Create Role' }).click();
    await toast(admin, `${ROLE} saved.`);
    await dialog.waitFor({ state: 'detached' });

    const table = admin.getByRole('table', { name: 'Custom roles' });
    const row = table.getByRole('row').filter({ hasText: ROLE });
    await row.getByText('Update feature controls in Sample Project, non-production environments').waitFor();

    // Given to the read-only member.
    await row.getByRole('button', { name: `Members of ${ROLE}` }).click();
    const members = admin.getByRole('dialog', { name: `Members of ${ROLE}` });
    await choose(admin, members.getByRole('combobox', { name: 'Members' }), `Demo Viewer (${VIEWER})`);
    await members.getByRole('button', { name: 'Save Members' }).click();
    await toast(admin, `Members of ${ROLE} saved.`);
    await row.getByText('1 member').waitFor();
    await closeToasts(admin);
    await viewShot(admin, 'roles-admin', 1440);
    await viewShot(admin, 'roles-admin-phone', 390);
    const card = admin.getByRole('list', { name: 'Custom roles' }).getByRole('listitem', { name: ROLE });
    await card.getByText('Demo Viewer').waitFor();
    await admin
      .getByRole('heading', { name: 'Custom roles' })
      .evaluate((heading) => heading.scrollIntoView());
    await viewShot(admin, 'roles-custom-phone', 390);
    await admin.setViewportSize(DESKTOP);
    await row.getByRole('button', { name: `Edit ${ROLE}` }).click();
    await admin.getByRole('dialog', { name: 'Update Role' }).waitFor();
    await viewShot(admin, 'roles-update-role-phone', 390);
    await admin.keyboard.press('Escape');

    // The member switches a feature on in Development…
    const viewer = await signedIn(VIEWER);
    await viewer.goto('/projects/sp/environments/development/features');
    const development = switchOf(viewer, 'New checkout', 'Development');
    await development.waitFor();
    expect(await development.isDisabled()).toBe(false);
    await development.click({ force: true }); // on the track, which covers the input
    await toast(viewer, 'Feature saved.');
    expect(await development.isChecked()).toBe(true);

    // …but not in Production, and is told why.
    await viewer.goto('/projects/sp/environments/production/features');
    const production = switchOf(viewer, 'New checkout', 'Production');
    await production.waitFor();
    expect(await production.isDisabled()).toBe(true);
    expect(await tooltipOf(viewer, production)).toBe(
      'Only a production editor can change a feature in a production environment.',
    );
    await viewShot(viewer, 'roles-viewer-production', 1440);
  });
});
