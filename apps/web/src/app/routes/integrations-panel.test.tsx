import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
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
import { AdminPage } from './admin-page';

/** The admin entries of the route table that reach the Integrations tab and the project page. */
const routes: RouteObject[] = [
  { path: 'admin/:adminTab', element: <AdminPage /> },
  { path: 'admin/:adminTab/:projectKey', element: <AdminPage /> },
  { path: 'admin/projects/:projectKey', element: <AdminPage tab="projects" /> },
  { path: 'admin/integrations/jira/:jiraIntegrationId', element: <AdminPage tab="integrations" /> },
];

function renderAdmin(path: string, payload: InitialPayload = initialPayload()) {
  const calls = stubApi({
    'GET /api/v1/initial': () => jsonResponse(200, payload),
    'GET /api/v1/projects': () => jsonResponse(200, payload.projects.map(withSdkKeys)),
    'GET /api/v1/integrations': () => jsonResponse(200, []),
    'GET /api/v1/integrations/available': () =>
      jsonResponse(200, { slack: { configured: true }, jira: { enabled: true, connectedId: null } }),
    'GET /api/v1/integrations/jira/connect-token': () =>
      jsonResponse(200, { token: 'vxj_token', expiresDate: '2030-01-01T00:00:00.000Z' }),
    'GET /api/v1/projects/web/webhooks': () => jsonResponse(200, []),
  });
  return { ...renderRoute(routes, path), calls };
}

function withFlags(flags: Partial<InitialPayload['flags']>): InitialPayload {
  return initialPayload({ flags: { ...allFlagsOn, ...flags } });
}

function nonAdmin(): InitialPayload {
  const payload = initialPayload();
  payload.principalUser.authorities = ['ROLE_ORGANISATION_EDITOR'];
  return payload;
}

const selectedTab = () =>
  within(screen.getByRole('tablist', { name: 'Admin sections' })).getByRole('tab', { selected: true });

describe('Admin › Integrations routes', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('shows the Integrations screen under its tab', async () => {
    renderAdmin('/admin/integrations');
    expect(await screen.findByRole('heading', { name: 'Integrations' })).toBeVisible();
    expect(await screen.findByText('No integrations are installed yet.')).toBeVisible();
    expect(selectedTab().textContent).toBe('Integrations');
  });

  it('tells other users that integrations are for organisation admins', async () => {
    renderAdmin('/admin/integrations', nonAdmin());
    expect(await screen.findByText('Only organisation admins may manage integrations.')).toBeVisible();
  });

  it('is not found with flag integrations off', async () => {
    renderAdmin('/admin/integrations', withFlags({ integrations: false }));
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeVisible();
  });

  it('shows the Jira pages under the Integrations tab, with flag jira-integration', async () => {
    const { unmount } = renderAdmin('/admin/integrations/jira/connect');
    expect(await screen.findByRole('heading', { name: 'Connect Jira' })).toBeVisible();
    expect(selectedTab().textContent).toBe('Integrations');
    unmount();

    renderAdmin('/admin/integrations/jira/connect', withFlags({ 'jira-integration': false }));
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeVisible();
  });

  it('is not found for anything else below the tab', async () => {
    renderAdmin('/admin/integrations/slack');
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeVisible();
  });

  it('shows the project’s Webhooks below its environments, with flag integrations', async () => {
    const { unmount } = renderAdmin('/admin/projects/web');
    expect(await screen.findByRole('heading', { name: 'Webhooks' })).toBeVisible();
    expect(await screen.findByText('This project has no webhooks yet.')).toBeVisible();
    unmount();

    const { calls } = renderAdmin('/admin/projects/web', withFlags({ integrations: false }));
    expect(await screen.findByRole('heading', { name: 'Environments' })).toBeVisible();
    expect(screen.queryByRole('heading', { name: 'Webhooks' })).toBeNull();
    expect(calls.some((c) => c.path.includes('/webhooks'))).toBe(false);
  });
});
