import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { InitialPayload } from '@vexil/core';
import {
  allFlagsOn,
  findOpenMenu,
  initialPayload,
  jsonResponse,
  renderRoute,
  stubApi,
} from '../../testing/test-utils';
import { HomePage } from '../routes/home-page';

/*
 * The welcome walkthrough in the app's shell (docs/product.md §2 "Onboarding walkthrough", §4): shown to
 * a user who never closed it while flag welcome-message is on, and replayed from the profile menu.
 */

const READ_DATE = '2026-03-11T10:00:00.000Z';

function fresh(overrides: Partial<InitialPayload> = {}): InitialPayload {
  const payload = initialPayload(overrides);
  payload.principalUser.settings = { introReadDate: null };
  return payload;
}

/** Home in the shell as `payload`'s user; the server marks the intro read and then says so. */
function renderHome(payload: InitialPayload) {
  let read = payload.principalUser.settings.introReadDate;
  const readPath = `/api/v1/users/${payload.principalUser.id}/settings/intro/read`;
  const calls = stubApi({
    'GET /api/v1/initial': () =>
      jsonResponse(200, {
        ...payload,
        principalUser: { ...payload.principalUser, settings: { introReadDate: read } },
      }),
    [`PUT ${readPath}`]: () => {
      read = READ_DATE;
      return jsonResponse(200, { introReadDate: read });
    },
  });
  renderRoute([{ path: '/', element: <HomePage /> }], '/', { shell: true });
  return {
    user: userEvent.setup(),
    readCalls: () => calls.filter((call) => call.method === 'PUT' && call.path === readPath),
  };
}

const tour = (options?: { timeout: number }) =>
  screen.findByRole('dialog', { name: 'Welcome to Vexil' }, { timeout: options?.timeout ?? 5_000 });

describe('the welcome walkthrough in the shell', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('opens for a user with no introReadDate, and stays closed once skipped', async () => {
    const { user, readCalls } = renderHome(fresh());
    const dialog = await tour();
    await user.click(within(dialog).getByRole('button', { name: 'Skip' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(readCalls()).toHaveLength(1);
    // The session is reloaded with the date; the walkthrough does not come back.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('does not open for a user who closed it before', async () => {
    renderHome(initialPayload());
    await screen.findByRole('heading', { name: 'Home' });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('does not open while flag welcome-message is off, and the profile menu offers no replay', async () => {
    const { user } = renderHome(fresh({ flags: { ...allFlagsOn, 'welcome-message': false } }));
    await screen.findByRole('heading', { name: 'Home' });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(screen.queryByRole('dialog')).toBeNull();
    await user.click(screen.getByRole('button', { name: /Account menu for Demo Admin/ }));
    const menu = await findOpenMenu();
    expect(within(menu).queryByRole('menuitem', { name: 'Welcome tour' })).toBeNull();
  });

  it('replays from the profile menu, and marks the intro read again when done', async () => {
    const { user, readCalls } = renderHome(initialPayload());
    await screen.findByRole('heading', { name: 'Home' });
    expect(screen.queryByRole('dialog')).toBeNull();

    await user.click(screen.getByRole('button', { name: /Account menu for Demo Admin/ }));
    const menu = await findOpenMenu();
    await user.click(within(menu).getByRole('menuitem', { name: 'Welcome tour' }));
    let dialog = await tour();
    for (let step = 1; step < 9; step++) {
      await user.click(within(dialog).getByRole('button', { name: 'Next' }));
      dialog = screen.getByRole('dialog');
    }
    await user.click(within(dialog).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(readCalls()).toHaveLength(1);
  });
});
