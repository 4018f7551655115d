import type { RouteObject } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  initialPayload,
  jsonResponse,
  projectFixture,
  environmentRoute,
  renderRoute,
  stubApi,
} from '../../testing/test-utils';
import { EnvironmentFeaturesPage } from '../routes/environment-features-page';
import { HomePage } from '../routes/home-page';

/** The home page and an environment's feature list, inside the app's shell. */
const shellRoutes: RouteObject[] = [
  { path: '/', element: <HomePage /> },
  environmentRoute([{ path: 'features', element: <EnvironmentFeaturesPage /> }]),
];

function render(path: string, payload = initialPayload(), handlers: Parameters<typeof stubApi>[0] = {}) {
  payload.projects.push(projectFixture('app', 'Mobile app', [{ key: 'staging', name: 'Staging' }]));
  const calls = stubApi({ 'GET /api/v1/initial': () => jsonResponse(200, payload), ...handlers });
  return { ...renderRoute(shellRoutes, path, { shell: true }), calls };
}

const banner = (name: string) => screen.queryByRole('status', { name });

describe('environment banners', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('marks a local environment and explains it on request', async () => {
    render('/projects/web/environments/dev/features');
    await screen.findByText('Development environment of Web shop');
    const local = banner('LOCAL ENVIRONMENT');
    expect(local).toBeVisible();
    expect(banner('PRODUCTION ENVIRONMENT')).toBeNull();

    const user = userEvent.setup();
    await user.click(within(local!).getByRole('button', { name: 'Learn more' }));
    const dialog = await screen.findByRole('dialog', { name: 'Local environments' });
    expect(dialog.textContent).toContain(
      "A local environment is one that runs on a developer's own machine.",
    );
    await user.click(within(dialog).getByRole('button', { name: 'Got it' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('warns that a production environment affects live users', async () => {
    render('/projects/web/environments/production/features');
    await screen.findByText('Production environment of Web shop');
    expect(banner('PRODUCTION ENVIRONMENT')?.textContent).toContain('Changes here affect live users');
    expect(banner('LOCAL ENVIRONMENT')).toBeNull();
  });

  it('shows no banner for an ordinary environment', async () => {
    render('/projects/app/environments/staging/features');
    await screen.findByText('Staging environment of Mobile app');
    expect(banner('PRODUCTION ENVIRONMENT')).toBeNull();
    expect(banner('LOCAL ENVIRONMENT')).toBeNull();
  });

  it('shows no banner outside an environment', async () => {
    render('/');
    await screen.findByRole('heading', { name: 'Home' });
    expect(banner('PRODUCTION ENVIRONMENT')).toBeNull();
  });

  it('says when changes go through change requests, with the way to them', async () => {
    render('/projects/web/environments/production/features', initialPayload(), {
      'GET /api/v1/projects/web/environments/production/change-request-policy': () =>
        jsonResponse(200, { required: true, mayBypass: false, changeRequestId: null }),
    });
    const protectedBanner = await screen.findByRole('status', {
      name: 'Changes to Production go through change requests.',
    });
    expect(within(protectedBanner).getByRole('link', { name: 'Change requests' })).toHaveAttribute(
      'href',
      '/projects/web/environments/production/change-requests',
    );
  });

  it('tells every member, an editor too, and asks nothing of the approval settings they may not read', async () => {
    const payload = initialPayload();
    payload.principalUser.authorities = ['ROLE_ORGANISATION_EDITOR'];
    const { calls } = render('/projects/web/environments/production/features', payload, {
      'GET /api/v1/projects/web/environments/production/change-request-policy': () =>
        jsonResponse(200, { required: true, mayBypass: false, changeRequestId: null }),
    });
    expect(
      await screen.findByRole('status', { name: 'Changes to Production go through change requests.' }),
    ).toBeVisible();
    expect(calls.some((call) => call.path.endsWith('/approval-settings'))).toBe(false);
  });
});
