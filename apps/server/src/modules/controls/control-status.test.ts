import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { sql, type SQL } from 'drizzle-orm';
import { STALE_AFTER_DAYS, TARGETING_STATUSES, targetingStatusOf, trafficOf, type Rule } from '@vexil/core';
import { openTestDatabase, type TestDatabase } from '../../../test/test-database';
import { filterCondition, targetingStatusSql, trafficStatusSql } from './controls.repository';

/*
 * The feature list filters controls by their statuses in SQL (controls.repository.ts) while the views
 * compute them in core (targetingStatusOf, trafficOf). These properties hold the two to one definition:
 * for any set of controls, the SQL says what core says, and each filter keeps exactly the controls
 * whose shown status matches it.
 */

let database: TestDatabase;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database.destroy();
});

type Control = { enabled: boolean; rules: Rule[]; lastImpressionAt: Date | null };

const DAY_MS = 24 * 60 * 60 * 1000;
const NOW = new Date('2026-03-29T01:30:00.123Z');

const split = fc.record({
  variantKey: fc.constantFrom('on', 'off', 'blue'),
  split: fc.oneof(fc.constant(100), fc.constant(0), fc.integer({ min: 0, max: 100 })),
});
const audience = fc.oneof(
  fc.constant(null),
  fc.constant({ conditions: [{ target: 'tier', operator: 'equals' as const, values: ['gold'] }] }),
);
const rule: fc.Arbitrary<Rule> = fc.record({
  defaultRule: fc.boolean(),
  audience,
  variantSplits: fc.array(split, { maxLength: 3 }),
}) as fc.Arbitrary<Rule>;
/** Around the 7-day mark to the millisecond, and anywhere from a month ago to a day ahead. */
const lastImpression = fc.oneof(
  fc.constant(null),
  fc.integer({ min: -3, max: 3 }).map((ms) => new Date(NOW.getTime() - STALE_AFTER_DAYS * DAY_MS + ms)),
  fc.integer({ min: -DAY_MS, max: 30 * DAY_MS }).map((ms) => new Date(NOW.getTime() - ms)),
);
const control: fc.Arbitrary<Control> = fc.record({
  enabled: fc.boolean(),
  rules: fc.oneof(
    fc.array(rule, { maxLength: 3 }),
    fc.constant<Rule[]>([
      { defaultRule: true, audience: null, variantSplits: [{ variantKey: 'on', split: 100 }] },
    ]),
  ),
  lastImpressionAt: lastImpression,
});

/** The controls as a table named like the real one, so the expressions read their columns. */
function controlsTable(controls: Control[]): SQL {
  const rows = controls.map(
    (c, index) =>
      sql`(${index}::int, ${c.enabled}::boolean, ${JSON.stringify(c.rules)}::jsonb, ${c.lastImpressionAt?.toISOString() ?? null}::timestamptz)`,
  );
  return sql`(values ${sql.join(rows, sql`, `)}) as feature_controls (idx, enabled, rules, last_impression_at)`;
}

async function rowsOf<T>(query: SQL): Promise<T[]> {
  const result = await database.db.execute(query);
  return ((result as unknown as { rows?: T[] }).rows ?? (result as unknown as T[])).slice();
}

function expected(c: Control) {
  return {
    targeting: targetingStatusOf(c),
    traffic: trafficOf(
      { lastImpressionDate: c.lastImpressionAt?.toISOString() ?? null, createdDate: NOW.toISOString() },
      NOW,
    ).trafficStatus,
  };
}

describe('control statuses in SQL', () => {
  it('are the statuses core computes, for any control', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(control, { minLength: 1, maxLength: 30 }), async (controls) => {
        const rows = await rowsOf<{ idx: number; targeting: string; traffic: string }>(
          sql`select idx, ${targetingStatusSql} as targeting, ${trafficStatusSql(NOW)} as traffic from ${controlsTable(controls)} order by idx`,
        );
        expect(rows.map(({ targeting, traffic }) => ({ targeting, traffic }))).toEqual(
          controls.map(expected),
        );
      }),
      { numRuns: 60 },
    );
  });

  it('filters keep exactly the controls whose status matches', async () => {
    const filters = [
      ...(['on', 'off'] as const).map((state) => ({
        filter: { state },
        keeps: (c: Control) => c.enabled === (state === 'on'),
      })),
      ...[true, false].map((stale) => ({
        filter: { stale },
        keeps: (c: Control) => (expected(c).traffic === 'inactive') === stale,
      })),
      ...TARGETING_STATUSES.map((targeting) => ({
        filter: { targeting },
        keeps: (c: Control) => expected(c).targeting === targeting,
      })),
      {
        filter: { state: 'on' as const, stale: false, targeting: 'single' as const },
        keeps: (c: Control) =>
          c.enabled && expected(c).traffic !== 'inactive' && expected(c).targeting === 'single',
      },
    ];
    await fc.assert(
      fc.asyncProperty(fc.array(control, { minLength: 1, maxLength: 30 }), async (controls) => {
        for (const { filter, keeps } of filters) {
          const rows = await rowsOf<{ idx: number }>(
            sql`select idx from ${controlsTable(controls)} where ${filterCondition(filter, NOW)} order by idx`,
          );
          const want = controls.flatMap((c, index) => (keeps(c) ? [index] : []));
          expect(
            rows.map((r) => r.idx),
            JSON.stringify(filter),
          ).toEqual(want);
        }
      }),
      { numRuns: 25 },
    );
  });

  it('agrees on the 7-day mark to the millisecond, and on a stored time finer than that', async () => {
    const mark = NOW.getTime() - STALE_AFTER_DAYS * DAY_MS;
    const rows = await rowsOf<{ at: string; traffic: string }>(
      sql`select at, ${trafficStatusSql(NOW)} as traffic from (values
        ('A', ${new Date(mark - 1).toISOString()}::timestamptz),
        ('B', ${new Date(mark).toISOString()}::timestamptz),
        ('C', ${new Date(mark).toISOString()}::timestamptz + interval '500 microseconds'),
        ('D', ${new Date(mark + 1).toISOString()}::timestamptz)
      ) as feature_controls (at, last_impression_at) order by at`,
    );
    // C is read by JavaScript as B's millisecond, so it is inactive like B.
    expect(rows.map((r) => r.traffic)).toEqual(['inactive', 'inactive', 'inactive', 'active']);
  });
});
