import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startTestMailServer, type TestMailServer } from '../apps/server/test/smtp-server';
import { launchBrowser, openPage, signIn, viewShot } from './support/browser';
import { ADMIN_PASSWORD, addDemoUser, startServer, type RunningServer } from './support/server';
import { DESKTOP } from './support/api';

/*
 * Password reset (docs/product.md §2 /resetpassword, §8) against a real mail server: the request
 * from the sign-in form, the link read from the e-mail that arrived, the new password, and an
 * earlier browser session of the member ending. Also find organisation, the other way back in from
 * the sign-in page, which e-mails the organisations' sign-in addresses.
 */

const MEMBER = 'forgetful@example.com';
const NEW_PASSWORD = 'a brand-new Passw0rd';

let browser: Browser;
let server: RunningServer;
let mail: TestMailServer;

beforeAll(async () => {
  mail = await startTestMailServer();
  [browser, server] = await Promise.all([
    launchBrowser(),
    startServer(
      { SMTP_URL: mail.url, MAIL_FROM: 'Vexil <no-reply@vexil.test>' },
      { prepare: (db) => addDemoUser(db, MEMBER, 'ROLE_ORGANISATION_EDITOR') },
    ),
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

const RESET_LINK = /(http:\/\/localhost:\d+\/resetpassword\?key=vxr_[A-Za-z0-9_-]+)/;

describe('Password reset', () => {
  it('from "Forgot password?" to a new password; the old one and an earlier session stop working', async () => {
    // An earlier session of the member, in another browser.
    const earlier = await openPage(browser, server.url);
    await signIn(earlier.page, { email: MEMBER, password: ADMIN_PASSWORD });
    await earlier.page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();

    const { context, page } = await openPage(browser, server.url);
    await page.goto('/demo/login');
    await page.getByRole('heading', { name: 'Sign in to Demo' }).waitFor();
    await shots(page, 'reset-login-link');
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.getByRole('heading', { name: 'Reset your password' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/demo/forgot-password');

    await page.getByLabel('Email').fill('not an address');
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.getByText('Must be a valid email address').waitFor();
    await shots(page, 'reset-request-invalid');

    await page.getByLabel('Email').fill(MEMBER);
    await shots(page, 'reset-request');
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.getByText('An email has been sent with details to reset your password.').waitFor();
    await shots(page, 'reset-request-sent');

    const [received] = await mail.waitFor(1);
    expect(received!.to).toEqual([MEMBER]);
    expect(received!.message.subject).toBe('Reset your Demo password on Vexil');
    const link = RESET_LINK.exec(received!.message.text ?? '')?.[1];
    expect(link?.startsWith(`${server.url}/resetpassword?key=`)).toBe(true);

    // The e-mail as a mail client shows it: its button is the link.
    const mailPage = await context.newPage();
    await mailPage.setContent(received!.message.html as string);
    expect(await mailPage.getByRole('link', { name: 'Choose a new password' }).getAttribute('href')).toBe(
      link,
    );
    await viewShot(mailPage, 'reset-mail-1440', 1440);
    await mailPage.close();

    // Without a key the page is sign-in.
    await page.goto('/resetpassword');
    await page.waitForURL(/\/login$/);

    await page.goto(link!);
    await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
    const submit = page.getByRole('button', { name: 'Reset password' });
    expect(await submit.isDisabled()).toBe(true);
    await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel('Confirm password', { exact: true }).fill('something else');
    await page.getByText('The two passwords do not match.').waitFor();
    expect(await submit.isDisabled()).toBe(true);
    expect(await page.getByText('Strength: Fair').isVisible()).toBe(true);
    await shots(page, 'reset-password-mismatch');
    await page.getByLabel('Confirm password', { exact: true }).fill(NEW_PASSWORD);
    await shots(page, 'reset-password');
    await submit.click();
    await page.getByText(/Your password has been reset/).waitFor();
    await shots(page, 'reset-password-done');

    // The earlier session has ended: its next page load goes to sign-in.
    await earlier.page.reload();
    await earlier.page.waitForURL(/\/login$/);
    await earlier.page.getByLabel('Email').waitFor();

    // The old password no longer works; the new one does.
    await page.getByRole('link', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Sign in to Demo' }).waitFor();
    await page.getByLabel('Email').fill(MEMBER);
    await page.getByLabel('Password', { exact: true }).fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('The email and password combination you have provided is invalid.').waitFor();
    await page.getByLabel('Password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();

    // The link worked once.
    const again = await openPage(browser, server.url);
    await again.page.goto(link!);
    await again.page.getByLabel('New password', { exact: true }).fill('yet another one');
    await again.page.getByLabel('Confirm password', { exact: true }).fill('yet another one');
    await again.page.getByRole('button', { name: 'Reset password' }).click();
    await again.page.getByText('There was an error resetting your password').waitFor();
    await shots(again.page, 'reset-password-used');

    await Promise.all([context.close(), earlier.context.close(), again.context.close()]);
  });
});

describe('Find organisation', () => {
  it('from the bare /login page, e-mails the sign-in address that then opens the organisation’s sign-in', async () => {
    const { context, page } = await openPage(browser, server.url);
    await page.goto('/login');
    await page.getByRole('heading', { name: 'Sign in to Vexil' }).waitFor();
    await shots(page, 'find-organisation-login-link');
    await page.getByRole('link', { name: 'Find your organisation' }).click();
    await page.getByRole('heading', { name: 'Find your organisation' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/find-organisation');
    await page.getByLabel('Email').fill('admin@example');
    await page.getByRole('button', { name: 'Send me my organisations' }).click();
    await page.getByText('Must be a valid email address').waitFor();
    await shots(page, 'find-organisation-invalid');
    await page.getByLabel('Email').fill('admin@example.com');
    await shots(page, 'find-organisation');
    const before = mail.received.length;
    await page.getByRole('button', { name: 'Send me my organisations' }).click();
    await page
      .getByText(
        'If this address belongs to any organisation, an email listing their sign-in addresses has been sent to it.',
      )
      .waitFor();
    await shots(page, 'find-organisation-sent');

    const [received] = (await mail.waitFor(before + 1)).slice(before);
    expect(received!.to).toEqual(['admin@example.com']);
    expect(received!.message.text).toContain(`Demo: ${server.url}/demo/login`);
    const mailPage = await context.newPage();
    await mailPage.setContent(received!.message.html as string);
    await viewShot(mailPage, 'find-organisation-mail-1440', 1440);
    await mailPage.close();

    await page.goto(`${server.url}/demo/login`);
    await page.getByRole('heading', { name: 'Sign in to Demo' }).waitFor();
    await context.close();
  });
});
