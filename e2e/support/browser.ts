import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { ADMIN_EMAIL, ADMIN_PASSWORD, DEMO_DOMAIN } from './server';
import { sharedServerURL } from './shared-server';

const SCREENSHOTS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../screenshots');

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox'],
    headless: true,
  });
}

/** A fresh browser profile (no cookies, no storage) on the given server. */
export async function openPage(
  browser: Browser,
  baseURL: string,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL, viewport: { width: 1280, height: 800 } });
  context.setDefaultTimeout(15_000);
  const page = await context.newPage();
  return { context, page };
}

/** Signs in as the demo admin the way a user does, from /demo/login. */
export async function signIn(page: Page, options: { email?: string; password?: string } = {}): Promise<void> {
  await page.goto(`/${DEMO_DOMAIN}/login`);
  await page.getByLabel('Email').fill(options.email ?? ADMIN_EMAIL);
  await page.getByLabel('Password', { exact: true }).fill(options.password ?? ADMIN_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/**
 * Opens the profile menu from its button, as a user does, and returns it once it has the focus.
 * The menu takes the focus when its opening transition begins, and Escape closes it only from
 * inside: a key pressed before then goes to the button.
 */
export async function openAccountMenu(page: Page): Promise<Locator> {
  await page.getByRole('button', { name: /Account menu/ }).click();
  const menu = page.getByRole('menu');
  await menu.waitFor();
  await hasFocusWithin(menu);
  return menu;
}

/** Waits until the focus is on `element` or inside it. */
export async function hasFocusWithin(element: Locator): Promise<void> {
  const handle = await element.elementHandle();
  await element.page().waitForFunction((node) => node?.contains(document.activeElement), handle);
}

/** Closes the open menu with Escape, as a keyboard user does, and waits until it has gone. */
export async function escapeMenu(page: Page): Promise<void> {
  const menu = page.getByRole('menu');
  await hasFocusWithin(menu);
  await page.keyboard.press('Escape');
  await menu.waitFor({ state: 'hidden' });
}

export async function screenshot(page: Page, name: string): Promise<void> {
  await mkdir(SCREENSHOTS, { recursive: true });
  // Let fonts and transitions settle so the picture shows the finished screen.
  await page.evaluate(() => document.fonts.ready);
  await page.waitForTimeout(300);
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

/** What the screen shows at `width` (not the whole page: what is in view is the point). */
export async function viewShot(page: Page, name: string, width: number): Promise<void> {
  await page.setViewportSize({ width, height: width < 600 ? 844 : 900 });
  await mkdir(SCREENSHOTS, { recursive: true });
  await page.evaluate(() => document.fonts.ready);
  await page.waitForTimeout(300);
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`) });
}

/**
 * One browser per spec file and a fresh profile per test: registers the hooks and exposes the
 * current page and context (read them inside tests, after the hooks ran).
 */
export function useFreshPage(): { readonly page: Page; readonly context: BrowserContext } {
  let browser: Browser;
  const current = {} as { page: Page; context: BrowserContext };
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser.close();
  });
  beforeEach(async () => {
    Object.assign(current, await openPage(browser, sharedServerURL()));
  });
  afterEach(async () => {
    await current.context.close();
  });
  return current;
}
