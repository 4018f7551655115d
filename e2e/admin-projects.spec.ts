import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, openPage, screenshot, signIn } from './support/browser';
import { addDemoUser, startServer, subscribeDemo, type RunningServer } from './support/server';
import { sharedServerURL } from './support/shared-server';

const SERVER_KEY = /^sdk-srv-env-[0-9a-f]{32}$/;
const JS_KEY = /^sdk-js-env-[0-9a-f]{32}$/;

let browser: Browser;
/** The demo organisation on the Free plan's limits, with a read-only teammate. */
let limited: RunningServer;

beforeAll(async () => {
  [browser, limited] = await Promise.all([
    launchBrowser(),
    startServer(
      {},
      {
        prepare: async (db) => {
          await subscribeDemo(db, { maxProjects: 1, maxEnvironments: 2 });
          await addDemoUser(db, 'viewer@example.com', 'ROLE_ORGANISATION_READONLY_USER');
        },
      },
    ),
  ]);
});
afterAll(async () => {
  await Promise.all([browser?.close(), limited?.stop()]);
});

async function adminPage(baseURL: string): Promise<{ context: BrowserContext; page: Page }> {
  const opened = await openPage(browser, baseURL);
  await opened.context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await signIn(opened.page);
  await opened.page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();
  return opened;
}

function environmentRow(page: Page, name: string) {
  return page.getByRole('row').filter({ has: page.getByRole('button', { name: `Update ${name}` }) });
}

describe('project admin', () => {
  it('creates a project, adds, copies, renames and deletes an environment, and keeps the last one', async () => {
    const { context, page } = await adminPage(sharedServerURL());
    await page.goto('/admin');
    await page.waitForURL('**/admin/projects');
    await page.getByRole('tab', { name: 'Projects' }).waitFor();
    // The tab opens on the first project by name, which is another one when a spec file that ran
    // before on this shared server added one ("A/B tests"): the demo project is picked by its address.
    await page.getByRole('heading', { level: 2 }).first().waitFor();
    await page.goto('/admin/projects/sp');
    await page.getByRole('heading', { name: 'Sample Project', level: 2 }).waitFor();
    await screenshot(page, 'admin-projects');

    // New project: its key follows the name.
    await page.getByRole('button', { name: 'New Project' }).click();
    const projectForm = page.getByRole('dialog', { name: 'Create Project' });
    await projectForm.getByLabel('Name').fill('Mobile App');
    expect(await projectForm.getByLabel('Key').inputValue()).toBe('ma');
    await screenshot(page, 'admin-project-modal');
    await projectForm.getByRole('button', { name: 'Create Project' }).click();
    await page.getByText('Project saved.').waitFor();
    await page.waitForURL('**/admin/projects/ma');
    await page.getByRole('heading', { name: 'Mobile App', level: 2 }).waitFor();
    await page.getByRole('dialog', { name: 'Create Project' }).waitFor({ state: 'detached' });
    await environmentRow(page, 'Production').waitFor();
    expect(await environmentRow(page, 'Development').getByText('(no url set)').count()).toBe(1);

    // A local environment.
    await page.getByRole('button', { name: 'New Environment' }).click();
    const environmentForm = page.getByRole('dialog', { name: 'Create Environment' });
    await environmentForm.getByLabel('Name').fill('Staging Area');
    expect(await environmentForm.getByLabel('Key').inputValue()).toBe('staging-area');
    await environmentForm.getByLabel('URL').fill('https://staging.example.com');
    await environmentForm.getByLabel('Local environment').check();
    await environmentForm.getByText('Only Production Users can modify a production environment.').waitFor();
    await screenshot(page, 'admin-environment-modal');
    await environmentForm.getByRole('button', { name: 'Create Environment' }).click();
    await page.getByText('Environment saved.').waitFor();
    const staging = environmentRow(page, 'Staging Area');
    await staging.getByRole('img', { name: 'Local environment' }).waitFor();
    await staging.getByText('https://staging.example.com').waitFor();

    // Its pages carry the LOCAL ENVIRONMENT banner, whose Learn more explains it.
    await page.goto('/projects/ma/environments/staging-area/features');
    await page.getByText('LOCAL ENVIRONMENT', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Learn more' }).click();
    await page.getByRole('dialog', { name: 'Local environments' }).waitFor();
    await screenshot(page, 'environment-local-banner');
    await page.keyboard.press('Escape');
    await page.goto('/admin/projects/ma');

    // Its keys, copied to the clipboard.
    await staging.getByRole('button', { name: 'Api Keys of Staging Area' }).click();
    const keys = page.getByRole('dialog', { name: /Api keys/ });
    const serverKey = await keys.getByRole('textbox', { name: 'Server Key' }).inputValue();
    const jsKey = await keys.getByRole('textbox', { name: 'JS Client Key' }).inputValue();
    expect(serverKey).toMatch(SERVER_KEY);
    expect(jsKey).toMatch(JS_KEY);
    await keys.getByRole('button', { name: 'Copy Server Key' }).click();
    await keys.getByRole('button', { name: 'Copied to clipboard' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(serverKey);
    await screenshot(page, 'admin-api-keys');
    await keys.getByRole('button', { name: 'Close' }).click();

    // Rename it.
    await staging.getByRole('button', { name: 'Update Staging Area' }).click();
    const updateForm = page.getByRole('dialog', { name: 'Update Environment' });
    expect(await updateForm.getByLabel('Key').isEditable()).toBe(false);
    await updateForm.getByLabel('Name').fill('QA');
    await updateForm.getByRole('button', { name: 'Update Environment' }).click();
    await page.getByText('Environment saved.').first().waitFor();
    await environmentRow(page, 'QA').waitFor();

    // Delete it, then everything but the last environment.
    for (const name of ['QA', 'Development']) {
      await environmentRow(page, name)
        .getByRole('button', { name: `Delete ${name}` })
        .click();
      await page
        .getByRole('dialog', { name: 'Delete Environment' })
        .getByRole('button', { name: /Delete/ })
        .click();
      await environmentRow(page, name).waitFor({ state: 'detached' });
    }
    await page.getByText('Environment deleted.').first().waitFor();
    // The last one cannot go: its Delete is disabled (admin-deletes.spec.ts covers its reason).
    expect(
      await environmentRow(page, 'Production')
        .getByRole('button', { name: 'Delete Production' })
        .isDisabled(),
    ).toBe(true);

    // The new project is in the top navigation's environment menu; delete it, which says it is irreversible.
    await page.getByRole('button', { name: 'Delete Project' }).click();
    const confirmDelete = page.getByRole('dialog', { name: 'Delete Project' });
    await confirmDelete.getByText('cannot be undone').waitFor();
    await confirmDelete.getByRole('textbox', { name: 'Type the project key ma to confirm' }).fill('ma');
    await confirmDelete.getByRole('button', { name: 'Delete Project' }).click();
    await page.waitForURL('**/admin/projects');
    await page.getByRole('heading', { name: 'Sample Project', level: 2 }).waitFor();

    // Every change is in the audit log, newest first.
    await page.getByRole('tab', { name: 'Audit' }).click();
    await page.waitForURL('**/admin/audit');
    const log = page.getByRole('list', { name: 'Audit log' });
    await log.getByText('Project Mobile App deleted').waitFor();
    for (const title of [
      'Environment QA deleted from Mobile App',
      'Environment QA updated in Mobile App',
      'Project Mobile App created',
    ]) {
      await log.getByText(title).waitFor();
    }
    await screenshot(page, 'admin-audit');
    await context.close();
  });

  it('switches environment from the top navigation and shows the production banner', async () => {
    const { context, page } = await adminPage(sharedServerURL());
    await page.getByRole('button', { name: /^Environment: / }).click();
    await page
      .getByRole('group', { name: 'Sample Project' })
      .getByRole('menuitem', { name: /Production/ })
      .click();
    await page.waitForURL('**/projects/sp/environments/production/features');
    await page.getByText('PRODUCTION ENVIRONMENT', { exact: true }).waitFor();
    expect(await page.getByText('LOCAL ENVIRONMENT', { exact: true }).count()).toBe(0);
    await screenshot(page, 'environment-production-banner');
    await context.close();
  });
});

describe('project admin for other users and plans', () => {
  it('shows a read-only user "Only organisation admins may manage projects."', async () => {
    const { context, page } = await openPage(browser, limited.url);
    await signIn(page, { email: 'viewer@example.com', at: '/admin/projects' });
    await page.getByText('Only organisation admins may manage projects.').waitFor();
    expect(await page.getByRole('button', { name: 'New Project' }).count()).toBe(0);
    await screenshot(page, 'admin-projects-read-only');
    await context.close();
  });

  it('shows a read-only user the public JS key but the server key only masked, with no copy', async () => {
    const { context, page } = await openPage(browser, limited.url);
    await signIn(page, { email: 'viewer@example.com', at: '/projects/sp/environments/production/features' });
    await page.getByRole('button', { name: 'Api Keys' }).click();
    const keys = page.getByRole('dialog', { name: /Api keys/ });
    expect(await keys.getByRole('textbox', { name: 'JS Client Key' }).inputValue()).toMatch(JS_KEY);
    const serverKey = await keys.getByRole('textbox', { name: 'Server Key' }).inputValue();
    expect(serverKey).not.toMatch(SERVER_KEY);
    expect(serverKey).toContain('*');
    expect(await keys.getByRole('button', { name: 'Copy Server Key' }).isDisabled()).toBe(true);
    await keys.getByText(/only those who may change the flags of this environment/).waitFor();
    await screenshot(page, 'api-keys-masked-read-only');
    await context.close();
  });

  it('disables New Project and New Environment when the plan limit is reached', async () => {
    const { context, page } = await adminPage(limited.url);
    await page.goto('/admin/projects');
    await page.getByRole('heading', { name: 'Sample Project', level: 2 }).waitFor();
    expect(await page.getByRole('button', { name: 'New Project' }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'New Environment' }).isDisabled()).toBe(true);
    await page.getByText('Only 1 project(s) allowed.').waitFor();
    await screenshot(page, 'admin-projects-limit');
    await context.close();
  });
});
