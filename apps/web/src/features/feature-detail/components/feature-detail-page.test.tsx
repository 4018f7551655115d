import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { jsonResponse } from '../../../testing/test-utils';
import { controlFixture, DETAIL, featureFixture, resetOverlays } from '../../../testing/test-fixtures';
import { renderFeatureDetail } from '../../../testing/feature-detail-test-utils';

describe('Feature detail page', () => {
  afterEach(() => {
    resetOverlays();
    vi.unstubAllGlobals();
  });

  it('opens on Overview when the address names no tab', async () => {
    renderFeatureDetail(DETAIL);
    expect(await screen.findByRole('heading', { name: 'New checkout' })).toBeVisible();
    expect(screen.getByRole('tab', { name: 'Overview', selected: true })).toBeVisible();
    expect(screen.getByRole('table', { name: 'The feature in each environment' })).toBeVisible();
  });

  it('puts the tab in the address and shows the tab the address names', async () => {
    const { pathname } = renderFeatureDetail(`${DETAIL}/targeting`);
    expect(await screen.findByRole('heading', { name: 'Targeting tab in Production' })).toBeVisible();
    const user = userEvent.setup();

    await user.click(screen.getByRole('tab', { name: 'Settings' }));
    expect(await screen.findByRole('heading', { name: 'Feature Settings' })).toBeVisible();
    expect(screen.getByText('Settings apply across all environments')).toBeVisible();
    expect(pathname()).toBe(`${DETAIL}/settings`);

    await user.click(screen.getByRole('tab', { name: 'Audit' }));
    expect(await screen.findByText('Nothing has been recorded for this feature yet.')).toBeVisible();
    expect(pathname()).toBe(`${DETAIL}/audit`);

    await user.click(screen.getByRole('tab', { name: 'Overview' }));
    expect(pathname()).toBe(`${DETAIL}/overview`);
  });

  it('shows Page not found for an unknown tab', async () => {
    renderFeatureDetail(`${DETAIL}/changelog`);
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeVisible();
  });

  it('shows Page not found for an unknown feature', async () => {
    renderFeatureDetail('/projects/web/environments/production/features/nope');
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeVisible();
  });

  it('shows the key, description, issue links, tags, maintainer and dates, and "None" without impressions', async () => {
    renderFeatureDetail(DETAIL);
    await screen.findByRole('heading', { name: 'New checkout' });
    expect(screen.getByLabelText('Feature key').textContent).toBe('checkout');
    expect(screen.getByRole('button', { name: 'Copy key' })).toBeVisible();
    expect(screen.getByText('The one-page checkout.')).toBeVisible();
    expect(screen.getByRole('link', { name: /SHOP-12/ }).getAttribute('href')).toBe(
      'https://issues.example.com/SHOP-12',
    );
    expect(within(screen.getByRole('list', { name: 'Tags' })).getByText('payments')).toBeVisible();

    const facts = Object.fromEntries(
      [...document.querySelectorAll('dt')].map((dt) => [dt.textContent, dt.nextElementSibling?.textContent]),
    );
    expect(facts).toEqual({
      Maintainer: 'Demo Admin',
      Created: '3rd Mar 2026, 4:05pm',
      'Last updated': '10th Mar 2026, 9:30am',
      'Last impression': 'None',
    });
  });

  it("shows this environment's last impression and status", async () => {
    const feature = featureFixture();
    feature.controls.production = controlFixture('production', {
      enabled: true,
      available: true,
      trafficStatus: 'inactive',
      targetingStatus: 'single',
      staleDays: 9,
      rulesDescription: 'Everyone gets On.',
      statistics: {
        lastImpressionDate: new Date(2026, 2, 1, 8, 0).toISOString(),
        impressions: { today: 0 },
        variants: {},
      },
    });
    renderFeatureDetail(DETAIL, { feature });
    const status = await screen.findByRole('group', { name: 'Status in Production' });
    expect(within(status).getByRole('img', { name: /^Available/ })).toBeVisible();
    expect(
      within(status).getByRole('img', { name: 'Traffic: inactive, no impressions for 9 days.' }),
    ).toBeVisible();
    expect(
      within(status).getByRole('img', { name: 'Targeting: one variant. Everyone gets On.' }),
    ).toBeVisible();
    expect(within(status).getByLabelText('Stale: no impressions for 9 days.')).toBeVisible();
    const lastImpression = [...document.querySelectorAll('dt')].find(
      (dt) => dt.textContent === 'Last impression',
    );
    expect(lastImpression?.nextElementSibling?.textContent).toBe('1st Mar 2026, 8:00am');
  });

  it('hides tags, maintainer and the bookmark when their flags are off', async () => {
    const { initialPayload, allFlagsOn } = await import('../../../testing/test-utils');
    const payload = initialPayload({
      flags: { ...allFlagsOn, tags: false, maintainer: false, bookmarked: false },
    });
    renderFeatureDetail(DETAIL, { payload });
    await screen.findByRole('heading', { name: 'New checkout' });
    expect(screen.queryByRole('list', { name: 'Tags' })).toBeNull();
    expect(screen.queryByText('Maintainer')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Bookmark' })).toBeNull();
  });

  it('bookmarks the feature', async () => {
    const { calls } = renderFeatureDetail(DETAIL, {
      handlers: (state) => ({
        [`PUT /api/v1/features/${featureFixture().id}/bookmark/true`]: () => {
          state.feature = { ...state.feature, bookmarked: true };
          return jsonResponse(200, { featureId: state.feature.id, bookmarked: true });
        },
      }),
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Bookmark' }));
    expect(await screen.findByRole('button', { name: 'Remove bookmark' })).toBeVisible();
    expect(calls.some((c) => c.method === 'PUT' && c.path.endsWith('/bookmark/true'))).toBe(true);
  });

  it('says so when the bookmark is not saved, and puts the star back', async () => {
    renderFeatureDetail(DETAIL, {
      handlers: {
        [`PUT /api/v1/features/${featureFixture().id}/bookmark/true`]: () =>
          jsonResponse(500, { title: 'The database is unavailable.' }),
      },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Bookmark' }));
    expect(
      await screen.findByText(
        'We encountered an error, the bookmark was not saved. The database is unavailable.',
      ),
    ).toBeVisible();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Bookmark' })).toBeVisible());
  });

  it('goes to the same feature and tab in the environment chosen in the breadcrumb', async () => {
    const { pathname } = renderFeatureDetail(`${DETAIL}/targeting`);
    const breadcrumb = await screen.findByRole('navigation', { name: 'Breadcrumb' });
    expect(within(breadcrumb).getByText('Web shop')).toBeVisible();
    expect(within(breadcrumb).getByRole('link', { name: 'Features' }).getAttribute('href')).toBe(
      '/projects/web/environments/production/features',
    );
    const user = userEvent.setup();
    await user.click(within(breadcrumb).getByRole('button', { name: 'Environment: Production' }));
    await user.click(await screen.findByRole('menuitem', { name: /Development/ }));
    expect(await screen.findByRole('heading', { name: 'Targeting tab in Development' })).toBeVisible();
    expect(pathname()).toBe('/projects/web/environments/dev/features/checkout/targeting');
  });
});
