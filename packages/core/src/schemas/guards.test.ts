import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { GUARD_DEFAULTS, GUARD_MESSAGES, MAX_GUARD_METRICS, guardSchema } from './guards';

const messages = (input: unknown) => {
  const result = guardSchema.safeParse(input);
  return result.success
    ? []
    : result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
};

describe('a ramp’s guard', () => {
  it('fills the defaults a team would expect: alpha 5 %, 500 users per arm, roll back on harm', () => {
    expect(guardSchema.parse({ metrics: [{ goalKey: 'Checkout Error', badDirection: 'increase' }] })).toEqual(
      {
        metrics: [{ goalKey: 'checkout-error', badDirection: 'increase', threshold: 0 }],
        alpha: GUARD_DEFAULTS.alpha,
        minExposuresPerArm: 500,
        onRegression: 'rollback',
        onSampleRatioMismatch: 'pause',
        noTrafficHours: 24,
        onNoTraffic: 'warn',
      },
    );
  });

  it('says what is wrong with each field', () => {
    expect(messages({ metrics: [] })).toEqual([`metrics: ${GUARD_MESSAGES.metricsRequired}`]);
    expect(
      messages({
        metrics: [
          { goalKey: 'error', badDirection: 'up' },
          { goalKey: 'error', badDirection: 'increase', threshold: -1 },
        ],
        alpha: 0.5,
        minExposuresPerArm: 10,
        noTrafficHours: 0,
      }),
    ).toEqual([
      `metrics.0.badDirection: ${GUARD_MESSAGES.badDirection}`,
      `metrics.1.threshold: ${GUARD_MESSAGES.threshold}`,
      `alpha: ${GUARD_MESSAGES.alpha}`,
      `minExposuresPerArm: ${GUARD_MESSAGES.minExposures}`,
      `noTrafficHours: ${GUARD_MESSAGES.noTrafficHours}`,
    ]);
    expect(messages({ metrics: [{ goalKey: 'purchase', badDirection: 'decrease', threshold: 1 }] })).toEqual([
      `metrics.0.threshold: ${GUARD_MESSAGES.decreaseThreshold}`,
    ]);
    expect(
      messages({
        metrics: [
          { goalKey: 'Error', badDirection: 'increase' },
          { goalKey: 'error', badDirection: 'increase' },
        ],
      }),
    ).toEqual([`metrics.1.goalKey: ${GUARD_MESSAGES.duplicateGoal}`]);
    expect(messages({ metrics: [{ goalKey: 'error', badDirection: 'increase' }], extra: true })).toHaveLength(
      1,
    );
  });

  it('takes 1 to 10 distinct goals and refuses more', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: MAX_GUARD_METRICS + 5 }), (count) => {
        const metrics = Array.from({ length: count }, (_, i) => ({
          goalKey: `goal-${i}`,
          badDirection: 'increase',
        }));
        expect(guardSchema.safeParse({ metrics }).success).toBe(count <= MAX_GUARD_METRICS);
      }),
    );
  });
});
