import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import { Navigate, type RouteObject } from 'react-router';
import {
  environmentRoute,
  initialPayload,
  jsonResponse,
  projectFixture,
  renderRoute,
  stubApi,
} from '../../testing/test-utils';
import { EnvironmentFeaturesPage } from './environment-features-page';
import { ProjectFeatureRedirect } from './project-feature-redirect';

/** The frame's entries of the route table, with the feature list below it. */
const routes: RouteObject[] = [
  {
    path: 'projects/:projectKey/features/:featureKey/:featureDetailPageTab?',
    element: <ProjectFeatureRedirect />,
  },
  environmentRoute([
    { index: true, element: <Navigate to="features" replace /> },
    { path: 'features', element: <EnvironmentFeaturesPage /> },
  ]),
];

function render(path: string) {
  const payload = initialPayload();
  payload.projects.push(projectFixture('app', 'Mobile app', [{ key: 'staging', name: 'Staging' }]));
  stubApi({ 'GET /api/v1/initial': () => jsonResponse(200, payload) });
  return renderRoute(routes, path);
}

const development = initialPayload().projects[0]!.environments[1]!;

describe('/projects/:projectKey/environments/:environmentKey', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    localStorage.clear();
  });

  it('opens the feature list from the bare environment path', async () => {
    const { router } = render('/projects/web/environments/production');
    expect(await screen.findByRole('heading', { name: 'Features' })).toBeVisible();
    expect(screen.getByText('Production environment of Web shop')).toBeVisible();
    expect(router.state.location.pathname).toBe('/projects/web/environments/production/features');
  });

  it('rewrites an environment id in the address to its key, keeping the rest of the address', async () => {
    const { router } = render(`/projects/web/environments/${development.id}/features?q=checkout#list`);
    expect(await screen.findByText('Development environment of Web shop')).toBeVisible();
    const { pathname, search, hash } = router.state.location;
    expect([pathname, search, hash]).toEqual([
      '/projects/web/environments/dev/features',
      '?q=checkout',
      '#list',
    ]);
  });

  it('rewrites a bare environment id and then opens its feature list', async () => {
    const { router } = render(`/projects/web/environments/${development.id}`);
    expect(await screen.findByText('Development environment of Web shop')).toBeVisible();
    expect(router.state.location.pathname).toBe('/projects/web/environments/dev/features');
  });

  it.each([
    ['an unknown project', '/projects/nope/environments/production/features'],
    ['an unknown environment', '/projects/web/environments/nope/features'],
    ["another project's environment id", `/projects/app/environments/${development.id}`],
  ])('shows Page not found for %s', async (_case, path) => {
    const { router } = render(path);
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeVisible();
    expect(router.state.location.pathname).toBe(path);
  });
});

describe('/projects/:projectKey/features/:featureKey', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    localStorage.clear();
  });

  it('goes to the same feature under a non-production environment when none was used in the project', async () => {
    // The test payload lists Production first: the choice does not rest on the server's order alone.
    const { router } = render('/projects/web/features/checkout?tab=1');
    await vi.waitFor(() =>
      expect(router.state.location.pathname).toBe('/projects/web/environments/dev/features/checkout'),
    );
    expect(router.state.location.search).toBe('?tab=1');
  });

  it('goes to the environment of the project the user last worked in', async () => {
    const { router } = render('/projects/web/environments/production/features');
    expect(await screen.findByText('Production environment of Web shop')).toBeVisible();
    await router.navigate('/projects/app/environments/staging/features');
    expect(await screen.findByText('Staging environment of Mobile app')).toBeVisible();
    await router.navigate('/projects/web/features/checkout');
    await vi.waitFor(() =>
      expect(router.state.location.pathname).toBe('/projects/web/environments/production/features/checkout'),
    );
  });

  it('keeps the tab the address names', async () => {
    const { router } = render('/projects/web/features/checkout/history');
    await vi.waitFor(() =>
      expect(router.state.location.pathname).toBe('/projects/web/environments/dev/features/checkout/history'),
    );
  });

  it('shows Page not found for an unknown tab, where it was asked', async () => {
    const { router } = render('/projects/web/features/checkout/changelog');
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeVisible();
    expect(router.state.location.pathname).toBe('/projects/web/features/checkout/changelog');
  });

  it('shows Page not found for an unknown project', async () => {
    const { router } = render('/projects/nope/features/checkout');
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeVisible();
    expect(router.state.location.pathname).toBe('/projects/nope/features/checkout');
  });
});
