import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BOOLEAN_LIMIT_KEYS,
  FREE_PLAN_LIMITS,
  LIMIT_KEYS,
  NUMERIC_LIMIT_KEYS,
  formatCount,
  formatLimit,
  monthlyPricePerSeat,
  usageLevel,
  usagePercent,
  withinLimit,
  type UsageLevel,
} from './limits';

const count = fc.nat({ max: 10_000_000 });
const limit = fc.integer({ min: 1, max: 10_000_000 });
const LEVELS: UsageLevel[] = ['ok', 'warning', 'danger'];

describe('LIMIT_KEYS', () => {
  it('lists every plan limit of docs/product.md §3 once, split into counts and switches', () => {
    expect([...LIMIT_KEYS].sort()).toEqual([...NUMERIC_LIMIT_KEYS, ...BOOLEAN_LIMIT_KEYS].sort());
    expect(new Set(LIMIT_KEYS).size).toBe(8);
  });
});

describe('withinLimit', () => {
  it('passes below the limit and fails at or above it', () => {
    expect(withinLimit(0, 1)).toBe(true);
    expect(withinLimit(1, 1)).toBe(false);
    expect(withinLimit(2, 1)).toBe(false);
    expect(withinLimit(0, 0)).toBe(false);
  });

  it('passes when no limit is set', () => {
    expect(withinLimit(1_000_000, null)).toBe(true);
    expect(withinLimit(1_000_000, undefined)).toBe(true);
  });

  it('is count < limit for every finite limit', () => {
    fc.assert(
      fc.property(count, limit, (c, l) => {
        expect(withinLimit(c, l)).toBe(c < l);
      }),
    );
  });
});

describe('usageLevel', () => {
  it.each([
    [0, 10, 'ok'],
    [8, 10, 'ok'],
    [9, 10, 'warning'],
    [27, 30, 'warning'],
    [10, 10, 'danger'],
    [11, 10, 'danger'],
    [0, 0, 'danger'],
    [5, null, 'ok'],
    [5, undefined, 'ok'],
  ] as const)('%d of %s is %s', (c, l, level) => {
    expect(usageLevel(c, l)).toBe(level);
  });

  it('never goes down as the count grows', () => {
    fc.assert(
      fc.property(count, count, limit, (a, b, l) => {
        const [low, high] = a <= b ? [a, b] : [b, a];
        expect(LEVELS.indexOf(usageLevel(low, l))).toBeLessThanOrEqual(LEVELS.indexOf(usageLevel(high, l)));
      }),
    );
  });

  it('is danger exactly when the limit is no longer passed', () => {
    fc.assert(
      fc.property(count, limit, (c, l) => {
        expect(usageLevel(c, l) === 'danger').toBe(!withinLimit(c, l));
      }),
    );
  });

  it('agrees with usagePercent at the 90 % boundary', () => {
    fc.assert(
      fc.property(count, limit, (c, l) => {
        fc.pre(c < l);
        expect(usageLevel(c, l) === 'warning').toBe(c * 100 >= l * 90);
      }),
    );
  });
});

describe('usagePercent', () => {
  it('is the share of the limit used, clamped to 0..100', () => {
    expect(usagePercent(1, 4)).toBe(25);
    expect(usagePercent(8, 4)).toBe(100);
    expect(usagePercent(0, 0)).toBe(100);
    expect(usagePercent(3, null)).toBe(0);
  });

  it('stays within 0..100', () => {
    fc.assert(
      fc.property(count, fc.option(fc.nat(), { nil: null }), (c, l) => {
        const percent = usagePercent(c, l);
        expect(percent).toBeGreaterThanOrEqual(0);
        expect(percent).toBeLessThanOrEqual(100);
      }),
    );
  });
});

describe('formatLimit', () => {
  it('shows Unlimited for an empty limit', () => {
    expect(formatLimit(null)).toBe('Unlimited');
    expect(formatLimit(undefined)).toBe('Unlimited');
  });

  it.each([
    [0, '0'],
    [999, '999'],
    [1000, '1,000'],
    [10000, '10,000'],
    [1234567, '1,234,567'],
  ])('formats %d as %s', (value, text) => {
    expect(formatLimit(value)).toBe(text);
  });

  it('matches en-US grouping for every integer', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e15, max: 1e15 }), (n) => {
        expect(formatCount(n)).toBe(n.toLocaleString('en-US'));
      }),
    );
  });

  it('keeps decimals and signs', () => {
    expect(formatCount(-1234.5)).toBe('-1,234.5');
  });
});

describe('FREE_PLAN_LIMITS', () => {
  it('allows a single seat, 1 project and 2 environments', () => {
    expect(FREE_PLAN_LIMITS).toMatchObject({ maxOrganisationUsers: 1, maxProjects: 1, maxEnvironments: 2 });
    expect(withinLimit(1, FREE_PLAN_LIMITS.maxEnvironments)).toBe(true);
    expect(withinLimit(2, FREE_PLAN_LIMITS.maxEnvironments)).toBe(false);
  });
});

describe('monthlyPricePerSeat', () => {
  it('converts cents and spreads a yearly price over 12 months', () => {
    expect(monthlyPricePerSeat({ amount: 1500, interval: 'month' })).toBe(15);
    expect(monthlyPricePerSeat({ amount: 12000, interval: 'year' })).toBe(10);
  });
});
