import { describe, expect, it } from 'vitest';
import { signIn, signInWithForm, useFreshPage } from './support/browser';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from './support/server';

const t = useFreshPage();

const pathname = () => new URL(t.page.url()).pathname;

describe('session', () => {
  it('takes a signed-out visitor to sign-up on the app address, then through sign-in back to the page they asked for', async () => {
    await t.page.goto('/profile');
    await t.page.getByRole('heading', { name: 'Confirm your e-mail' }).waitFor();
    expect(pathname()).toBe('/signup');

    await t.page.getByRole('link', { name: 'Sign in' }).click();
    await t.page.getByRole('heading', { name: 'Sign in to Vexil' }).waitFor();
    expect(pathname()).toBe('/login');

    await t.page.getByLabel('Organisation', { exact: true }).fill('demo');
    await t.page.getByRole('button', { name: 'Continue' }).click();
    await t.page.getByLabel('Email').fill(ADMIN_EMAIL);
    await t.page.getByLabel('Password', { exact: true }).fill(ADMIN_PASSWORD);
    await t.page.getByRole('button', { name: 'Sign in' }).click();

    await t.page.getByRole('heading', { name: 'Profile', level: 1 }).waitFor();
    expect(pathname()).toBe('/profile');
  });

  it('logs out from the profile menu, back to the remembered organisation login', async () => {
    await signInWithForm(t.page);
    await t.page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();

    await t.page.getByRole('button', { name: /Account menu/ }).click();
    await t.page.getByRole('menuitem', { name: 'Log Out' }).click();
    await t.page.getByRole('heading', { name: 'Sign in to Demo' }).waitFor();
    expect(pathname()).toBe('/demo/login');

    // The session is gone on the server too: the authenticated area asks to sign in again.
    await t.page.goto('/home');
    await t.page.getByRole('heading', { name: 'Sign in to Demo' }).waitFor();
  });

  it('signs the user out when a call answers 401 (/test/401)', async () => {
    await signIn(t.page);
    await t.page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();

    await t.page.goto('/test/401');
    await t.page.getByRole('heading', { name: 'Session test' }).waitFor();
    await t.page.getByRole('heading', { name: 'Sign in to Demo' }).waitFor({ timeout: 30_000 });
    expect(pathname()).toBe('/demo/login');
  });
});
