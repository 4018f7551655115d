import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { notifications } from '@mantine/notifications';
import { closeAllModals } from '../../../lib/modals';
import { initialPayload, jsonResponse, renderRoute, stubApi } from '../../../testing/test-utils';
import { ProfilePage } from './profile-page';

function renderProfile() {
  return renderRoute(
    [
      { path: 'profile', element: <ProfilePage /> },
      { path: 'logout', element: <p>Signing out</p> },
    ],
    '/profile',
  );
}

describe('Profile: Sign out everywhere', () => {
  afterEach(() => {
    notifications.clean();
    closeAllModals();
    vi.unstubAllGlobals();
  });

  it('asks first, ends every session on the server, then signs out here', async () => {
    const calls = stubApi({
      'GET /api/v1/initial': () => jsonResponse(200, initialPayload()),
      'POST /api/v1/account/sessions/revoke-all': () => new Response(null, { status: 204 }),
    });
    const { router } = renderProfile();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Sign out everywhere' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sign out everywhere' });
    expect(
      within(dialog).getByText(/End all of your sessions, in every browser and on every device/),
    ).toBeVisible();
    await user.click(within(dialog).getByRole('button', { name: 'Sign out everywhere' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/logout'));
    expect(calls.filter((c) => c.path === '/api/v1/account/sessions/revoke-all')).toHaveLength(1);
  });

  it('does nothing when the confirmation is cancelled', async () => {
    const calls = stubApi({ 'GET /api/v1/initial': () => jsonResponse(200, initialPayload()) });
    const { router } = renderProfile();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Sign out everywhere' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(router.state.location.pathname).toBe('/profile');
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('stays, with the reason, when the server could not do it', async () => {
    stubApi({
      'GET /api/v1/initial': () => jsonResponse(200, initialPayload()),
      'POST /api/v1/account/sessions/revoke-all': () =>
        jsonResponse(500, { title: 'Something went wrong on our side. Please try again.' }),
    });
    const { router } = renderProfile();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Sign out everywhere' }));
    await user.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Sign out everywhere' }),
    );
    expect(await screen.findByText('Something went wrong on our side. Please try again.')).toBeVisible();
    expect(router.state.location.pathname).toBe('/profile');
  });
});
