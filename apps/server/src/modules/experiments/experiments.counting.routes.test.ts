import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Experiment, Feature } from '@vexil/core';
import { experimentExposures } from '../../db/schema/index';
import { saveControl, sdkFixture } from '../../../test/sdk';
import {
  setUpExperimentRoutes,
  h,
  team,
  fixture,
  create,
  put,
  events,
  shown,
  goal,
  statistics,
} from './experiments.routes.fixture';

setUpExperimentRoutes();

describe('counting', () => {
  it('counts each user once, in the variant of their first exposure, and a conversion once after exposure', async () => {
    const experiment = await create(team.admin.call, { enabled: true });
    await events([
      shown('ann', 'off'),
      shown('ann', 'off'),
      shown('bob', 'on'),
      shown('cat', 'on'),
      // Not a variant of the experiment: counts nothing.
      { ...shown('dan', 'off'), featureKey: 'another' },
    ]);
    await events([
      goal('ann', { value: 20 }),
      goal('ann', { value: 5 }),
      goal('bob'),
      // Never exposed: not a conversion.
      goal('eve'),
    ]);
    // Bob is later shown the other variant: still counted once, in "on", and said to have crossed.
    await events([shown('bob', 'off')]);

    const stats = await statistics(team.admin.call, experiment.id);
    expect(stats.variantResults).toEqual({
      off: { impressions: 1, goals: 1, conversionRate: 1, valueSum: 25 },
      on: { impressions: 2, goals: 1, conversionRate: 0.5, valueSum: 0 },
    });
    expect(stats.usersInBothVariants).toBe(1);
    expect(stats.validResult).toBe(false);
    expect(stats.invalidReasons.length).toBeGreaterThan(0);
    expect(stats.daily.at(-1)!.variants).toEqual({
      off: { impressions: 1, goals: 1 },
      on: { impressions: 2, goals: 1 },
    });
  });

  it('counts a goal only after the exposure, and only while the experiment runs', async () => {
    const draft = await create(team.admin.call);
    // Not started: nothing counts.
    await events([shown('early', 'on'), goal('early')]);
    const running = (await put(team.admin.call, draft, { enabled: true })).json<Experiment>();
    const later = new Date(Date.now() + 60_000).toISOString();
    const sooner = new Date(Date.now() + 30_000).toISOString();
    await events([shown('ann', 'on', later), goal('ann', { timestamp: sooner })]);
    const before = await statistics(team.admin.call, running.id);
    expect(before.variantResults.on).toMatchObject({ impressions: 1, goals: 0 });
    await events([goal('ann', { timestamp: new Date(Date.now() + 90_000).toISOString() })]);
    expect((await statistics(team.admin.call, running.id)).variantResults.on).toMatchObject({
      impressions: 1,
      goals: 1,
    });

    const finished = (await put(team.admin.call, running, { enabled: false })).json<Experiment>();
    await events([shown('zed', 'off')]);
    expect((await statistics(team.admin.call, finished.id)).variantResults.off).toMatchObject({
      impressions: 0,
    });
  });

  it("reads the browser SDK's evaluatedFeatures on goal rows as exposures", async () => {
    const experiment = await create(team.admin.call, { enabled: true });
    await h.app.sdk.store.settled();
    const res = await h.app.inject({
      method: 'POST',
      url: `/api/js/v1/event/${fixture.development.jsApiKey}`,
      payload: [
        {
          type: 'goal',
          goalKey: 'purchase-made',
          user: { id: 'web-1' },
          evaluatedFeatures: { checkout: 'on' },
        },
        { type: 'goal', goalKey: 'purchase-made', user: { id: 'web-2' }, evaluatedFeatures: ['odd'] },
      ],
    });
    expect(res.statusCode).toBe(200);
    const stats = await statistics(team.admin.call, experiment.id);
    expect(stats.variantResults.on).toMatchObject({ impressions: 1, goals: 1 });
    expect(stats.variantResults.off).toMatchObject({ impressions: 0, goals: 0 });
  });

  it('keeps experiments apart: another environment or organisation counts nothing here', async () => {
    const experiment = await create(team.admin.call, { enabled: true });
    await events([shown('p1', 'on')], fixture.production);
    const theirs = await sdkFixture(team.outsider.call);
    await events([shown('o1', 'on')], theirs.development);
    const rows = await h.database.db
      .select()
      .from(experimentExposures)
      .where(eq(experimentExposures.experimentId, experiment.id));
    expect(rows).toEqual([]);
  });

  it('checks the sample ratio against the split the targeting configures', async () => {
    const experiment = await create(team.admin.call, { enabled: true });
    const split = (off: number, on: number) =>
      saveControl(team.admin.call, fixture.checkout, fixture.development, {
        enabled: true,
        rules: [
          {
            defaultRule: true,
            audience: null,
            variantSplits: [
              { variantKey: 'off', split: off },
              { variantKey: 'on', split: on },
            ],
          },
        ] as Feature['controls'][string]['rules'],
      });
    await split(70, 30);
    const rows: unknown[] = [];
    for (let i = 0; i < 700; i++) rows.push(shown(`c${i}`, 'off'));
    for (let i = 0; i < 300; i++) rows.push(shown(`v${i}`, 'on'));
    await events(rows);
    const asConfigured = await statistics(team.admin.call, experiment.id);
    expect(asConfigured.sampleRatio).toMatchObject({ expectedVariationShare: 0.3, flagged: false });
    // The same users against an even split: 700 against 300 is not chance.
    await split(50, 50);
    const even = await statistics(team.admin.call, experiment.id);
    expect(even.sampleRatio).toMatchObject({ expectedVariationShare: 0.5, flagged: true });
    expect(even.sampleRatio.message).toBeTruthy();
  });

  it('finds the test vector: 1000/100 against 1000/130 is a winner for the alternate at z ≈ 2.10', async () => {
    const experiment = await create(team.admin.call, { enabled: true });
    const rows: unknown[] = [];
    for (let i = 0; i < 1000; i++) rows.push(shown(`c${i}`, 'off'), shown(`v${i}`, 'on'));
    await events(rows);
    const goals: unknown[] = [];
    for (let i = 0; i < 100; i++) goals.push(goal(`c${i}`));
    for (let i = 0; i < 130; i++) goals.push(goal(`v${i}`));
    await events(goals);
    const stats = await statistics(team.admin.call, experiment.id);
    expect(stats.zscore).toBeCloseTo(2.1027, 3);
    expect(stats.pvalue).toBeCloseTo(0.0355, 3);
    expect(stats).toMatchObject({ validResult: true, winningVariation: 'on', invalidReasons: [] });
    expect(stats.sampleRatio.flagged).toBe(false);
    expect(stats.difference!.estimate).toBeCloseTo(0.03, 10);
  });
});
