import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Feature, FeatureControl, Rule } from '@vexil/core';
import { featureControls, impressionCounters, subscriptions } from '../../db/schema/index';
import { auditTrail, createTeam, type Team } from '../../../test/api';
import { controlBody, createFeature, otherwise, rule } from '../../../test/features';
import { createHarness, type Harness } from '../../../test/helpers';

let h: Harness;
let team: Team;
let feature: Feature;

beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h.close();
});
beforeEach(async () => {
  await h.database.reset();
  team = await createTeam(h);
  await team.admin.call('POST', '/api/v1/projects/', { name: 'Web shop', key: 'web' });
  await team.admin.call('POST', '/api/v1/projects/web/targets', { key: 'age', name: 'Age', type: 'number' });
  await team.admin.call('POST', '/api/v1/projects/web/targets', {
    key: 'signup',
    name: 'Signed up',
    type: 'date',
  });
  await team.admin.call('POST', '/api/v1/projects/web/targets', {
    key: 'cohorts',
    name: 'Cohorts',
    type: 'segment',
  });
  feature = await createFeature(team.admin.call, 'web', {
    name: 'Checkout',
    key: 'checkout',
    variants: [
      { key: 'on', name: 'On' },
      { key: 'off', name: 'Off' },
      { key: 'beta', name: 'Beta' },
    ],
  });
});

const development = () => feature.controls.development!;
const production = () => feature.controls.production!;

async function save(
  control: FeatureControl,
  changes: Parameters<typeof controlBody>[1],
  call = team.admin.call,
) {
  return call('PUT', '/api/v1/feature-controls/', controlBody(control, changes));
}

describe('PUT /api/v1/feature-controls/', () => {
  it('turns a feature on in development for an editor, and audits it', async () => {
    const res = await save(development(), { enabled: true }, team.editor.call);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<FeatureControl>()).toMatchObject({
      enabled: true,
      targetingStatus: 'single',
      rulesDescription: 'Everyone gets On.',
    });
    const [item] = await auditTrail(team.admin.call);
    expect(item!.title).toBe('Feature Checkout turned on in Development');
  });

  it('needs a production editor in production', async () => {
    const editor = await save(production(), { enabled: true }, team.editor.call);
    expect(editor.statusCode).toBe(403);
    expect(editor.json()).toMatchObject({
      title: 'Only a production editor can change a feature in a production environment.',
      code: 'production_rights_required',
    });
    const readOnly = await save(development(), { enabled: true }, team.readOnly.call);
    expect(readOnly.json()).toMatchObject({
      title: 'You do not have permission to change this feature.',
      code: 'forbidden',
    });
    expect((await save(production(), { enabled: true }, team.productionEditor.call)).statusCode).toBe(200);
  });

  it('answers 404 to another organisation', async () => {
    expect((await save(development(), { enabled: true }, team.outsider.call)).statusCode).toBe(404);
    const [row] = await h.database.db.select().from(featureControls).limit(1);
    expect(row!.enabled).toBe(false);
  });

  it('round-trips several ordered rules exactly, so a control read back can be sent back unchanged', async () => {
    const rules: Rule[] = [
      {
        defaultRule: false,
        audience: {
          conditions: [
            { target: 'email', operator: 'endsWith', values: ['@example.com'] },
            { target: 'age', operator: 'greaterThanOrEqual', values: [18] },
          ],
        },
        variantSplits: [
          { variantKey: 'on', split: 50 },
          { variantKey: 'beta', split: 50 },
        ],
      },
      rule('country', 'in', ['nz', 'au', 'gb']),
      rule('signup', 'before', ['2026-01-01']),
      otherwise('off'),
    ];
    const res = await save(development(), { enabled: true, rules });
    expect(res.statusCode, res.body).toBe(200);
    const reloaded = await team.admin.call('GET', '/api/v1/projects/web/features/checkout');
    const control = reloaded.json<Feature>().controls.development!;
    expect(control.rules).toEqual(rules);
    expect(control.targetingStatus).toBe('targeted');
    expect(control.rulesDescription).toBe('3 targeting rules, otherwise Off.');
    const again = await save(control, {});
    expect(again.statusCode).toBe(200);
    expect(again.json<FeatureControl>().rules).toEqual(rules);
  });

  it('answers 400 with the field for an operator the target type does not take', async () => {
    const res = await save(development(), { rules: [rule('age', 'contains', ['1']), otherwise()] });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      errors: [
        {
          field: 'rules.0.audience.conditions.0.operator',
          message: '"contains" does not apply to the number target "age".',
        },
      ],
    });
  });

  it('answers 400 for untyped values, bad patterns and unknown segments', async () => {
    const cases: [Rule, string][] = [
      [rule('age', 'greaterThan', ['eighteen']), 'Must be a number'],
      [rule('signup', 'after', ['yesterday']), 'Must be a date'],
      [rule('email', 'matches', ['(a']), 'Must be a valid pattern'],
      [rule('cohorts', 'in', ['nobody']), 'There is no segment "nobody" in this environment.'],
    ];
    for (const [bad, message] of cases) {
      const res = await save(development(), { rules: [bad, otherwise()] });
      expect(res.statusCode).toBe(400);
      expect(res.json<{ errors: { message: string }[] }>().errors[0]!.message).toBe(message);
    }
  });

  it('answers 400 for splits that do not sum to 100, a missing default rule, or unknown variants', async () => {
    const half = await save(development(), {
      rules: [{ ...otherwise(), variantSplits: [{ variantKey: 'on', split: 50 }] }],
    });
    expect(half.statusCode).toBe(400);
    const noDefault = await save(development(), { rules: [rule('email', 'equals', ['a'])] });
    expect(noDefault.statusCode).toBe(400);
    const unknownVariant = await save(development(), { rules: [otherwise('purple')] });
    expect(unknownVariant.json()).toMatchObject({
      errors: [{ field: 'rules.0.variantSplits', message: '"purple" is not a variant of this feature.' }],
    });
    const unknownOff = await save(development(), { offVariantKey: 'purple' });
    expect(unknownOff.json()).toMatchObject({
      errors: [{ field: 'offVariantKey', message: 'The off variant must be one of the feature’s variants.' }],
    });
  });

  it('accepts a segment condition naming a segment of the environment', async () => {
    await team.admin.call('POST', '/api/v2/segments/', {
      projectKey: 'web',
      environmentKey: 'development',
      key: 'beta-testers',
      name: 'Beta testers',
    });
    const res = await save(development(), { rules: [rule('cohorts', 'in', ['beta-testers']), otherwise()] });
    expect(res.statusCode, res.body).toBe(200);
  });

  it('is refused while the subscription is inactive', async () => {
    await h.database.db
      .insert(subscriptions)
      .values({ organisationId: team.admin.organisationId, status: 'inactive' });
    const res = await save(development(), { enabled: true });
    expect(res.statusCode).toBe(403);
  });

  it('publishes the environment’s change after it commits', async () => {
    const seen: string[] = [];
    const unsubscribe = h.app.services.events.subscribe((event) => {
      if (event.type === 'environment.changed') seen.push(event.environmentId);
    });
    try {
      await save(development(), { enabled: true });
      await save(production(), { enabled: true }, team.editor.call);
    } finally {
      unsubscribe();
    }
    const env = await team.admin.call('GET', '/api/v1/environments/web/development');
    expect(seen).toEqual([env.json<{ id: string }>().id]);
  });
});

describe('statistics', () => {
  it('counts today’s impressions per variant and charts the last 30 days', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const threeDaysAgo = new Date(Date.now() - 3 * 86_400_000).toISOString().slice(0, 10);
    const organisationId = team.admin.organisationId;
    const controlId = development().id;
    await h.database.db.insert(impressionCounters).values([
      { organisationId, featureControlId: controlId, variantKey: 'on', day: today, count: 7 },
      { organisationId, featureControlId: controlId, variantKey: 'off', day: today, count: 3 },
      { organisationId, featureControlId: controlId, variantKey: 'on', day: threeDaysAgo, count: 5 },
    ]);
    const reloaded = await team.readOnly.call('GET', '/api/v1/projects/web/features/checkout');
    expect(reloaded.json<Feature>().controls.development!.statistics).toMatchObject({
      impressions: { today: 10 },
      variants: {
        on: { impressions: { today: 7 } },
        off: { impressions: { today: 3 } },
        beta: { impressions: { today: 0 } },
      },
    });
    const chart = await team.readOnly.call(
      'GET',
      `/api/v1/variant-daily-impressions?featureControlId=${controlId}`,
    );
    const body = chart.json<{ labels: string[]; datasets: { label: string; data: number[] }[] }>();
    expect(body.labels).toHaveLength(30);
    expect(body.labels.at(-1)).toBe(today);
    expect(body.datasets.map((d) => d.label)).toEqual(['On', 'Off', 'Beta']);
    expect(body.datasets[0]!.data.at(-1)).toBe(7);
    expect(body.datasets[0]!.data.at(-4)).toBe(5);
    expect(body.datasets[2]!.data.every((n) => n === 0)).toBe(true);
    const outsider = await team.outsider.call(
      'GET',
      `/api/v1/variant-daily-impressions?featureControlId=${controlId}`,
    );
    expect(outsider.statusCode).toBe(404);
  });
});
