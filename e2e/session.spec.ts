import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, openPage } from './support/browser';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from './support/server';

let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser.close();
});
beforeEach(async () => {
  ({ context, page } = await openPage(browser, inject('baseURL')));
});
afterEach(async () => {
  await context.close();
});

const pathname = () => new URL(page.url()).pathname;

describe('session', () => {
  it('takes a signed-out visitor to sign in and back to the page they asked for', async () => {
    await page.goto('/profile');
    await page.getByRole('heading', { name: 'Sign in to Vexil' }).waitFor();
    expect(pathname()).toBe('/login');

    await page.getByLabel('Organisation').fill('demo');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByLabel('Email').fill(ADMIN_EMAIL);
    await page.getByLabel('Password', { exact: true }).fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();

    await page.getByRole('heading', { name: 'Profile', level: 1 }).waitFor();
    expect(pathname()).toBe('/profile');
  });

  it('logs out from the profile menu, back to the remembered organisation login', async () => {
    await page.goto('/demo/login');
    await page.getByLabel('Email').fill(ADMIN_EMAIL);
    await page.getByLabel('Password', { exact: true }).fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();

    await page.getByRole('button', { name: /Account menu/ }).click();
    await page.getByRole('menuitem', { name: 'Log Out' }).click();
    await page.getByRole('heading', { name: 'Sign in to Demo' }).waitFor();
    expect(pathname()).toBe('/demo/login');

    // The session is gone on the server too: the authenticated area asks to sign in again.
    await page.goto('/home');
    await page.getByRole('heading', { name: 'Sign in to Demo' }).waitFor();
  });

  it('signs the user out when a call answers 401 (/test/401)', async () => {
    await page.goto('/demo/login');
    await page.getByLabel('Email').fill(ADMIN_EMAIL);
    await page.getByLabel('Password', { exact: true }).fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();

    await page.goto('/test/401');
    await page.getByRole('heading', { name: 'Session test' }).waitFor();
    await page.getByRole('heading', { name: 'Sign in to Demo' }).waitFor({ timeout: 30_000 });
    expect(pathname()).toBe('/demo/login');
  });
});
