import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { jsonResponse, renderRoutes, stubApi } from '../../../testing/test-utils';
import { ResetPasswordPage } from './reset-password-page';

function renderPage(path = '/resetpassword?key=vxr_abc') {
  return renderRoutes(
    [
      { path: 'resetpassword', element: <ResetPasswordPage /> },
      { path: 'login', element: <p>Bare sign-in</p> },
      { path: ':organisation/login', element: <p>Organisation sign-in</p> },
    ],
    path,
  );
}

describe('Reset password (/resetpassword)', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('goes to /login without a key', async () => {
    stubApi({});
    const { router } = renderPage('/resetpassword');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
  });

  it('keeps Reset password disabled until both passwords are equal, and says when they differ', async () => {
    stubApi({});
    renderPage();
    const user = userEvent.setup();
    const submit = screen.getByRole('button', { name: 'Reset password' });
    expect(submit).toHaveProperty('disabled', true);
    await user.type(screen.getByLabelText('New password'), 'secret-1');
    await user.type(screen.getByLabelText('Confirm password'), 'secret-2');
    expect(screen.getByText('The two passwords do not match.')).toBeVisible();
    expect(submit).toHaveProperty('disabled', true);
    await user.clear(screen.getByLabelText('Confirm password'));
    await user.type(screen.getByLabelText('Confirm password'), 'secret-1');
    expect(screen.queryByText('The two passwords do not match.')).toBeNull();
    expect(submit).toHaveProperty('disabled', false);
  });

  it('shows the strength of the password as it is typed', async () => {
    stubApi({});
    renderPage();
    const user = userEvent.setup();
    const meter = screen.getByRole('meter', { name: 'Password strength' });
    expect(meter.getAttribute('aria-valuenow')).toBe('0');
    await user.type(screen.getByLabelText('New password'), 'abcd');
    expect(meter.getAttribute('aria-valuetext')).toBe('Very weak');
    await user.type(screen.getByLabelText('New password'), 'EFGH-1234-ijkl-5678');
    expect(meter.getAttribute('aria-valuetext')).toBe('Strong');
    expect(screen.getByText('Strength: Strong')).toBeVisible();
  });

  it('refuses a password under 4 characters with the docs/product.md message', async () => {
    const calls = stubApi({});
    renderPage();
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('New password'), 'abc');
    await user.type(screen.getByLabelText('Confirm password'), 'abc');
    await user.click(screen.getByRole('button', { name: 'Reset password' }));
    expect(await screen.findByText('Your password should be greater than 4 characters long')).toBeVisible();
    expect(calls).toEqual([]);
  });

  it('sets the password with the key, then offers to sign in to the organisation', async () => {
    const calls = stubApi({
      'POST /api/account/reset_password/finish': () => jsonResponse(200, { domain: 'acme' }),
    });
    const { router } = renderPage();
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('New password'), 'n3w password');
    await user.type(screen.getByLabelText('Confirm password'), 'n3w password');
    await user.click(screen.getByRole('button', { name: 'Reset password' }));
    expect(await screen.findByText(/Your password has been reset/)).toBeVisible();
    expect(calls[0]).toMatchObject({ body: { key: 'vxr_abc', password: 'n3w password' } });
    await user.click(screen.getByRole('link', { name: 'Sign in' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/acme/login'));
  });

  it('shows the server’s message for a dead key', async () => {
    stubApi({
      'POST /api/account/reset_password/finish': () =>
        jsonResponse(400, {
          title: 'There was an error resetting your password',
          detail:
            'This reset link is not valid: it may have expired or been used already. Ask for a new one.',
        }),
    });
    renderPage();
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('New password'), 'n3w password');
    await user.type(screen.getByLabelText('Confirm password'), 'n3w password');
    await user.click(screen.getByRole('button', { name: 'Reset password' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('There was an error resetting your password');
    expect(alert.textContent).toContain('it may have expired or been used already');
  });

  it('says "There was an error resetting your password" when the server gave no message', async () => {
    stubApi({ 'POST /api/account/reset_password/finish': () => new Response('oops', { status: 502 }) });
    renderPage();
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('New password'), 'n3w password');
    await user.type(screen.getByLabelText('Confirm password'), 'n3w password');
    await user.click(screen.getByRole('button', { name: 'Reset password' }));
    expect((await screen.findByRole('alert')).textContent).toContain(
      'There was an error resetting your password',
    );
  });
});
