import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { jsonResponse, renderRoutes, stubApi } from '../../../testing/test-utils';
import { FindOrganisationPage } from './find-organisation-page';

function renderPage() {
  return renderRoutes(
    [
      { path: 'find-organisation', element: <FindOrganisationPage /> },
      { path: 'login', element: <p>Sign-in page</p> },
    ],
    '/find-organisation',
  );
}

async function submit(email: string) {
  const user = userEvent.setup();
  await user.type(screen.getByLabelText('Email'), email);
  await user.click(screen.getByRole('button', { name: 'Send me my organisations' }));
  return user;
}

describe('Find organisation (/find-organisation)', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('sends the address and says an e-mail was sent', async () => {
    const calls = stubApi({
      'POST /api/v1/account/findorganisations': () => new Response(null, { status: 204 }),
    });
    renderPage();
    await submit('ada@example.com');
    expect(
      await screen.findByText(
        'If this address belongs to any organisation, an email listing their sign-in addresses has been sent to it.',
      ),
    ).toBeVisible();
    expect(calls).toEqual([
      { method: 'POST', path: '/api/v1/account/findorganisations', body: { email: 'ada@example.com' } },
    ]);
  });

  it('refuses a malformed address without calling the server', async () => {
    const calls = stubApi({});
    renderPage();
    await submit('nope');
    expect(await screen.findByText('Must be a valid email address')).toBeVisible();
    expect(calls).toEqual([]);
  });

  it('shows the server’s message when it has one', async () => {
    stubApi({
      'POST /api/v1/account/findorganisations': () =>
        jsonResponse(429, {
          title: 'Too many e-mails were asked for this address. Please wait and try again later.',
        }),
    });
    renderPage();
    await submit('ada@example.com');
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Too many e-mails were asked for this address. Please wait and try again later.',
    );
  });

  it('says "An error occurred sending the form." when the server gave no message', async () => {
    stubApi({ 'POST /api/v1/account/findorganisations': () => new Response('bad gateway', { status: 502 }) });
    renderPage();
    await submit('ada@example.com');
    expect((await screen.findByRole('alert')).textContent).toBe('An error occurred sending the form.');
  });

  it('leads back to sign-in', async () => {
    stubApi({});
    const { router } = renderPage();
    await userEvent.setup().click(screen.getByRole('link', { name: 'Back to sign in' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
  });
});
