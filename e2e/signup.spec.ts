import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startTestMailServer, type ReceivedMail, type TestMailServer } from '../apps/server/test/smtp-server';
import { launchBrowser, openPage, viewShot } from './support/browser';
import { startServer, type RunningServer } from './support/server';
import { DESKTOP } from './support/api';

/*
 * The sign-up wizard (docs/product.md §4 "Signup wizard") against a real mail server: from the bare
 * sign-in page's sign-up by e-mail, the pin read from the e-mail that arrived, password,
 * name, and an organisation whose first domain is taken (the demo's), to the new organisation's Home,
 * signed in, with its first project.
 */

const EMAIL = 'grace@example.com';
const PASSWORD = 'Cobol since 1959!';

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

function pinOf(received: ReceivedMail): string {
  const pin = /^(\d{6})$/m.exec(received.message.text ?? '')?.[1];
  if (!pin) throw new Error(`No pin in ${received.message.text}`);
  return pin;
}

async function typePin(page: Page, pin: string): Promise<void> {
  await page.getByLabel('Pin').first().click();
  await page.keyboard.type(pin);
}

describe('Sign-up wizard', () => {
  it('creates an organisation from the sign-in page and lands on its Home, signed in, with its first project', async () => {
    const { page } = await openPage(browser, server.url);
    await page.goto('/login');
    await page.getByLabel('Work e-mail').fill('grace at example');
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.getByText('grace at example is not a valid email.').waitFor();
    await page.getByLabel('Work e-mail').fill(EMAIL);
    await shots(page, 'login-app-address');
    await page.getByRole('button', { name: 'Sign up' }).click();
    // The wizard sends the pin to the e-mail typed on the sign-in page at once.
    await page.getByRole('heading', { name: 'Confirm your e-mail' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/signup');
    await page.getByText('Step 1 of 4').waitFor();
    await page.getByText(`We sent a 6-digit pin to ${EMAIL}.`, { exact: false }).waitFor();

    const [received] = await mail.waitFor(1);
    expect(received!.to).toEqual([EMAIL]);
    const pin = pinOf(received!);

    // Digits only: letters typed into the pin go nowhere.
    await typePin(page, 'ab');
    expect(await page.getByLabel('Pin').first().inputValue()).toBe('');
    await shots(page, 'signup-pin');
    // A wrong pin is refused when its 6th digit is typed, and the boxes empty for another try.
    const wrong = String((Number(pin) + 1) % 1_000_000).padStart(6, '0');
    await typePin(page, wrong);
    await page.getByText('The pin you have entered is invalid.').waitFor();
    await shots(page, 'signup-pin-invalid');
    // A new pin: the page says so, and the first pin no longer works.
    await page.getByRole('button', { name: 'Send a new pin' }).click();
    await page
      .getByRole('status')
      .getByText(`We sent a new pin to ${EMAIL}. The previous pin no longer works.`)
      .waitFor();
    const newPin = pinOf((await mail.waitFor(2))[1]!);
    await shots(page, 'signup-pin-resent');
    if (newPin !== pin) {
      await typePin(page, pin);
      await page.getByText('The pin you have entered is invalid.').waitFor();
    }
    await typePin(page, newPin);

    await page.getByRole('heading', { name: 'Choose a password' }).waitFor();
    await page.getByText('Step 2 of 4').waitFor();
    const next = page.getByRole('button', { name: 'Next' });
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Confirm password').fill('Cobol since 1960!');
    await page.getByText('The two passwords do not match.').waitFor();
    expect(await next.isDisabled()).toBe(true);
    await shots(page, 'signup-password-mismatch');
    await page.getByLabel('Confirm password').fill(PASSWORD);
    expect(await next.isDisabled()).toBe(false);
    await shots(page, 'signup-password');
    await next.click();

    await page.getByRole('heading', { name: 'Your name' }).waitFor();
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('First name is required').waitFor();
    await page.getByLabel('First name').fill('Grace');
    await page.getByLabel('Last name').fill('Hopper');
    await shots(page, 'signup-name');
    // Back and forth keeps what was typed.
    await page.getByRole('button', { name: 'Back' }).click();
    await page.getByRole('heading', { name: 'Choose a password' }).waitFor();
    expect(await page.getByLabel('Password', { exact: true }).inputValue()).toBe(PASSWORD);
    await page.getByRole('button', { name: 'Next' }).click();
    expect(await page.getByLabel('First name').inputValue()).toBe('Grace');
    await page.getByRole('button', { name: 'Next' }).click();

    await page.getByRole('heading', { name: 'Your organisation' }).waitFor();
    await page.getByText('Step 4 of 4').waitFor();
    await page.getByRole('button', { name: 'Create my organisation' }).click();
    await page.getByText('The Organisation name is required').waitFor();
    // The demo organisation's domain is taken: free alternatives are offered.
    await page.getByLabel('Organisation name').fill('Demo');
    expect(await page.getByRole('textbox', { name: 'Domain', exact: true }).inputValue()).toBe('demo');
    await page.getByText('The domain name is unavailable').waitFor();
    for (const suggestion of ['demo-global', 'demo-group', 'demo-company'])
      await page.getByRole('button', { name: suggestion }).waitFor();
    await shots(page, 'signup-domain-taken');
    await page.getByRole('button', { name: 'demo-company' }).click();
    expect(await page.getByRole('textbox', { name: 'Domain', exact: true }).inputValue()).toBe(
      'demo-company',
    );
    await page.getByText('demo-company is available').waitFor();
    // A domain typed by hand shows, key by key, what it becomes; the caret stays where it was.
    await page.getByLabel('Organisation name').fill('Hopper Labs');
    const domain = page.getByRole('textbox', { name: 'Domain', exact: true });
    await domain.fill('');
    await domain.pressSequentially('Ab C!');
    expect(await domain.inputValue()).toBe('ab-c-');
    await domain.press('Backspace');
    expect(await domain.inputValue()).toBe('ab-c');
    await domain.pressSequentially('orp');
    expect(await domain.inputValue()).toBe('ab-corp');
    await domain.press('ArrowLeft');
    await domain.press('ArrowLeft');
    await domain.press('ArrowLeft');
    await domain.pressSequentially('X Y');
    expect(await domain.inputValue()).toBe('ab-cx-yorp');
    expect(await domain.evaluate((input: HTMLInputElement) => input.selectionStart)).toBe('ab-cx-y'.length);
    // A separator typed last is dropped on leaving the field.
    await domain.fill('');
    await domain.pressSequentially('Hopper Labs ');
    expect(await domain.inputValue()).toBe('hopper-labs-');
    await page.getByLabel('Organisation name').focus();
    expect(await domain.inputValue()).toBe('hopper-labs');
    await page.getByText('hopper-labs is available').waitFor();
    await shots(page, 'signup-organisation');
    await page.getByRole('button', { name: 'Create my organisation' }).click();

    await page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();
    await page.getByText('First Project').first().waitFor();
    await shots(page, 'signup-home');
    const initial = await page.evaluate(async () => {
      const res = await fetch('/api/v1/initial');
      return (await res.json()) as { organisation: { domain: string }; principalUser: { email: string } };
    });
    expect(initial.organisation.domain).toBe('hopper-labs');
    expect(initial.principalUser.email).toBe(EMAIL);
  });

  it('/activate goes to sign-in when no sign-up was started', async () => {
    const { page } = await openPage(browser, server.url);
    await page.goto('/activate');
    await page.waitForURL((url) => url.pathname === '/login');
    await page.getByRole('button', { name: 'Sign up' }).waitFor();
  });
});
