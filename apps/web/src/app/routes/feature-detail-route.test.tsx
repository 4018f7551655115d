import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  auditPageFixture,
  DETAIL,
  featureFixture,
  impressionsFixture,
  resetOverlays,
} from '../../test-fixtures';
import { environmentRoute, initialPayload, jsonResponse, renderRoute, stubApi } from '../../test-utils';
import { FeatureDetailRoute } from './feature-detail-route';

function render(path: string) {
  stubApi({
    'GET /api/v1/projects/web/features/checkout': () => jsonResponse(200, featureFixture()),
    'GET /api/v1/projects/web/targets': () => jsonResponse(200, []),
    'GET /api/v2/segments/web/production': () => jsonResponse(200, []),
    'GET /api/v2/segments/web/dev': () => jsonResponse(200, []),
    'GET /api/v1/variant-daily-impressions': () => jsonResponse(200, impressionsFixture()),
    'GET /api/v1/audit-items': () => jsonResponse(200, auditPageFixture(0, [])),
  });
  const rendered = renderRoute(
    environmentRoute([
      { path: 'features/:featureKey/:featureDetailPageTab?', element: <FeatureDetailRoute /> },
    ]),
    path,
    { session: initialPayload() },
  );
  return { ...rendered, pathname: () => rendered.router.state.location.pathname };
}

describe('/projects/:projectKey/environments/:environmentKey/features/:featureKey/:featureDetailPageTab?', () => {
  afterEach(() => {
    resetOverlays();
    vi.unstubAllGlobals();
  });

  it('shows the targeting of the environment in the Targeting tab', async () => {
    const { pathname } = render(`${DETAIL}/targeting`);
    expect(await screen.findByRole('heading', { name: 'Targeting for Production' })).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Targeting', selected: true })).toBeTruthy();
    expect(await screen.findByRole('button', { name: 'Add rule' })).toBeTruthy();
    expect(pathname()).toBe(`${DETAIL}/targeting`);
  });

  it('goes to the same feature and tab in the environment chosen in the breadcrumb', async () => {
    const { pathname } = render(`${DETAIL}/targeting`);
    const breadcrumb = await screen.findByRole('navigation', { name: 'Breadcrumb' });
    const user = userEvent.setup();
    await user.click(within(breadcrumb).getByRole('button', { name: 'Environment: Production' }));
    await user.click(await screen.findByRole('menuitem', { name: /Development/ }));
    expect(await screen.findByRole('heading', { name: 'Targeting for Development' })).toBeTruthy();
    expect(pathname()).toBe('/projects/web/environments/dev/features/checkout/targeting');
  });
});
