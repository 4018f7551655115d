import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ENTERPRISE_PLAN_LIMITS, FREE_PLAN_LIMITS } from './limits';
import { planChangePreview } from './plan-change';
import type { Limits, PlanCounts } from './schemas/billing';

const TEAM: Limits = { ...ENTERPRISE_PLAN_LIMITS, maxProjects: 10 };
const counts = (over: Partial<PlanCounts> = {}): PlanCounts => ({
  seats: 1,
  projectsUsed: 1,
  environmentsUsed: 2,
  featuresUsed: 3,
  ...over,
});

const countLimit = fc.option(fc.nat({ max: 50 }), { nil: null });
const limitsArb: fc.Arbitrary<Limits> = fc.record({
  maxOrganisationUsers: countLimit,
  auditLog: fc.boolean(),
  variantTesting: fc.boolean(),
  maxApplicationUniqueUsers: countLimit,
  maxImpressions: countLimit,
  maxProjects: countLimit,
  maxEnvironments: countLimit,
  maxFeatures: countLimit,
});
const countsArb: fc.Arbitrary<PlanCounts> = fc.record({
  seats: fc.nat({ max: 60 }),
  projectsUsed: fc.nat({ max: 60 }),
  environmentsUsed: fc.nat({ max: 60 }),
  featuresUsed: fc.nat({ max: 60 }),
});

describe('planChangePreview', () => {
  it('says what Free leaves over its limits and what a Team trial loses', () => {
    const preview = planChangePreview({
      plan: 'Free',
      limits: FREE_PLAN_LIMITS,
      counts: counts({ seats: 2, projectsUsed: 10, environmentsUsed: 20 }),
      current: { limits: TEAM, inTrial: true, daysUntilEndOfTrial: 12 },
    });
    expect(preview).toEqual({
      plan: 'Free',
      exceeded: [
        {
          key: 'maxOrganisationUsers',
          used: 2,
          limit: 1,
          message: '2 seats in use (members and pending invitations); Free includes 1.',
        },
        { key: 'maxProjects', used: 10, limit: 1, message: '10 projects; Free includes 1.' },
        { key: 'maxEnvironments', used: 20, limit: 2, message: '20 environments; Free includes 2.' },
      ],
      lost: [
        { key: 'auditLog', message: 'The audit log: it is no longer shown.' },
        { key: 'variantTesting', message: 'Experiments: they can no longer be created or changed.' },
        { key: 'trial', message: 'The 12 days left in your trial: the trial ends now.' },
      ],
    });
  });

  it('says nothing when the organisation fits the plan and keeps what it has', () => {
    expect(
      planChangePreview({
        plan: 'Team',
        limits: TEAM,
        counts: counts({ projectsUsed: 10 }),
        current: { limits: FREE_PLAN_LIMITS, inTrial: false, daysUntilEndOfTrial: null },
      }),
    ).toEqual({ plan: 'Team', exceeded: [], lost: [] });
  });

  it('reports a limit exactly when the count passes it, and a loss exactly when the plan drops it', () => {
    fc.assert(
      fc.property(limitsArb, limitsArb, countsArb, fc.boolean(), (target, now, used, hasSubscription) => {
        const current = hasSubscription ? { limits: now, inTrial: false, daysUntilEndOfTrial: null } : null;
        const preview = planChangePreview({ plan: 'P', limits: target, counts: used, current });
        const over = (limit: number | null, n: number) => limit !== null && n > limit;
        expect(preview.exceeded.map((e) => e.key)).toEqual(
          [
            over(target.maxOrganisationUsers, used.seats) && 'maxOrganisationUsers',
            over(target.maxProjects, used.projectsUsed) && 'maxProjects',
            over(target.maxEnvironments, used.environmentsUsed) && 'maxEnvironments',
            over(target.maxFeatures, used.featuresUsed) && 'maxFeatures',
          ].filter(Boolean),
        );
        for (const excess of preview.exceeded) expect(excess.used).toBeGreaterThan(excess.limit);
        const had = (key: 'auditLog' | 'variantTesting') => current === null || current.limits[key];
        expect(preview.lost.map((l) => l.key)).toEqual(
          [
            had('auditLog') && !target.auditLog && 'auditLog',
            had('variantTesting') && !target.variantTesting && 'variantTesting',
          ].filter(Boolean),
        );
      }),
    );
  });

  it('counts the trial as lost on any change, with the days left', () => {
    const lost = (days: number) =>
      planChangePreview({
        plan: 'Team',
        limits: TEAM,
        counts: counts(),
        current: { limits: TEAM, inTrial: true, daysUntilEndOfTrial: days },
      }).lost;
    expect(lost(1)).toEqual([{ key: 'trial', message: 'The day left in your trial: the trial ends now.' }]);
    expect(lost(3)[0]?.message).toBe('The 3 days left in your trial: the trial ends now.');
  });
});
