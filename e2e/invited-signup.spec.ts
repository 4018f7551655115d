import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startTestMailServer, type TestMailServer } from '../apps/server/test/smtp-server';
import { escapeMenu, launchBrowser, openAccountMenu, openPage, viewShot } from './support/browser';
import { startServer, type RunningServer } from './support/server';
import { DESKTOP, adminApi } from './support/api';

/*
 * Invited sign-up (docs/product.md §2 /invited/{activationKey}, §4, §8): an admin invites someone,
 * the invitation e-mail arrives at a real mail server, and the invited person opens its link,
 * chooses their name and password and lands on Home signed in. The link then says it was used.
 */

let browser: Browser;
let server: RunningServer;
let mail: TestMailServer;

beforeAll(async () => {
  mail = await startTestMailServer();
  [browser, server] = await Promise.all([
    launchBrowser(),
    startServer({ SMTP_URL: mail.url, MAIL_FROM: 'Vexil <no-reply@vexil.test>' }),
  ]);
});
afterAll(async () => {
  await Promise.all([browser?.close(), server?.stop()]);
  await mail?.close();
});

async function shots(page: Page, name: string): Promise<void> {
  await viewShot(page, `${name}-1440`, 1440);
  await viewShot(page, `${name}-390`, 390);
  await page.setViewportSize(DESKTOP);
}

const INVITED_LINK = /(http:\/\/localhost:\d+\/invited\/vxi_[A-Za-z0-9_-]+)/;

describe('Invited sign-up', () => {
  it('opens the link of the invitation e-mail, activates the account and lands on Home signed in; the link then says so', async () => {
    const api = await adminApi(server.url);
    await api('POST', '/api/v1/invites', [{ email: 'grace@example.com', firstName: 'Grace' }]);
    const [received] = await mail.waitFor(1);
    const link = INVITED_LINK.exec(received!.message.text ?? '')?.[1];
    expect(link?.startsWith(`${server.url}/invited/`)).toBe(true);

    const { context, page } = await openPage(browser, server.url);
    // Held back once, so the Loading state can be seen.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(
      '**/api/v1/signup/invitee/**',
      async (route) => {
        await held;
        await route.continue();
      },
      { times: 1 },
    );
    await page.goto(link!);
    await page.getByText('Loading').waitFor();
    await shots(page, 'invited-loading');
    release();

    await page.getByRole('heading', { name: 'Join Demo' }).waitFor();
    expect(await page.getByLabel('Email').inputValue()).toBe('grace@example.com');
    expect(await page.getByLabel('First name').inputValue()).toBe('Grace');
    await page.getByLabel('Password', { exact: true }).fill('Grace-Hopper-1906');
    await page.getByLabel('Confirm password', { exact: true }).fill('Grace-Hopper-19');
    await page.getByText('The two passwords do not match.').waitFor();
    const submit = page.getByRole('button', { name: 'Activate my account' });
    expect(await submit.isDisabled()).toBe(true);
    await page.getByLabel('Confirm password', { exact: true }).fill('Grace-Hopper-1906');
    await submit.click();
    await page.getByText('Last name is required').waitFor();
    await shots(page, 'invited-form-invalid');
    await page.getByLabel('Last name').fill('Hopper');
    await shots(page, 'invited-form');
    await submit.click();

    await page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    await (await openAccountMenu(page)).getByText('grace@example.com').first().waitFor();
    await escapeMenu(page);

    // The same link in another browser: already activated.
    const other = await openPage(browser, server.url);
    await other.page.goto(link!);
    await other.page
      .getByRole('heading', { name: 'It looks like you have already activated your account!' })
      .waitFor();
    await shots(other.page, 'invited-already-activated');

    // A link that is no invitation: not found.
    await other.page.goto('/invited/vxi_no-such-invitation');
    await other.page.getByRole('heading', { name: 'We cannot find you!' }).waitFor();
    await shots(other.page, 'invited-not-found');

    // The new member signs in with the password chosen.
    await other.page.goto('/demo/login');
    await other.page.getByLabel('Email').fill('grace@example.com');
    await other.page.getByLabel('Password', { exact: true }).fill('Grace-Hopper-1906');
    await other.page.getByRole('button', { name: 'Sign in' }).click();
    await other.page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();

    await Promise.all([context.close(), other.context.close()]);
  });
});
