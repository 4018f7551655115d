import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import { jsonResponse } from '../../../testing/test-utils';
import {
  controlFixture,
  DETAIL,
  featureFixture,
  impressionsFixture,
  resetOverlays,
} from '../../../testing/test-fixtures';
import { renderFeatureDetail } from '../../../testing/feature-detail-test-utils';
import { chartRows, tickStep } from './impressions-chart';

describe('Overview tab', () => {
  afterEach(() => {
    resetOverlays();
    vi.unstubAllGlobals();
  });

  it('shows the feature in every environment of the project', async () => {
    const feature = featureFixture();
    feature.controls.dev = controlFixture('dev', {
      enabled: true,
      trafficStatus: 'active',
      targetingStatus: 'targeted',
      rulesDescription: '2 targeting rules, otherwise On.',
      statistics: {
        lastImpressionDate: new Date().toISOString(),
        impressions: { today: 1234 },
        variants: {},
      },
    });
    renderFeatureDetail(DETAIL, { feature });
    const table = await screen.findByRole('table', { name: 'The feature in each environment' });
    const [, production, development] = within(table).getAllByRole('row');
    expect(within(production!).getByRole('link', { name: 'Production' })).toBeVisible();
    expect(within(production!).getByText('Off')).toBeVisible();
    expect(within(production!).getByText('Off: everyone gets Off.')).toBeVisible();
    expect(within(production!).getByText('No traffic yet')).toBeVisible();
    expect(within(development!).getByRole('link', { name: 'Development' }).getAttribute('href')).toBe(
      '/projects/web/environments/dev/features/checkout/overview',
    );
    expect(within(development!).getByText('On')).toBeVisible();
    expect(within(development!).getByText('2 targeting rules, otherwise On.')).toBeVisible();
    expect(within(development!).getByText('Active')).toBeVisible();
    expect(within(development!).getByText((1234).toLocaleString())).toBeVisible();
  });

  it("puts each environment's on/off switch in its row, and this environment's in the header", async () => {
    const feature = featureFixture();
    feature.controls.dev = controlFixture('dev', { enabled: true });
    renderFeatureDetail(DETAIL, { feature });
    const table = await screen.findByRole('table', { name: 'The feature in each environment' });
    const [, production, development] = within(table).getAllByRole('row');
    const switchIn = (row: HTMLElement, environment: string) =>
      within(row).getByRole('switch', { name: `New checkout on in ${environment}` }) as HTMLInputElement;
    expect(switchIn(production!, 'Production').checked).toBe(false);
    expect(switchIn(development!, 'Development').checked).toBe(true);
    const header = screen.getByRole('group', { name: 'State in Production' });
    expect(switchIn(header, 'Production').checked).toBe(false);
    expect(within(header).getByText('Off')).toBeVisible();
  });

  it('shows an empty state instead of a flat chart when there were no impressions', async () => {
    const { calls } = renderFeatureDetail(DETAIL);
    expect(await screen.findByText('No impressions in the last 30 days.')).toBeVisible();
    expect(screen.queryByLabelText(/^Daily impressions in Production/)).toBeNull();
    expect(
      calls.some(
        (c) =>
          c.path === `/api/v1/variant-daily-impressions?featureControlId=${controlFixture('production').id}`,
      ),
    ).toBe(true);
  });

  it('charts the impressions of the current environment, one series per variant', async () => {
    renderFeatureDetail(DETAIL, {
      handlers: {
        'GET /api/v1/variant-daily-impressions': () =>
          jsonResponse(200, impressionsFixture({ On: [5, 9, 12], Off: [1, 0, 3] })),
      },
    });
    expect(
      await screen.findByLabelText('Daily impressions in Production, last 30 days, by variant'),
    ).toBeVisible();
    expect(screen.queryByText('No impressions in the last 30 days.')).toBeNull();
  });
});

describe('chartRows', () => {
  it('makes one row per day and one labelled series per variant', () => {
    const { data, series } = chartRows(impressionsFixture({ On: [5], day: [2] }));
    expect(data).toHaveLength(30);
    expect(data[29]).toEqual({ day: '2 Mar', v0: 5, v1: 2 });
    expect(series.map(({ name, label }) => ({ name, label }))).toEqual([
      { name: 'v0', label: 'On' },
      { name: 'v1', label: 'day' },
    ]);
  });
});

describe('impressions chart colours and ticks', () => {
  it('draws "on" green and "off" grey, whatever their names and order, and other variants in colours of their own', () => {
    const impressions = impressionsFixture({ Gold: [1], Disabled: [2], Enabled: [3], Silver: [4] });
    const { series } = chartRows(impressions, [
      { key: 'gold', name: 'Gold' },
      { key: 'off', name: 'Disabled' },
      { key: 'on', name: 'Enabled' },
      { key: 'silver', name: 'Silver' },
    ]);
    const colours = Object.fromEntries(series.map(({ label, color }) => [label, color]));
    expect(colours.Enabled).toBe('green.6');
    expect(colours.Disabled).toBe('gray.5');
    expect(colours.Gold).not.toBe(colours.Silver);
    for (const other of [colours.Gold, colours.Silver])
      expect(other).not.toMatch(/^(green|gray|teal|lime)\./);
  });

  it('spaces the ticks evenly: every day when they fit, else every few days', () => {
    expect(tickStep(2000, 30)).toBe(1);
    expect(tickStep(1100, 30)).toBe(2);
    expect(tickStep(260, 30)).toBe(8);
    // Never fewer than one day apart, even on a chart too narrow for one label.
    expect(tickStep(20, 30)).toBe(30);
  });
});
