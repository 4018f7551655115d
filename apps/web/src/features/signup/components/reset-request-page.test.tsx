import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { jsonResponse, renderRoutes, stubApi } from '../../../testing/test-utils';
import { ResetRequestPage } from './reset-request-page';

function renderPage() {
  return renderRoutes(
    [
      { path: ':organisation/forgot-password', element: <ResetRequestPage /> },
      { path: ':organisation/login', element: <p>Sign-in page</p> },
    ],
    '/acme/forgot-password',
  );
}

describe('Reset request (/{organisation}/forgot-password)', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('asks for the e-mail, sends it with the organisation, then says an e-mail was sent', async () => {
    const calls = stubApi({
      'POST /api/account/reset_password/init': () => new Response(null, { status: 204 }),
    });
    renderPage();
    const user = userEvent.setup();
    expect(screen.getByRole('heading', { name: 'Reset your password' })).toBeVisible();
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(
      await screen.findByText('An email has been sent with details to reset your password.'),
    ).toBeVisible();
    expect(screen.getByRole('heading', { name: 'Check your e-mail' })).toBeVisible();
    expect(calls).toEqual([
      {
        method: 'POST',
        path: '/api/account/reset_password/init',
        body: { email: 'ada@example.com', domain: 'acme' },
      },
    ]);
  });

  it('refuses a malformed address without calling the server', async () => {
    const calls = stubApi({});
    renderPage();
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Email'), 'not-an-email');
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(await screen.findByText('Must be a valid email address')).toBeVisible();
    expect(calls).toEqual([]);
  });

  it('says the failure message of docs/product.md when the request fails', async () => {
    stubApi({
      'POST /api/account/reset_password/init': () =>
        jsonResponse(500, { title: 'Something went wrong on our side. Please try again.' }),
    });
    renderPage();
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'If your email exists for this organisation a password reset email will be sent. If you do not receive an email please contact your administrator',
    );
  });

  it('says so when too many e-mails were asked', async () => {
    stubApi({
      'POST /api/account/reset_password/init': () =>
        jsonResponse(429, {
          title: 'Too many e-mails were asked for this address. Please wait and try again later.',
        }),
    });
    renderPage();
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Too many e-mails were asked for this address. Please wait and try again later.',
    );
  });

  it('leads back to the organisation’s sign-in page', async () => {
    stubApi({});
    const { router } = renderPage();
    await userEvent.setup().click(screen.getByRole('link', { name: 'Back to sign in' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/acme/login'));
  });
});
