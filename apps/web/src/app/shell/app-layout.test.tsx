import type { RouteObject } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { vi } from 'vitest';
import type { InitialPayload } from '@vexil/core';
import {
  allFlagsOn,
  initialPayload,
  jsonResponse,
  environmentRoute,
  renderRoute,
  stubApi,
  trialSubscription,
  findOpenMenu,
} from '../../testing/test-utils';
import { EnvironmentFeaturesPage } from '../routes/environment-features-page';
import { HomePage } from '../routes/home-page';

/** The home page and an environment's feature list, inside the app's shell. */
const shellRoutes: RouteObject[] = [
  { path: '/', element: <HomePage /> },
  environmentRoute([{ path: 'features', element: <EnvironmentFeaturesPage /> }]),
];

function renderShell(payload: InitialPayload, path = '/') {
  stubApi({ 'GET /api/v1/initial': () => jsonResponse(200, payload) });
  return renderRoute(shellRoutes, path, { shell: true });
}

async function mainNav() {
  await screen.findByRole('heading', { name: 'Home' });
  // The desktop navigation; the drawer's copy is not rendered until it opens.
  return screen.getByRole('navigation', { name: 'Main' });
}

async function openProfileMenu() {
  await userEvent.setup().click(screen.getByRole('button', { name: /Account menu for Demo Admin/ }));
  return findOpenMenu();
}

// Nothing remembered yet: the current environment is the first project's non-production one.
const base = '/projects/web/environments/dev';

describe('top navigation', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('links every item to the current environment', async () => {
    renderShell(initialPayload());
    const nav = await mainNav();
    const links = within(nav)
      .getAllByRole('link')
      // An icon-only item (Change requests, Schedule) is named by its label.
      .map((link) => [link.getAttribute('aria-label') ?? link.textContent, link.getAttribute('href')]);
    expect(links).toEqual([
      ['Home', '/'],
      ['Features', `${base}/features`],
      ['Users', `${base}/users`],
      ['Experiments', `${base}/experiments`],
      ['Segments', `${base}/segments`],
      ['Change requests', `${base}/change-requests`],
      ['Schedule', `${base}/schedule`],
      ['Tutorial', `${base}/tutorial`],
    ]);
    expect(within(nav).getByRole('link', { name: 'Home' }).getAttribute('aria-current')).toBe('page');
  });

  it('hides each item whose UI flag is off', async () => {
    renderShell(
      initialPayload({
        flags: {
          ...allFlagsOn,
          home: false,
          traffic: false,
          experiments: false,
          segments: false,
          'tutorial-tab': false,
        },
      }),
    );
    const nav = await mainNav();
    expect(
      within(nav)
        .getAllByRole('link')
        .map((link) => link.getAttribute('aria-label') ?? link.textContent),
    ).toEqual(['Features', 'Change requests', 'Schedule']);
  });

  it('hides the environment items when there is no environment', async () => {
    renderShell(initialPayload({ projects: [] }));
    const nav = await mainNav();
    expect(
      within(nav)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['Home']);
  });

  it('links to Help, and to the API reference in a new tab', async () => {
    renderShell(initialPayload());
    await mainNav();
    expect(screen.getByRole('link', { name: 'Help' }).getAttribute('href')).toBe('/help');
    const reference = screen.getByRole('link', { name: /API reference/ });
    expect(reference.getAttribute('href')).toBe('/api/docs');
    expect(reference.getAttribute('target')).toBe('_blank');
    expect(screen.queryByRole('link', { name: /Docs/ })).toBeNull();
  });

  it('offers Help and the API reference in the narrow screens’ drawer too', async () => {
    renderShell(initialPayload());
    await mainNav();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Open navigation' }));
    const drawer = await screen.findByRole('dialog');
    expect(within(drawer).getByRole('link', { name: 'Help' }).getAttribute('href')).toBe('/help');
    expect(
      within(drawer)
        .getByRole('link', { name: /API reference/ })
        .getAttribute('href'),
    ).toBe('/api/docs');
  });

  it('offers Profile, Admin, the welcome tour and Log Out to an organisation admin', async () => {
    renderShell(initialPayload());
    await mainNav();
    const menu = await openProfileMenu();
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((item) => [item.textContent, item.getAttribute('href')]),
    ).toEqual([
      ['Profile', '/profile'],
      ['Admin', '/admin'],
      ['Welcome tour', null],
      ['Log Out', '/logout'],
    ]);
  });

  it('offers other users the Audit log instead of Admin, and no Profile or welcome tour when their flags are off', async () => {
    const payload = initialPayload({ flags: { ...allFlagsOn, profile: false, 'welcome-message': false } });
    payload.principalUser.authorities = ['ROLE_ORGANISATION_EDITOR'];
    renderShell(payload);
    await mainNav();
    const menu = await openProfileMenu();
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((item) => [item.textContent, item.getAttribute('href')]),
    ).toEqual([
      ['Audit log', '/admin/audit'],
      ['Log Out', '/logout'],
    ]);
  });

  it('shows the days left of a trial, linking to billing', async () => {
    renderShell(initialPayload({ subscription: trialSubscription(12) }));
    await mainNav();
    expect(screen.getByRole('link', { name: '12 days left in your trial' }).getAttribute('href')).toBe(
      '/admin/billing',
    );
  });

  it('shows no trial banner outside a trial', async () => {
    renderShell(initialPayload({ subscription: trialSubscription(0, false) }));
    await mainNav();
    expect(screen.queryByText(/left in your trial/)).toBeNull();
  });
});
