import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { RouteObject } from 'react-router';
import type { InitialPayload } from '@vexil/core';
import {
  allFlagsOn,
  initialPayload,
  jsonResponse,
  renderRoute,
  stubApi,
  withSdkKeys,
} from '../../testing/test-utils';
import { AdminIndexRedirect, AdminPage } from './admin-page';

/** The admin entries of the route table. */
const routes: RouteObject[] = [
  { path: 'admin', element: <AdminIndexRedirect /> },
  { path: 'admin/:adminTab', element: <AdminPage /> },
  { path: 'admin/:adminTab/:projectKey', element: <AdminPage /> },
  { path: 'admin/projects/:projectKey', element: <AdminPage tab="projects" /> },
];

function renderAdmin(path: string, payload: InitialPayload = initialPayload()) {
  stubApi({
    'GET /api/v1/initial': () => jsonResponse(200, payload),
    'GET /api/v1/projects': () => jsonResponse(200, payload.projects.map(withSdkKeys)),
  });
  return renderRoute(routes, path);
}

function nonAdmin(): InitialPayload {
  const payload = initialPayload();
  payload.principalUser.authorities = ['ROLE_ORGANISATION_EDITOR'];
  return payload;
}

async function tabNames() {
  const list = await screen.findByRole('tablist', { name: 'Admin sections' });
  return within(list)
    .getAllByRole('tab')
    .map((tab) => tab.textContent);
}

const pathOf = (router: ReturnType<typeof renderRoute>['router']) => router.state.location.pathname;

describe('admin tabs', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('sends /admin to the projects tab', async () => {
    const { router } = renderAdmin('/admin');
    expect(await screen.findByRole('heading', { name: 'Web shop' })).toBeVisible();
    expect(pathOf(router)).toBe('/admin/projects');
    expect(screen.getByRole('tab', { name: 'Projects' }).getAttribute('aria-selected')).toBe('true');
  });

  it('shows every tab to an organisation admin with every flag on', async () => {
    renderAdmin('/admin/projects');
    expect(await tabNames()).toEqual([
      'Projects',
      'Team',
      'Roles',
      'Access Tokens',
      'Single sign-on',
      'Audit',
      'Billing',
      'Integrations',
    ]);
  });

  it('hides the tabs whose flag is off, and treats them as not found', async () => {
    const flags = {
      ...allFlagsOn,
      'roles-admin': false,
      'access-tokens': false,
      billing: false,
      integrations: false,
    };
    const first = renderAdmin('/admin/projects', initialPayload({ flags }));
    expect(await tabNames()).toEqual(['Projects', 'Team', 'Single sign-on', 'Audit']);
    first.unmount();

    renderAdmin('/admin/billing', initialPayload({ flags }));
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeVisible();
  });

  it('sends other users from /admin to Audit, the one tab they may use', async () => {
    const { router } = renderAdmin('/admin', nonAdmin());
    expect(await tabNames()).toEqual(['Audit']);
    expect(pathOf(router)).toBe('/admin/audit');
    expect(screen.getByRole('tab', { name: 'Audit' }).getAttribute('aria-selected')).toBe('true');
  });

  it.each([
    ['projects', 'Projects', 'Only organisation admins may manage projects.'],
    ['users', 'Team', 'Only organisation admins may manage the team.'],
    ['roles', 'Roles', 'Only organisation admins may manage roles.'],
    ['tokens', 'Access Tokens', 'Only organisation admins may create access tokens.'],
    ['sso', 'Single sign-on', 'Only organisation admins may manage single sign-on.'],
    ['billing', 'Billing', 'Only organisation admins may manage billing...'],
    ['integrations', 'Integrations', 'Only organisation admins may manage integrations.'],
  ])(
    'tells other users on /admin/%s, under its own selected tab, that it is for organisation admins',
    async (path, title, message) => {
      renderAdmin(`/admin/${path}`, nonAdmin());
      expect(await screen.findByText(message)).toBeVisible();
      // In the tabs' usual order: Audit comes before Billing and Integrations.
      expect((await tabNames()).sort()).toEqual([title, 'Audit'].sort());
      expect(screen.getByRole('tab', { name: title }).getAttribute('aria-selected')).toBe('true');
    },
  );

  it('treats an unknown tab as not found', async () => {
    renderAdmin('/admin/nothing-here');
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeVisible();
  });

  it('navigates to /admin/{tab} when the tab changes', async () => {
    const { router } = renderAdmin('/admin/projects');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('tab', { name: 'Team' }));
    expect(await screen.findByRole('heading', { name: 'Team Management' })).toBeVisible();
    expect(pathOf(router)).toBe('/admin/users');

    await user.click(screen.getByRole('tab', { name: 'Projects' }));
    expect(await screen.findByRole('heading', { name: 'Web shop' })).toBeVisible();
    expect(pathOf(router)).toBe('/admin/projects');
  });

  it('shows the billing pages under the Billing tab', async () => {
    stubApi({
      'GET /api/v1/initial': () => jsonResponse(200, initialPayload()),
      'GET /api/v1/billing/info': () => jsonResponse(200, { lastFour: null, brand: null, customer: null }),
    });
    const { unmount } = renderRoute(routes, '/admin/billing/manage');
    expect(await screen.findByRole('heading', { name: 'Billing details' })).toBeVisible();
    expect(screen.getByRole('tab', { name: 'Billing' }).getAttribute('aria-selected')).toBe('true');
    unmount();

    renderRoute(routes, '/admin/billing/nothing-here');
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeVisible();
  });

  it('shows the organisation’s audit log on the Audit tab, with its markdown, and Load More', async () => {
    const item = (n: number) => ({
      id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
      title: `Project P${n} created`,
      description: `admin@example.com created the project **P${n}** (\`p${n}\`).`,
      createdDate: '2026-11-21T10:00:00.000Z',
    });
    const requested: string[] = [];
    stubApi({
      'GET /api/v1/initial': () => jsonResponse(200, nonAdmin()),
      'GET /api/v1/audit-items': ({ url }) => {
        const page = Number(url.searchParams.get('page'));
        requested.push(`${page}`);
        return jsonResponse(200, {
          content: [item(page * 2 + 1), item(page * 2 + 2)],
          last: page === 1,
          page,
          pageSize: 50,
        });
      },
    });
    renderRoute(routes, '/admin/audit');
    expect(await screen.findByText('Project P1 created')).toBeVisible();
    expect(screen.getByText('P1', { selector: 'strong' })).toBeVisible();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Load More' }));
    expect(await screen.findByText('Project P4 created')).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Load More' })).toBeNull();
    expect(requested).toEqual(['0', '1']);
  });

  it('says the audit log is not on the plan when the server refuses it', async () => {
    stubApi({
      'GET /api/v1/initial': () => jsonResponse(200, initialPayload()),
      'GET /api/v1/audit-items': () =>
        jsonResponse(403, { title: 'Audit logs are not available on your current plan.' }),
    });
    renderRoute(routes, '/admin/audit');
    expect(await screen.findByText('Audit logs are not available with the current plan.')).toBeVisible();
    expect(screen.getByRole('link', { name: 'Upgrade your plan' }).getAttribute('href')).toBe(
      '/admin/billing',
    );
  });
});
