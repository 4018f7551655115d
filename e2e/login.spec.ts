import { describe, expect, it } from 'vitest';
import { screenshot, signInWithForm, useFreshPage } from './support/browser';
import { ADMIN_EMAIL } from './support/server';

const t = useFreshPage();

describe('login', () => {
  it('signs the demo admin in from /demo/login and lands on the home page', async () => {
    await t.page.goto('/demo/login');
    await t.page.getByRole('heading', { name: 'Sign in to Demo' }).waitFor();
    await screenshot(t.page, 'login');

    await signInWithForm(t.page);
    await t.page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();
    expect(new URL(t.page.url()).pathname).toBe('/');
  });

  it('asks for the organisation on the bare app address and goes to its login', async () => {
    await t.page.goto('/login');
    await t.page.getByRole('heading', { name: 'Sign in to Vexil' }).waitFor();
    await screenshot(t.page, 'login-organisation');
    await t.page.getByLabel('Organisation', { exact: true }).fill('demo');
    await t.page.getByRole('button', { name: 'Continue' }).click();
    await t.page.getByRole('heading', { name: 'Sign in to Demo' }).waitFor();
    expect(new URL(t.page.url()).pathname).toBe('/demo/login');
  });

  it('says "Please provide an email address." when the e-mail is empty', async () => {
    await t.page.goto('/demo/login');
    await t.page.getByLabel('Password', { exact: true }).fill('whatever');
    await t.page.getByRole('button', { name: 'Sign in' }).click();
    await t.page.getByText('Please provide an email address.').waitFor();
  });

  it('says "{value} is not a valid email." for an invalid e-mail', async () => {
    await t.page.goto('/demo/login');
    await t.page.getByLabel('Email').fill('not-an-email');
    await t.page.getByLabel('Password', { exact: true }).fill('whatever');
    await t.page.getByRole('button', { name: 'Sign in' }).click();
    await t.page.getByText('not-an-email is not a valid email.').waitFor();
  });

  it('says "Please provide a password." when the password is empty', async () => {
    await t.page.goto('/demo/login');
    await t.page.getByLabel('Email').fill(ADMIN_EMAIL);
    await t.page.getByRole('button', { name: 'Sign in' }).click();
    await t.page.getByText('Please provide a password.').waitFor();
  });

  it('says the combination is invalid for a wrong password', async () => {
    await signInWithForm(t.page, { password: 'not-the-password' });
    const alert = t.page.getByRole('alert').filter({ hasText: 'combination' });
    await alert.waitFor();
    expect(await alert.textContent()).toContain(
      'The email and password combination you have provided is invalid.',
    );
    expect(new URL(t.page.url()).pathname).toBe('/demo/login');
    await screenshot(t.page, 'login-failed');
  });
});
