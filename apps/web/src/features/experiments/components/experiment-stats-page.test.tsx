import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import type { Experiment, ExperimentStatistics } from '@vexil/core';
import { jsonResponse } from '../../../testing/test-utils';
import { ExperimentStatsPage } from './experiment-stats-page';
import { conversionRows } from './conversion-chart';
import {
  confidenceText,
  durationText,
  liftText,
  pointsText,
  rateText,
  runningTimeText,
} from './experiment-format';
import {
  experimentFixture,
  renderScreen,
  resetOverlays,
  runningFixture,
  serveExperiments,
  statisticsFixture,
  type ApiHandler,
} from '../../../testing/experiments-test-server';

function renderStats(
  experiment: Experiment,
  statistics?: ExperimentStatistics,
  handlers?: Record<string, ApiHandler>,
) {
  const served = serveExperiments({
    experiments: [experiment],
    statistics: statistics ? { [experiment.id]: statistics } : {},
    handlers,
  });
  const rendered = renderScreen(
    <ExperimentStatsPage
      project={{ key: 'web', name: 'Web shop' }}
      environment={{ key: 'dev', name: 'Development' }}
      experimentId={experiment.id}
    />,
    '/projects/:projectKey/environments/:environmentKey/experiments/:experimentId/stats',
    `/projects/web/environments/dev/experiments/${experiment.id}/stats`,
  );
  return { ...rendered, ...served };
}

const variantRows = () =>
  within(screen.getByRole('table', { name: 'Results by variant' }))
    .getAllByRole('row')
    .slice(1)
    .map((row) =>
      within(row)
        .getAllByRole('cell')
        // Figures keep their unit on their line with a non-breaking space.
        .map((cell) => cell.textContent?.replace(/\u00a0/g, ' ')),
    );

describe('Experiment statistics page', () => {
  afterEach(() => {
    resetOverlays();
    vi.unstubAllGlobals();
  });

  it('names the experiment, its feature, goal, variants and running time, and declares the winner', async () => {
    const experiment = runningFixture('One-page checkout', 3);
    renderStats(experiment, statisticsFixture());

    expect(await screen.findByRole('heading', { name: 'One-page checkout' })).toBeVisible();
    expect(screen.getByText('Running')).toBeVisible();
    expect(screen.getByRole('link', { name: 'New checkout' }).getAttribute('href')).toBe(
      '/projects/web/environments/dev/features/checkout',
    );
    expect(screen.getByText('Running for 3 days')).toBeVisible();
    expect(screen.getByRole('link', { name: 'Experiments' }).getAttribute('href')).toBe(
      '/projects/web/environments/dev/experiments',
    );

    expect(
      await screen.findByRole('heading', { name: /^on is winning with 96\.4\s% confidence$/ }),
    ).toBeVisible();
    expect(screen.getByText('96.4 %')).toBeVisible();
    expect(screen.getByText('0.0355')).toBeVisible();
    expect(screen.getByText('+2.10')).toBeVisible();
    expect(screen.getByText('+3.00 pp')).toBeVisible();
    expect(screen.getByText(/95 % interval: \+0\.11 pp to \+5\.88 pp/)).toBeVisible();
    expect(screen.getByText('+30.0 %')).toBeVisible();
    expect(screen.getByText(/95 % interval: \+1\.7 % to \+66\.1 %/)).toBeVisible();
    expect(screen.queryByText('Sample ratio mismatch')).toBeNull();
  });

  it('shows each variant with its exposed and converted users and its conversion rate to 2 decimals', async () => {
    renderStats(
      runningFixture('One-page checkout'),
      statisticsFixture({
        variantResults: {
          off: { impressions: 12_345, goals: 1_234, conversionRate: 1_234 / 12_345, valueSum: 5_000.5 },
          on: { impressions: 12_000, goals: 1_500, conversionRate: 0.125 },
        },
      }),
    );
    await screen.findByRole('table', { name: 'Results by variant' });
    expect(variantRows()).toEqual([
      ['offControl', '12,345', '1,234', '10.00 %', '5,000.5'],
      ['onAlternateWinner', '12,000', '1,500', '12.50 %', '—'],
    ]);
  });

  it('leaves out the Value column when no goal carried a value', async () => {
    renderStats(
      runningFixture('One-page checkout'),
      statisticsFixture({
        variantResults: {
          off: { impressions: 1000, goals: 100, conversionRate: 0.1, valueSum: 0 },
          on: { impressions: 1000, goals: 130, conversionRate: 0.13, valueSum: 0 },
        },
      }),
    );
    await screen.findByRole('table', { name: 'Results by variant' });
    expect(screen.queryByRole('columnheader', { name: 'Value' })).toBeNull();
    expect(variantRows()[0]).toEqual(['offControl', '1,000', '100', '10.00 %']);
  });

  it('says why there is no winner while a variant lacks users', async () => {
    const reasons = [
      'Each variant needs at least 100 exposed users; the control (off) has 40.',
      'Each variant needs at least 10 users who reached the goal; the alternate (on) has 3.',
    ];
    renderStats(
      runningFixture('One-page checkout'),
      statisticsFixture({
        validResult: false,
        winningVariation: null,
        confidence: 0.42,
        pvalue: 0.58,
        invalidReasons: reasons,
      }),
    );
    expect(await screen.findByRole('heading', { name: 'No winner yet' })).toBeVisible();
    for (const reason of reasons) expect(screen.getByText(reason)).toBeVisible();
    expect(screen.queryByText(/is below 95/)).toBeNull();
  });

  it('says the confidence is below 95 % when the result is valid but not conclusive', async () => {
    renderStats(
      runningFixture('One-page checkout'),
      statisticsFixture({ winningVariation: null, confidence: 0.8123, pvalue: 0.1877, zscore: 1.3171 }),
    );
    expect(await screen.findByRole('heading', { name: 'No winner yet' })).toBeVisible();
    expect(screen.getByText('Confidence 81.2 % is below 95 %.')).toBeVisible();
  });

  it('warns of a sample ratio mismatch and counts users exposed to both variants', async () => {
    const message =
      'The alternate (on) got 60.0 % of the 2,000 exposed users, where 50.0 % was expected; do not trust these results until the cause is found.';
    renderStats(
      runningFixture('One-page checkout'),
      statisticsFixture({
        sampleRatio: {
          expectedVariationShare: 0.5,
          observedVariationShare: 0.6,
          chiSquare: 80,
          pvalue: 0.000001,
          flagged: true,
          message,
        },
        usersInBothVariants: 12,
      }),
    );
    const alert = (await screen.findByText('Sample ratio mismatch')).closest<HTMLElement>('[role="alert"]')!;
    expect(alert.textContent).toContain(message);
    expect(screen.getByText(/12 users were exposed to both variants/)).toBeVisible();
  });

  it('says a finished experiment ran, and one not started has no statistics yet', async () => {
    const finished = experimentFixture('Old test', {
      startDate: '2026-01-01T00:00:00.000Z',
      endDate: '2026-01-15T12:00:00.000Z',
    });
    renderStats(finished, statisticsFixture());
    expect(await screen.findByText('Ran for 14 days')).toBeVisible();
    expect(screen.getByText('Finished')).toBeVisible();
  });

  it('does not ask for the statistics of an experiment that has not started', async () => {
    const draft = experimentFixture('Next idea');
    const { calls } = renderStats(draft);
    expect(await screen.findByText(/This experiment has not started yet/)).toBeVisible();
    expect(calls.some((call) => call.path.startsWith('/api/v1/experiment-statistics/'))).toBe(false);
  });

  it('is Page not found for an unknown experiment', async () => {
    serveExperiments();
    renderScreen(
      <ExperimentStatsPage
        project={{ key: 'web', name: 'Web shop' }}
        environment={{ key: 'dev', name: 'Development' }}
        experimentId="00000000-0000-4000-8000-000000000999"
      />,
      '*',
      '/',
    );
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeVisible();
  });

  it('shows a failed load of the statistics with Retry, and Refresh asks again', async () => {
    const experiment = runningFixture('One-page checkout');
    let fail = true;
    const { calls, user } = renderStats(experiment, undefined, {
      [`GET /api/v1/experiment-statistics/${experiment.id}`]: () =>
        fail ? jsonResponse(500, { title: 'The database is busy.' }) : jsonResponse(200, statisticsFixture()),
    });
    const statisticsCalls = () =>
      calls.filter((call) => call.path.startsWith('/api/v1/experiment-statistics/')).length;

    const alert = (await screen.findByText('We could not load the statistics.')).closest<HTMLElement>(
      '[role="alert"]',
    )!;
    expect(alert.textContent).toContain('The database is busy.');
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('heading', { name: /is winning/ })).toBeVisible();

    const before = statisticsCalls();
    await user.click(screen.getByRole('button', { name: 'Refresh' }));
    await waitFor(() => expect(statisticsCalls()).toBe(before + 1));
  });
});

describe('experiment figures', () => {
  it('never rounds a confidence up to a threshold or to certainty', () => {
    expect(confidenceText(0.9499)).toBe('94.9\u00a0%');
    expect(confidenceText(0.95)).toBe('95.0\u00a0%');
    expect(confidenceText(0.99996)).toBe('99.9\u00a0%');
  });

  it('writes rates to 2 decimals and differences and lifts signed', () => {
    expect(rateText(0.123456)).toBe('12.35\u00a0%');
    expect(pointsText(-0.0123)).toBe('\u22121.23\u00a0pp');
    expect(pointsText(0)).toBe('0.00\u00a0pp');
    expect(liftText(0.3)).toBe('+30.0\u00a0%');
  });

  it('says how long an experiment ran in whole units', () => {
    const start = new Date('2026-03-01T00:00:00Z');
    expect(durationText(start, new Date('2026-03-01T00:00:30Z'))).toBe('less than a minute');
    expect(durationText(start, new Date('2026-03-01T00:01:00Z'))).toBe('1 minute');
    expect(durationText(start, new Date('2026-03-01T05:59:00Z'))).toBe('5 hours');
    expect(durationText(start, new Date('2026-03-02T00:00:00Z'))).toBe('1 day');
    expect(runningTimeText({ startDate: null, endDate: null })).toBeNull();
    expect(
      runningTimeText({ startDate: start.toISOString(), endDate: null }, new Date('2026-03-04T01:00:00Z')),
    ).toBe('Running for 3 days');
  });

  it('charts the cumulative conversion rate of each variant per day, in percent', () => {
    expect(
      conversionRows(
        [
          {
            day: '2026-03-01',
            variants: { off: { impressions: 0, goals: 0 }, on: { impressions: 50, goals: 5 } },
          },
          {
            day: '2026-03-02',
            variants: { off: { impressions: 200, goals: 30 }, on: { impressions: 100, goals: 12 } },
          },
        ],
        [{ key: 'off' }, { key: 'on' }],
      ),
    ).toEqual([
      { day: '1 Mar', v1: 10 },
      { day: '2 Mar', v0: 15, v1: 12 },
    ]);
  });
});
