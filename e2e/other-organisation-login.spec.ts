import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { organisations, users } from '../apps/server/src/db/schema/index';
import { hashPassword } from '../apps/server/src/lib/passwords';
import { launchBrowser, openPage, signIn, viewShot } from './support/browser';
import { ADMIN_EMAIL, ADMIN_PASSWORD, addDemoUser, startServer, type RunningServer } from './support/server';
import { DESKTOP } from './support/api';

/*
 * Signed in to one organisation, the sign-in page of another (path form `/{organisation}/login`)
 * shows that organisation's sign-in, says who is signed in where, and offers to sign out
 * (docs/product.md §2 "/login").
 */

const ACME_ADMIN = 'ada@acme.test';
const LEAVER = 'leaver@example.com';

let browser: Browser;
let server: RunningServer;

beforeAll(async () => {
  [browser, server] = await Promise.all([
    launchBrowser(),
    startServer(
      {},
      {
        prepare: async (db) => {
          await addDemoUser(db, LEAVER, 'ROLE_ORGANISATION_EDITOR');
          const [acme] = await db
            .insert(organisations)
            .values({ name: 'Acme', domain: 'acme' })
            .returning({ id: organisations.id });
          await db.insert(users).values({
            organisationId: acme!.id,
            email: ACME_ADMIN,
            firstName: 'Ada',
            lastName: 'Lovelace',
            passwordHash: await hashPassword(ADMIN_PASSWORD, 'test'),
            authorities: ['ROLE_ORGANISATION_ADMIN'],
            activated: true,
            activatedDate: new Date(),
          });
        },
      },
    ),
  ]);
});
afterAll(async () => {
  await Promise.all([browser?.close(), server?.stop()]);
});

async function signedInToDemo(): Promise<Page> {
  const { context, page } = await openPage(browser, server.url);
  onTestFinished(() => context.close());
  await page.setViewportSize(DESKTOP);
  await signIn(page);
  await page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();
  return page;
}

describe('another organisation’s sign-in while signed in', () => {
  it('shows its sign-in, says who is signed in where, and signs out to sign in there', async () => {
    const page = await signedInToDemo();
    await page.goto('/acme/login');
    await page.getByRole('heading', { name: 'Sign in to Acme' }).waitFor();
    const notice = page.getByRole('status').filter({ hasText: 'You are signed in to Demo' });
    await notice.waitFor();
    expect(await notice.textContent()).toContain(`You are signed in to Demo as ${ADMIN_EMAIL}.`);
    expect(new URL(page.url()).pathname).toBe('/acme/login');
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await viewShot(page, `other-organisation-login-${scheme}-1440`, 1440);
      await viewShot(page, `other-organisation-login-${scheme}-390`, 390);
    }
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize(DESKTOP);

    await notice.getByRole('button', { name: 'Sign out of Demo' }).click();
    await notice.waitFor({ state: 'detached' });
    expect(new URL(page.url()).pathname).toBe('/acme/login');
    await page.getByRole('heading', { name: 'Sign in to Acme' }).waitFor();
    await page.getByLabel('Email').fill(ACME_ADMIN);
    await page.getByLabel('Password', { exact: true }).fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();
    // Signed in to Acme now: Demo's sign-in is the other organisation's.
    await page.goto('/demo/login');
    await page.getByText(`You are signed in to Acme as ${ACME_ADMIN}.`).waitFor();
  });

  it('offers a way back to the organisation signed in to', async () => {
    const page = await signedInToDemo();
    await page.goto('/acme/login');
    await page.getByRole('link', { name: 'Back to Demo' }).click();
    await page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
  });
});

describe('removing a member', () => {
  it('warns that single sign-on will not let them back in unless invited again', async () => {
    const page = await signedInToDemo();
    await page.goto('/admin/users');
    await page.getByRole('button', { name: `Remove ${LEAVER}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Remove Member' });
    await dialog
      .getByText('single sign-on will not let them back in unless you invite them again.', { exact: false })
      .waitFor();
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await viewShot(page, `remove-member-dialog-${scheme}-1440`, 1440);
      await viewShot(page, `remove-member-dialog-${scheme}-390`, 390);
    }
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
  });
});
