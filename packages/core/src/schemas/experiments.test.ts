import { describe, expect, it } from 'vitest';
import { toFieldErrors } from './common';
import { experimentInput, experimentSchema, experimentStatisticsSchema } from './experiments';
import { EXPERIMENT, ID } from './test-samples';

const errors = (result: { error?: { issues: Parameters<typeof toFieldErrors>[0] } }) =>
  result.error ? toFieldErrors(result.error.issues) : [];

const valid = {
  projectKey: 'mob',
  environmentKey: 'production',
  name: 'Checkout test',
  goalKey: 'purchase',
  featureId: ID,
  control: 'off',
  variation: 'on',
};

describe('experimentInput', () => {
  it('requires a name, a goal key, a feature and both variants', () => {
    expect(errors(experimentInput.safeParse({ projectKey: 'mob', environmentKey: 'production' }))).toEqual([
      { field: 'name', message: 'Name is required' },
      { field: 'goalKey', message: 'Goal Key is required' },
      { field: 'featureId', message: 'Feature is required' },
      { field: 'control', message: 'Control variant is required' },
      { field: 'variation', message: 'Alternate variant is required' },
    ]);
  });

  it('normalises the goal key', () => {
    expect(experimentInput.parse({ ...valid, goalKey: 'Added To Cart' }).goalKey).toBe('added-to-cart');
  });

  it('needs two different variants', () => {
    expect(errors(experimentInput.safeParse({ ...valid, variation: 'off' }))).toEqual([
      { field: 'variation', message: 'The alternate variant must differ from the control variant.' },
    ]);
  });
});

describe('experimentSchema', () => {
  it('accepts an experiment', () => {
    expect(experimentSchema.parse(EXPERIMENT)).toEqual(EXPERIMENT);
  });
});

describe('experimentStatisticsSchema', () => {
  it('accepts per-variant results', () => {
    const stats = {
      confidence: 0.97,
      pvalue: 0.03,
      validResult: true,
      winningVariation: 'on',
      zscore: 2.1,
      variantResults: {
        on: { goals: 30, impressions: 100, conversionRate: 0.3 },
        off: { goals: 20, impressions: 100, conversionRate: 0.2 },
      },
      mode: 'fixed',
      invalidReasons: [],
      difference: { estimate: 0.1, lower: -0.02, upper: 0.22, level: 0.95 },
      relativeLift: { estimate: 0.5, lower: -0.1, upper: 1.4, level: 0.95 },
      sampleRatio: {
        expectedVariationShare: 0.5,
        observedVariationShare: 0.5,
        chiSquare: 0,
        pvalue: 1,
        flagged: false,
        message: null,
      },
      usersInBothVariants: 0,
      daily: [
        {
          day: '2026-11-24',
          variants: { on: { impressions: 100, goals: 30 }, off: { impressions: 100, goals: 20 } },
        },
      ],
    };
    expect(experimentStatisticsSchema.parse(stats)).toEqual(stats);
  });
});
