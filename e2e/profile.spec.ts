import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, openPage, screenshot, signIn } from './support/browser';
import { ADMIN_EMAIL } from './support/server';
import { sharedServerURL } from './support/shared-server';

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser.close();
});

describe('profile', () => {
  it("shows the admin's full name and e-mail, reached from the profile menu", async () => {
    const { context, page } = await openPage(browser, sharedServerURL());
    await signIn(page);
    await page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();

    await page.getByRole('button', { name: /Account menu/ }).click();
    await page.getByRole('menuitem', { name: 'Profile' }).click();
    await page.getByRole('heading', { name: 'Profile', level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/profile');

    const main = page.getByRole('main');
    const fullName = main.locator('dt', { hasText: 'Full name' }).locator('xpath=following-sibling::dd[1]');
    const email = main.locator('dt', { hasText: 'E-mail' }).locator('xpath=following-sibling::dd[1]');
    expect(await fullName.textContent()).toBe('Demo Admin');
    expect(await email.textContent()).toBe(ADMIN_EMAIL);
    await screenshot(page, 'profile');
    await context.close();
  });
});
