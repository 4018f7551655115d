import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { SSO_FAILURE_MESSAGES, ssoRequiredMessage } from '@vexil/core';
import { startOidcProvider, type OidcProviderHandle } from '../apps/server/test/oidc-provider';
import { launchBrowser, openPage, screenshot, viewShot } from './support/browser';
import { ADMIN_EMAIL, ADMIN_PASSWORD, addDemoUser, startServer, type RunningServer } from './support/server';
import { adminApi, DESKTOP } from './support/api';

/*
 * Single sign-on with OpenID Connect (docs/product.md §2 "Single sign-on", "Sign-in form") against a
 * real OpenID provider on 127.0.0.1 (apps/server/test/oidc-provider.ts), which the server may reach
 * with OUTGOING_ALLOW_PRIVATE=on. The demo admin sets the connection up on Admin › Single sign-on,
 * registering the redirect URI the screen shows at the provider; a new person then signs in with it
 * and joins as a member with the default role; a person from another domain, and one who cancels,
 * come back to the sign-in page, which says why; with single sign-on required, members cannot use a
 * password while the admin still can. The tests run in order on one server and one provider.
 */

const DISPLAY_NAME = 'Acme ID';
const CLIENT_ID = 'vexil-e2e';
const CLIENT_SECRET = 'e2e-client-secret-0123456789';
const NEWCOMER = { sub: 'ada-1', email: 'ada@acme.test', given_name: 'Ada', family_name: 'Lovelace' };
const OUTSIDER = { sub: 'eve-1', email: 'eve@elsewhere.test', given_name: 'Eve', family_name: 'Outside' };
const MEMBER = 'editor@example.com';

let browser: Browser;
let server: RunningServer;
let provider: OidcProviderHandle | undefined;

beforeAll(async () => {
  [browser, server] = await Promise.all([
    launchBrowser(),
    startServer(
      { OUTGOING_ALLOW_PRIVATE: 'on' },
      { prepare: (db) => addDemoUser(db, MEMBER, 'ROLE_ORGANISATION_EDITOR') },
    ),
  ]);
});
afterAll(async () => {
  await Promise.all([browser?.close(), server?.stop(), provider?.close()]);
});

async function shots(page: Page, name: string): Promise<void> {
  await viewShot(page, `${name}-1440`, 1440);
  await viewShot(page, `${name}-390`, 390);
  await page.setViewportSize(DESKTOP);
}

async function freshPage(): Promise<Page> {
  const { context, page } = await openPage(browser, server.url);
  onTestFinished(() => context.close());
  await page.setViewportSize(DESKTOP);
  return page;
}

/** Signs the demo admin in with their password, unfolding the password form when SSO is required. */
async function signedInAdmin(): Promise<Page> {
  const page = await freshPage();
  await page.goto('/demo/login');
  await page.getByRole('heading', { name: 'Sign in to Demo' }).waitFor();
  const toggle = page.getByRole('button', { name: 'Sign in with a password (organisation admins)' });
  if (await toggle.count()) await toggle.click();
  await page.getByLabel('Email', { exact: true }).fill(ADMIN_EMAIL);
  await page.getByLabel('Password', { exact: true }).fill(ADMIN_PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();
  return page;
}

/** Admin › Single sign-on, through the admin menu as an admin gets there. */
async function openSsoTab(page: Page): Promise<void> {
  await page.getByRole('button', { name: /Account menu/ }).click();
  await page.getByRole('menuitem', { name: 'Admin' }).click();
  await page.getByRole('tab', { name: 'Single sign-on' }).click();
  await page.waitForURL('**/admin/sso');
  await page.getByRole('heading', { name: 'Single sign-on', level: 2 }).waitFor();
}

async function closeToasts(page: Page): Promise<void> {
  const buttons = page.locator('.mantine-Notification-closeButton');
  for (let left = await buttons.count(); left > 0; left--) await buttons.first().click();
  await page.locator('.mantine-Notification-root').first().waitFor({ state: 'detached' });
}

async function signOut(page: Page): Promise<void> {
  await page.getByRole('button', { name: /Account menu/ }).click();
  await page.getByRole('menuitem', { name: 'Log Out' }).click();
  await page.getByRole('heading', { name: 'Sign in to Demo' }).waitFor();
}

/** At the provider's page: signs in as `email` (or cancels). */
async function atProvider(page: Page, email: string | null): Promise<void> {
  await page.getByRole('heading', { name: 'Test identity provider' }).waitFor();
  expect(new URL(page.url()).origin).toBe(provider!.issuer);
  if (email === null) {
    await page.getByRole('button', { name: 'Cancel' }).click();
    return;
  }
  await page.getByLabel('E-mail', { exact: true }).fill(email);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

describe('Single sign-on', () => {
  it('an admin sets it up on Admin › Single sign-on; a refused issuer says why and keeps the form', async () => {
    const page = await signedInAdmin();
    await openSsoTab(page);
    await page.getByText('Single sign-on is not set up.').waitFor();
    await shots(page, 'sso-admin-empty');

    await page.getByRole('button', { name: 'Set up single sign-on' }).click();
    const redirectUri = await page.getByRole('textbox', { name: 'Redirect URI', exact: true }).inputValue();
    expect(redirectUri).toBe(`${server.url}/api/v1/sso/callback`);
    // The admin registers Vexil at the identity provider with that redirect URI.
    provider = await startOidcProvider({
      clients: [{ client_id: CLIENT_ID, client_secret: CLIENT_SECRET, redirect_uris: [redirectUri] }],
      accounts: [NEWCOMER, OUTSIDER].map((person) => ({
        ...person,
        email_verified: true,
        name: `${person.given_name} ${person.family_name}`,
      })),
    });

    await page.getByRole('textbox', { name: 'Display name', exact: true }).fill(DISPLAY_NAME);
    // A typo in the issuer: nothing answers discovery there.
    await page
      .getByRole('textbox', { name: 'Issuer URL', exact: true })
      .fill(`${provider.issuer}/realms/typo`);
    await page.getByRole('textbox', { name: 'Client ID', exact: true }).fill(CLIENT_ID);
    await page.getByLabel('Client secret', { exact: true }).fill(CLIENT_SECRET);
    const domains = page.getByRole('combobox', { name: 'Allowed e-mail domains' });
    await domains.fill('acme.test');
    await domains.press('Enter');
    await page.getByRole('combobox', { name: 'Default role' }).click();
    await page.getByRole('option', { name: 'Non-Production editor', exact: true }).click();
    await page.getByRole('button', { name: 'Save', exact: true }).click();

    const failure = page.getByRole('form', { name: 'Single sign-on connection' }).getByRole('alert');
    await failure.waitFor();
    expect(
      await page
        .getByRole('textbox', { name: 'Issuer URL', exact: true })
        .evaluate((input) => input === document.activeElement),
    ).toBe(true);
    await page.getByRole('textbox', { name: 'Issuer URL', exact: true }).blur();
    await shots(page, 'sso-admin-error');
    // Nothing typed was lost.
    expect(await page.getByRole('textbox', { name: 'Display name', exact: true }).inputValue()).toBe(
      DISPLAY_NAME,
    );
    expect(await page.getByLabel('Client secret', { exact: true }).inputValue()).toBe(CLIENT_SECRET);

    await page.getByRole('textbox', { name: 'Issuer URL', exact: true }).fill(provider.issuer);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Single sign-on saved.').waitFor();
    expect(await failure.count()).toBe(0);
    await page.getByText('A secret is stored; leave empty to keep it.').waitFor();
    expect(await page.getByLabel('Client secret', { exact: true }).inputValue()).toBe('');
    await closeToasts(page);

    // A reload shows what the server stored.
    await page.reload();
    await page.getByRole('heading', { name: 'Single sign-on', level: 2 }).waitFor();
    await page.getByText('On', { exact: true }).waitFor();
    await shots(page, 'sso-admin-filled');
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, 'sso-admin-filled-390-full');
    await page.setViewportSize(DESKTOP);
    expect(await page.getByRole('textbox', { name: 'Display name', exact: true }).inputValue()).toBe(
      DISPLAY_NAME,
    );
    expect(await page.getByRole('textbox', { name: 'Issuer URL', exact: true }).inputValue()).toBe(
      provider.issuer,
    );
    expect(await page.getByRole('combobox', { name: 'Default role' }).inputValue()).toBe(
      'Non-Production editor',
    );
    await page.getByText('acme.test', { exact: true }).waitFor();
  });

  it('a new person signs in with it and lands on Home as a member with the default role, kept signed in', async () => {
    const page = await signedInAdmin();
    await signOut(page);
    const button = page.getByRole('link', { name: `Sign in with ${DISPLAY_NAME}` });
    await button.waitFor();
    await page.getByText('or', { exact: true }).waitFor();
    await shots(page, 'sso-login');

    await page.getByLabel('Keep me signed in', { exact: true }).check();
    expect(new URL((await button.getAttribute('href'))!, server.url).searchParams.get('rememberMe')).toBe(
      'true',
    );
    await button.click();
    await atProvider(page, NEWCOMER.email);

    await page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    const initial = await page.evaluate(async () => {
      const response = await fetch('/api/v1/initial');
      return (await response.json()) as { principalUser: { email: string; authorities: string[] } };
    });
    expect(initial.principalUser.email).toBe(NEWCOMER.email);
    expect(initial.principalUser.authorities).toEqual(['ROLE_ORGANISATION_EDITOR']);
    // "Keep me signed in": the session cookie outlives the browser.
    const session = (await page.context().cookies()).find((cookie) =>
      cookie.name.endsWith('authenticationToken'),
    );
    expect(session?.expires).toBeGreaterThan(Date.now() / 1000 + 7 * 24 * 60 * 60);

    const members = await (
      await adminApi(server.url)
    )<{ email: string; authority: string; activated: boolean }[]>('GET', '/api/v1/users');
    expect(members.find((member) => member.email === NEWCOMER.email)).toMatchObject({
      authority: 'ROLE_ORGANISATION_EDITOR',
      activated: true,
    });
  });

  it('a person from a domain not allowed, or who cancels, comes back to the sign-in page with the reason', async () => {
    const page = await freshPage();
    await page.goto('/demo/login');
    await page.getByRole('link', { name: `Sign in with ${DISPLAY_NAME}` }).click();
    await atProvider(page, OUTSIDER.email);
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toBe(SSO_FAILURE_MESSAGES['not-allowed']);
    const url = new URL(page.url());
    expect(`${url.pathname}${url.search}`).toBe('/demo/login?sso=not-allowed');
    await shots(page, 'sso-login-failed');

    // In another browser (this one is now signed in at the provider), a person cancels there.
    const other = await freshPage();
    await other.goto('/demo/login');
    await other.getByRole('link', { name: `Sign in with ${DISPLAY_NAME}` }).click();
    await atProvider(other, null);
    await other.waitForURL('**/demo/login?sso=cancelled');
    expect(await other.getByRole('alert').textContent()).toBe(SSO_FAILURE_MESSAGES.cancelled);
  });

  it('when required, members must use it while organisation admins keep their password', async () => {
    const admin = await signedInAdmin();
    await openSsoTab(admin);
    await admin.getByRole('switch', { name: 'Require single sign-on for members' }).check();
    await admin.getByRole('button', { name: 'Save', exact: true }).click();
    await admin.getByText('Single sign-on saved.').waitFor();
    await admin.getByText('On, required').waitFor();

    const page = await freshPage();
    await page.goto('/demo/login');
    await page.getByText(`Your organisation signs in with ${DISPLAY_NAME}.`).waitFor();
    const toggle = page.getByRole('button', { name: 'Sign in with a password (organisation admins)' });
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    expect(await page.getByLabel('Email', { exact: true }).count()).toBe(0);
    await shots(page, 'sso-login-required');

    // A member's password is refused, with the way in.
    await toggle.click();
    await page.getByLabel('Email', { exact: true }).fill(MEMBER);
    await page.getByLabel('Password', { exact: true }).fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByText(ssoRequiredMessage(DISPLAY_NAME)).waitFor();
    await shots(page, 'sso-login-required-refused');

    // The admin's password still works.
    await page.getByLabel('Email', { exact: true }).fill(ADMIN_EMAIL);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();
  });

  it('an admin removes it after a confirmation, and the sign-in page offers only the password again', async () => {
    const page = await signedInAdmin();
    await openSsoTab(page);
    await page.getByRole('button', { name: 'Remove single sign-on' }).click();
    const dialog = page.getByRole('dialog', { name: 'Remove single sign-on' });
    await dialog.waitFor();
    await shots(page, 'sso-admin-remove');
    await dialog.getByRole('button', { name: 'Remove', exact: true }).click();
    await page.getByText('Single sign-on removed.').waitFor();
    await page.getByText('Single sign-on is not set up.').waitFor();

    await signOut(page);
    await page.getByLabel('Email', { exact: true }).waitFor();
    expect(await page.getByRole('link', { name: /^Sign in with/ }).count()).toBe(0);
  });
});
