import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import {
  escapeMenu,
  launchBrowser,
  openAccountMenu,
  openPage,
  screenshot,
  signIn,
  viewShot,
} from './support/browser';
import { addDemoUser, startServer, type RunningServer } from './support/server';
import { sharedServerURL } from './support/shared-server';

let browser: Browser;
/** Home and Profile off, with a teammate who is not an organisation admin. */
let flagsOff: RunningServer;
const EDITOR = 'editor@example.com';

beforeAll(async () => {
  [browser, flagsOff] = await Promise.all([
    launchBrowser(),
    startServer(
      { VEXIL_UI_FLAGS: 'profile=off,home=off' },
      { prepare: (db) => addDemoUser(db, EDITOR, 'ROLE_ORGANISATION_EDITOR') },
    ),
  ]);
});
afterAll(async () => {
  await Promise.all([browser?.close(), flagsOff?.stop()]);
});

async function menuItems(page: Page): Promise<string[]> {
  const items = (await openAccountMenu(page)).getByRole('menuitem');
  const names = (await items.allTextContents()).map((text) => text.trim());
  await escapeMenu(page);
  return names;
}

describe('top navigation', () => {
  it('shows Home and the environment items, and Profile in the menu, with the default flags', async () => {
    const { context, page } = await openPage(browser, sharedServerURL());
    await signIn(page);
    await page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Home' }).waitFor();
    expect(await nav.getByRole('link', { name: 'Features' }).count()).toBe(1);
    expect(await page.getByRole('link', { name: 'Help', exact: true }).getAttribute('href')).toBe('/help');
    expect(await page.getByRole('link', { name: /API reference/ }).getAttribute('href')).toBe('/api/docs');
    await screenshot(page, 'home-shell');
    expect(await menuItems(page)).toEqual(['Profile', 'Admin', 'Log Out']);
    await context.close();
  });

  it('hides Home and Profile when their UI flags are off', async () => {
    const { context, page } = await openPage(browser, flagsOff.url);
    await signIn(page);
    await page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Features' }).waitFor();
    expect(await nav.getByRole('link', { name: 'Home' }).count()).toBe(0);
    await screenshot(page, 'home-shell-flags-off');
    expect(await menuItems(page)).toEqual(['Admin', 'Log Out']);
    await context.close();
  });

  it('fits the window at every width: the whole bar from 1200 px, the drawer below', async () => {
    const { context, page } = await openPage(browser, sharedServerURL());
    await signIn(page);
    await page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();
    const burger = page.getByRole('button', { name: 'Open navigation' });
    const account = page.getByRole('button', { name: /Account menu/ });
    for (const width of [390, 768, 992, 1024, 1199, 1200, 1280, 1440]) {
      await page.setViewportSize({ width, height: 800 });
      await expect.poll(() => burger.isVisible(), { message: `${width} px` }).toBe(width < 1200);
      expect(await page.evaluate(() => document.documentElement.scrollWidth), `${width} px`).toBe(width);
      const box = await account.boundingBox();
      expect(box && box.x + box.width <= width, `${width} px: account menu on screen`).toBe(true);
    }
    await page.setViewportSize({ width: 1024, height: 800 });
    await burger.click();
    const drawer = page.getByRole('dialog');
    await drawer.getByRole('link', { name: 'Features' }).waitFor();
    await screenshot(page, 'nav-drawer-1024');
    await context.close();
  });

  it('offers other users the Audit log, opens Audit at /admin, and explains the admins’ tabs', async () => {
    const { context, page } = await openPage(browser, flagsOff.url);
    await signIn(page, { email: EDITOR });
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Features' }).waitFor();
    expect(await menuItems(page)).toEqual(['Audit log', 'Log Out']);
    await (await openAccountMenu(page)).getByRole('menuitem', { name: 'Audit log' }).click();
    await page.waitForURL('**/admin/audit');
    const tabs = page.getByRole('tablist', { name: 'Admin sections' });
    // The admin page loads with its first visit: wait for its tabs as the user does.
    await tabs.getByRole('tab', { name: 'Audit', selected: true }).waitFor();
    expect(await tabs.getByRole('tab', { selected: true }).allInnerTexts()).toEqual(['Audit']);

    await page.goto('/admin');
    await page.waitForURL('**/admin/audit');
    await tabs.getByRole('tab', { name: 'Audit', selected: true }).waitFor();
    expect(await tabs.getByRole('tab', { selected: true }).allInnerTexts()).toEqual(['Audit']);
    await viewShot(page, 'admin-audit-editor-1440', 1440);
    await viewShot(page, 'admin-audit-editor-390', 390);
    await page.setViewportSize({ width: 1280, height: 800 });

    for (const [path, tab, message] of [
      ['users', 'Team', 'Only organisation admins may manage the team.'],
      ['roles', 'Roles', 'Only organisation admins may manage roles.'],
      ['tokens', 'Access Tokens', 'Only organisation admins may create access tokens.'],
      ['sso', 'Single sign-on', 'Only organisation admins may manage single sign-on.'],
    ] as const) {
      await page.goto(`/admin/${path}`);
      await page.getByText(message, { exact: true }).waitFor();
      expect(await page.getByRole('heading', { name: 'Page not found' }).count(), path).toBe(0);
      expect(await tabs.getByRole('tab', { name: tab, selected: true }).count(), path).toBe(1);
    }
    await viewShot(page, 'admin-sso-editor-1440', 1440);
    await viewShot(page, 'admin-sso-editor-390', 390);
    await context.close();
  });
});
