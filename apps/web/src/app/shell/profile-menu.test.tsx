import { afterEach, describe, expect, it } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { accountKeys } from '../../entities/account/api/query-keys';
import { colorSchemeProps } from '../../lib/color-scheme';
import { createTestQueryClient, findOpenMenu, initialPayload } from '../../testing/test-utils';
import { RequireSession } from '../require-session';
import { theme } from '../theme';
import { ProfileMenu } from './profile-menu';

const defaultMatchMedia = window.matchMedia;

function systemPrefers(scheme: 'light' | 'dark') {
  window.matchMedia = (query: string) => ({
    ...defaultMatchMedia(query),
    matches: query === '(prefers-color-scheme: dark)' && scheme === 'dark',
  });
}

/**
 * The profile menu as the signed-in demo admin sees it, with the app's colour scheme settings (and
 * Mantine's test mode, which jsdom's zero-sized layout needs for menus to stay shown).
 */
function renderProfileMenu() {
  const queryClient = createTestQueryClient();
  queryClient.setQueryData(accountKeys.initial, initialPayload());
  const router = createMemoryRouter(
    [
      {
        path: '*',
        element: (
          <RequireSession>
            <ProfileMenu />
          </RequireSession>
        ),
      },
    ],
    { initialEntries: ['/'] },
  );
  return render(
    <MantineProvider theme={theme} env="test" {...colorSchemeProps}>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>,
  );
}

const pageScheme = () => document.documentElement.getAttribute('data-mantine-color-scheme');
const menuButton = () => screen.getByRole('button', { name: 'Account menu for Demo Admin' });

async function openAppearance(user = userEvent.setup()) {
  await user.click(menuButton());
  const menu = await findOpenMenu();
  return within(menu).getByRole('group', { name: 'Appearance' });
}

function choices(group: HTMLElement) {
  return within(group)
    .getAllByRole('menuitemradio')
    .map((item) => [item.textContent, item.getAttribute('aria-checked')]);
}

describe('the profile menu’s appearance', () => {
  afterEach(() => {
    window.matchMedia = defaultMatchMedia;
    document.documentElement.removeAttribute('data-mantine-color-scheme');
  });

  it('follows the system until the user chooses', async () => {
    systemPrefers('dark');
    renderProfileMenu();
    expect(pageScheme()).toBe('dark');

    const appearance = await openAppearance();
    expect(choices(appearance)).toEqual([
      ['Light', 'false'],
      ['Dark', 'false'],
      ['System', 'true'],
    ]);
  });

  it('turns the page light when Light is chosen, keeps the menu open and remembers it', async () => {
    systemPrefers('dark');
    const user = userEvent.setup();
    const { unmount } = renderProfileMenu();
    const appearance = await openAppearance(user);

    await user.click(within(appearance).getByRole('menuitemradio', { name: 'Light' }));
    expect(pageScheme()).toBe('light');
    expect(choices(appearance)).toEqual([
      ['Light', 'true'],
      ['Dark', 'false'],
      ['System', 'false'],
    ]);
    expect(screen.getByRole('menu')).toBeVisible();

    // Coming back later: the app starts light although the system still prefers dark.
    unmount();
    document.documentElement.removeAttribute('data-mantine-color-scheme');
    renderProfileMenu();
    expect(pageScheme()).toBe('light');
    expect(choices(await openAppearance(user))[0]).toEqual(['Light', 'true']);
  });

  it('follows the system again when System is chosen', async () => {
    systemPrefers('dark');
    const user = userEvent.setup();
    renderProfileMenu();
    const appearance = await openAppearance(user);
    await user.click(within(appearance).getByRole('menuitemradio', { name: 'Light' }));
    expect(pageScheme()).toBe('light');

    await user.click(within(appearance).getByRole('menuitemradio', { name: 'System' }));
    expect(pageScheme()).toBe('dark');
    expect(choices(appearance)[2]).toEqual(['System', 'true']);
  });

  it('can be chosen with the keyboard alone', async () => {
    systemPrefers('light');
    const user = userEvent.setup();
    renderProfileMenu();
    await user.tab();
    expect(document.activeElement).toBe(menuButton());
    await user.keyboard('{Enter}');
    await findOpenMenu();

    // Profile, Admin, Welcome tour, then the appearance choices.
    await user.keyboard('{ArrowDown}{ArrowDown}{ArrowDown}{ArrowDown}{ArrowDown}');
    expect(document.activeElement?.textContent).toBe('Dark');
    await user.keyboard('{Enter}');
    await waitFor(() => expect(pageScheme()).toBe('dark'));
    expect(screen.getByRole('menuitemradio', { name: 'Dark' }).getAttribute('aria-checked')).toBe('true');
  });
});
