import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, openPage, screenshot, signIn } from './support/browser';
import { ADMIN_EMAIL } from './support/server';

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

describe('login', () => {
  it('signs the demo admin in from /demo/login and lands on the home page', async () => {
    await page.goto('/demo/login');
    await page.getByRole('heading', { name: 'Sign in to Demo' }).waitFor();
    await screenshot(page, 'login');

    await signIn(page);
    await page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
  });

  it('asks for the organisation on the bare app address and goes to its login', async () => {
    await page.goto('/login');
    await page.getByRole('heading', { name: 'Sign in to Vexil' }).waitFor();
    await screenshot(page, 'login-organisation');
    await page.getByLabel('Organisation').fill('demo');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('heading', { name: 'Sign in to Demo' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/demo/login');
  });

  it('says "Please provide an email address." when the e-mail is empty', async () => {
    await page.goto('/demo/login');
    await page.getByLabel('Password', { exact: true }).fill('whatever');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('Please provide an email address.').waitFor();
  });

  it('says "{value} is not a valid email." for an invalid e-mail', async () => {
    await page.goto('/demo/login');
    await page.getByLabel('Email').fill('not-an-email');
    await page.getByLabel('Password', { exact: true }).fill('whatever');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('not-an-email is not a valid email.').waitFor();
  });

  it('says "Please provide a password." when the password is empty', async () => {
    await page.goto('/demo/login');
    await page.getByLabel('Email').fill(ADMIN_EMAIL);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('Please provide a password.').waitFor();
  });

  it('says the combination is invalid for a wrong password', async () => {
    await signIn(page, { password: 'not-the-password' });
    const alert = page.getByRole('alert').filter({ hasText: 'combination' });
    await alert.waitFor();
    expect(await alert.textContent()).toContain(
      'The email and password combination you have provided is invalid.',
    );
    expect(new URL(page.url()).pathname).toBe('/demo/login');
    await screenshot(page, 'login-failed');
  });
});
