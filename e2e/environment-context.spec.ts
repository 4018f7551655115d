import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, openPage, screenshot, signIn } from './support/browser';
import { startServer, type RunningServer } from './support/server';

/*
 * The current environment (docs/product.md §2 "Top navigation") is the user's: it stays what they last opened
 * across Home, reloads and signing in again, and where none is known a non-production one is chosen.
 * Its own server, as the projects these tests create would change what other specs see first.
 */

let browser: Browser;
let server: RunningServer;

beforeAll(async () => {
  [browser, server] = await Promise.all([launchBrowser(), startServer()]);
});
afterAll(async () => {
  await Promise.all([browser?.close(), server?.stop()]);
});

const mainNav = (page: Page) => page.getByRole('navigation', { name: 'Main' });
/** The top navigation's switcher, "Environment: {environment} ({project})" (a feature page's breadcrumb has one without the project). */
const environmentButton = (page: Page) => page.getByRole('button', { name: /^Environment: .+ \(.+\)$/ });

async function environmentShown(page: Page): Promise<string | null> {
  return environmentButton(page).first().getAttribute('aria-label');
}

async function goHome(page: Page): Promise<void> {
  await mainNav(page).getByRole('link', { name: 'Home' }).click();
  await page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();
}

/** Creates a project from Admin → Projects, as an organisation admin does. */
async function createProject(page: Page, name: string, key: string): Promise<void> {
  await page.goto('/admin/projects');
  await page.getByRole('button', { name: 'New Project' }).click();
  const form = page.getByRole('dialog', { name: 'Create Project' });
  await form.getByLabel('Name').fill(name);
  expect(await form.getByLabel('Key').inputValue()).toBe(key);
  await form.getByRole('button', { name: 'Create Project' }).click();
  await page.waitForURL(`**/admin/projects/${key}`);
  await page.getByRole('heading', { name, level: 2 }).waitFor();
}

/** The names of the environments the dropdown lists under `project`, top to bottom. */
async function listedEnvironments(page: Page, project: string): Promise<string[]> {
  const group = page.getByRole('group', { name: project });
  await group.waitFor();
  // Each item reads its name, then its key.
  const texts = await group.getByRole('menuitem').allTextContents();
  return texts.map((text) => /^(Development|Production)/.exec(text.trim())?.[1] ?? text);
}

describe('the current environment', () => {
  it('stays the one chosen across Home, Features, a reload and signing out and in', async () => {
    const { context, page } = await openPage(browser, server.url);
    await signIn(page);
    await page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();
    // After "Sample Project" in the alphabetical order of projects.
    await createProject(page, 'Web Shop', 'ws');
    // The admin list starts with the non-production environment too.
    const environmentsTable = page.getByRole('region', { name: 'Environments' }).getByRole('table');
    const updateButtons = environmentsTable.getByRole('button', { name: /^Update / });
    await updateButtons.first().waitFor();
    expect(
      await updateButtons.evaluateAll((buttons) => buttons.map((b) => b.getAttribute('aria-label'))),
    ).toEqual(['Update Development', 'Update Production']);

    await environmentButton(page).click();
    expect(await listedEnvironments(page, 'Web Shop')).toEqual(['Development', 'Production']);
    expect(await listedEnvironments(page, 'Sample Project')).toEqual(['Development', 'Production']);
    await page
      .getByRole('group', { name: 'Web Shop' })
      .getByRole('menuitem', { name: /Development/ })
      .click();
    await page.waitForURL('**/projects/ws/environments/development/features');

    await goHome(page);
    await expect.poll(() => environmentShown(page)).toBe('Environment: Development (Web Shop)');
    await mainNav(page).getByRole('link', { name: 'Features' }).click();
    await page.waitForURL('**/projects/ws/environments/development/features');
    await page.getByRole('heading', { name: 'Features', level: 1 }).waitFor();

    await goHome(page);
    await page.reload();
    await page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();
    await expect.poll(() => environmentShown(page)).toBe('Environment: Development (Web Shop)');

    await page.getByRole('button', { name: /Account menu/ }).click();
    await page.getByRole('menuitem', { name: 'Log Out' }).click();
    await page.waitForURL('**/login');
    await signIn(page);
    await page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();
    await expect.poll(() => environmentShown(page)).toBe('Environment: Development (Web Shop)');
    await mainNav(page).getByRole('link', { name: 'Features' }).click();
    await page.waitForURL('**/projects/ws/environments/development/features');

    await page.setViewportSize({ width: 1440, height: 900 });
    await goHome(page);
    await environmentButton(page).click();
    await page.getByRole('group', { name: 'Web Shop' }).waitFor();
    await screenshot(page, 'environment-context-home-desktop');
    await page.keyboard.press('Escape');

    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('button', { name: 'Open navigation' }).click();
    const drawer = page.getByRole('dialog');
    expect(await environmentButton(page).last().getAttribute('aria-label')).toBe(
      'Environment: Development (Web Shop)',
    );
    await drawer.getByRole('button', { name: /^Environment: / }).click();
    await page.getByRole('group', { name: 'Web Shop' }).waitFor();
    await screenshot(page, 'environment-context-home-phone');
    await context.close();
  });

  it('is a non-production one in a project the user has not worked in', async () => {
    const { context, page } = await openPage(browser, server.url);
    await signIn(page);
    await page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();
    // Before every other project alphabetically, so that it is the first one offered.
    await createProject(page, 'Alpha Lab', 'al');
    await goHome(page);
    await expect.poll(() => environmentShown(page)).toBe('Environment: Development (Alpha Lab)');

    // A feature created there opens in its non-production environment, as does its project address.
    await page.goto('/features/create?project=al');
    await page.getByRole('heading', { name: 'Create feature', level: 1 }).waitFor();
    await page.getByLabel('Name').fill('Night mode');
    await page.getByRole('button', { name: 'Create Feature' }).click();
    await page.waitForURL('**/projects/al/environments/development/features/night-mode');
    await page.goto('/projects/al/features/night-mode');
    await page.waitForURL('**/projects/al/environments/development/features/night-mode');

    // Once the user works in production there, the project's address opens production.
    await environmentButton(page).click();
    await page
      .getByRole('group', { name: 'Alpha Lab' })
      .getByRole('menuitem', { name: /Production/ })
      .click();
    await page.waitForURL('**/projects/al/environments/production/features');
    await page.getByText('PRODUCTION ENVIRONMENT', { exact: true }).waitFor();
    await page.goto('/projects/sp/environments/development/features');
    await page.getByRole('heading', { name: 'Features', level: 1 }).waitFor();
    await page.goto('/projects/al/features/night-mode');
    await page.waitForURL('**/projects/al/environments/production/features/night-mode');
    await context.close();
  });
});
