import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, openPage, screenshot, signIn } from './support/browser';
import { sharedServerURL } from './support/shared-server';

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser.close();
});

describe('page not found', () => {
  it('shows Page not found for an unknown address, with a Head home link', async () => {
    const { context, page } = await openPage(browser, sharedServerURL());
    await signIn(page, { at: '/no/such/page' });
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
    await screenshot(page, '404');

    await page.getByRole('link', { name: 'Head home' }).click();
    await page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    await context.close();
  });
});
