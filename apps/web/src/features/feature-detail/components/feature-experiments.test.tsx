import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import type { Experiment } from '@vexil/core';
import { allFlagsOn, initialPayload, jsonResponse } from '../../../testing/test-utils';
import { DETAIL, FEATURE_ID, resetOverlays } from '../../../testing/test-fixtures';
import { renderFeatureDetail } from '../../../testing/feature-detail-test-utils';

let ids = 0;

function experiment(name: string, overrides: Partial<Experiment> = {}): Experiment {
  ids += 1;
  return {
    id: `00000000-0000-4000-8000-${String(8100 + ids).padStart(12, '0')}`,
    name,
    description: '',
    enabled: true,
    goalKey: 'checkout-completed',
    featureId: FEATURE_ID,
    featureKey: 'checkout',
    environmentId: '00000000-0000-4000-8000-000000000101',
    environmentKey: 'production',
    projectKey: 'web',
    control: 'off',
    variation: 'on',
    startDate: '2026-03-01T00:00:00.000Z',
    endDate: null,
    archived: false,
    mode: 'fixed',
    results: null,
    feature: { id: FEATURE_ID, key: 'checkout', name: 'New checkout' },
    ...overrides,
  };
}

describe("Overview's Experiments section", () => {
  afterEach(() => {
    resetOverlays();
    vi.unstubAllGlobals();
  });

  it('links to the statistics of the experiments running on the feature in this environment', async () => {
    const running = experiment('One-page checkout');
    const { calls } = renderFeatureDetail(DETAIL, {
      handlers: {
        'GET /api/v1/experiments/': () =>
          jsonResponse(200, [
            running,
            experiment('Finished one', { endDate: '2026-03-10T00:00:00.000Z', enabled: false }),
            experiment('Not started', { startDate: null, enabled: false }),
            experiment('Another feature', { featureId: '00000000-0000-4000-8000-00000000f002' }),
          ]),
      },
    });

    const list = await screen.findByRole('list', { name: 'Running experiments' });
    const links = within(list).getAllByRole('link');
    expect(links.map((link) => link.textContent)).toEqual(['One-page checkout']);
    expect(links[0]!.getAttribute('href')).toBe(
      `/projects/web/environments/production/experiments/${running.id}/stats`,
    );
    expect(screen.getByText('Running on this feature in Production')).toBeVisible();
    expect(
      calls.some((call) => call.path === '/api/v1/experiments/?projectKey=web&environmentKey=production'),
    ).toBe(true);
  });

  it('is left out when no experiment runs on the feature', async () => {
    renderFeatureDetail(DETAIL, {
      handlers: {
        'GET /api/v1/experiments/': () =>
          jsonResponse(200, [experiment('Finished one', { endDate: '2026-03-10T00:00:00.000Z' })]),
      },
    });
    await screen.findByRole('table', { name: 'The feature in each environment' });
    expect(await screen.findByText('No impressions in the last 30 days.')).toBeVisible();
    expect(screen.queryByRole('heading', { name: 'Experiments' })).toBeNull();
  });

  it('is left out, and not asked for, without flag experiments', async () => {
    const { calls } = renderFeatureDetail(DETAIL, {
      payload: initialPayload({ flags: { ...allFlagsOn, experiments: false } }),
      handlers: { 'GET /api/v1/experiments/': () => jsonResponse(200, [experiment('One-page checkout')]) },
    });
    await screen.findByRole('table', { name: 'The feature in each environment' });
    expect(await screen.findByText('No impressions in the last 30 days.')).toBeVisible();
    expect(screen.queryByRole('heading', { name: 'Experiments' })).toBeNull();
    expect(calls.some((call) => call.path.startsWith('/api/v1/experiments/'))).toBe(false);
  });
});
