import { afterEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import cases from './cases.json';
import type { EvaluableControl, EvaluationUser } from './engine';
import { evaluate } from './evaluator';
import { satisfies } from './operators';
import { rulesWithUtcDates } from '../rules';
import type { Rule } from '../schemas/targeting';

/**
 * Date rules must fire at the same instant on every server: the engine runs here under time zones
 * west and east of UTC (Node reads `process.env.TZ` again when it changes), and every vector of
 * cases.json must still hold.
 */
const ZONES = ['America/New_York', 'Asia/Tokyo'] as const;
/** Core has no Node types (it runs in browsers too); its tests run in Node. */
const env = (globalThis as unknown as { process: { env: Record<string, string | undefined> } }).process.env;
const originalZone = env.TZ;

function inZone(zone: string, run: () => void) {
  env.TZ = zone;
  // 2026-07-03 is in summer time in New York (UTC-4) and Tokyo is UTC+9: the zone really applies.
  expect(new Date(Date.UTC(2026, 6, 3)).getTimezoneOffset()).not.toBe(0);
  run();
}

afterEach(() => {
  if (originalZone === undefined) delete env.TZ;
  else env.TZ = originalZone;
});

describe.each(ZONES)('with the host in %s', (zone) => {
  it('every operator vector of cases.json holds', () => {
    inZone(zone, () => {
      for (const row of cases.operators) {
        expect(satisfies(row.operator, row.userValue, row.values), JSON.stringify(row)).toBe(row.expected);
      }
    });
  });

  it('every evaluation vector of cases.json holds', () => {
    inZone(zone, () => {
      for (const row of cases.evaluations) {
        const result = evaluate(
          row.control as EvaluableControl,
          row.user as EvaluationUser,
          new Date(row.now),
        );
        expect(result, row.name).toEqual(row.expected);
      }
    });
  });

  it('reads a date-time without an offset as the UTC instant of the same text', () => {
    inZone(zone, () => {
      fc.assert(
        fc.property(
          fc.integer({ min: Date.UTC(1971, 0, 1), max: Date.UTC(2099, 11, 31) }),
          fc.constantFrom('T', ' '),
          (time, separator) => {
            const text = new Date(time).toISOString().slice(0, 23).replace('T', separator);
            const before = new Date(time - 1).toISOString();
            const after = new Date(time + 1).toISOString();
            expect(satisfies('after', after, [text])).toBe(true);
            expect(satisfies('before', before, [text])).toBe(true);
            expect(satisfies('after', new Date(time).toISOString(), [text])).toBe(false);
            expect(satisfies('before', text, [after])).toBe(true);
          },
        ),
      );
    });
  });
});

describe('rulesWithUtcDates (the SDK payload)', () => {
  const rule = (operator: string, values: string[]): Rule =>
    ({
      defaultRule: false,
      audience: { conditions: [{ target: 'featureflow.date', operator, values }] },
      variantSplits: [{ variantKey: 'on', split: 100 }],
    }) as Rule;

  it('gives before/after date-times without an offset a Z, and leaves the rest alone', () => {
    const rules = [
      rule('after', ['2026-07-03T10:00']),
      rule('before', ['2026-07-03 10:00:00.5']),
      rule('after', ['2026-07-03']),
      rule('after', ['2026-07-03T10:00+02:00']),
      rule('equals', ['2026-07-03T10:00']),
    ];
    const sent = rulesWithUtcDates(rules);
    expect(sent.map((r) => r.audience?.conditions[0]?.values)).toEqual([
      ['2026-07-03T10:00:00Z'],
      ['2026-07-03T10:00:00.5Z'],
      ['2026-07-03'],
      ['2026-07-03T10:00+02:00'],
      ['2026-07-03T10:00'],
    ]);
    expect(sent[2]).toBe(rules[2]);
    expect(rules[0]!.audience?.conditions[0]?.values).toEqual(['2026-07-03T10:00']);
  });

  it('means the same instant to the engine as before', () => {
    inZone('Asia/Tokyo', () => {
      const control = cases.evaluations.find((row) => row.name.includes('without an offset'))!;
      const sent = {
        ...(control.control as EvaluableControl),
        rules: rulesWithUtcDates((control.control as EvaluableControl).rules as Rule[]),
      };
      expect(evaluate(sent, control.user, new Date(control.now))).toEqual(control.expected);
    });
  });
});
