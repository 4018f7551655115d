import { DAY_MS, type VariantDailyImpressions } from '@vexil/core';
import type { Database, Executor } from '../../db/client';
import * as repo from './impressions.repository';

/** Days the variant daily impressions chart covers, today included. */
export const IMPRESSION_CHART_DAYS = 30;

/** UTC calendar day, as impression counters key it. */
export function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/** Today's impressions of each control, per variant key. */
export type TodayCounts = Map<string, Map<string, number>>;

export type ImpressionsService = ReturnType<typeof createImpressionsService>;

/**
 * The statistics SDK impressions feed: today's counts per control and variant, and the daily series
 * of the last 30 days. Ingestion (src/sdk/ingestion.ts) writes the counters; this module reads them.
 */
export function createImpressionsService(deps: { db: Database; now?: () => Date }) {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());
  return {
    /** Today's (UTC) impressions of these controls, per variant. */
    async today(
      executor: Executor,
      organisationId: string,
      controlIds: readonly string[],
    ): Promise<TodayCounts> {
      const rows = await repo.countsOn(executor, organisationId, controlIds, utcDay(now()));
      const byControl: TodayCounts = new Map();
      for (const row of rows) {
        const counts = byControl.get(row.controlId) ?? new Map<string, number>();
        counts.set(row.variantKey, (counts.get(row.variantKey) ?? 0) + row.count);
        byControl.set(row.controlId, counts);
      }
      return byControl;
    },

    /** Every impression a control's variants have had, of these variants (a ramp's exposures). */
    total(
      executor: Executor,
      organisationId: string,
      controlId: string,
      variantKeys: readonly string[],
    ): Promise<number> {
      return repo.totalOf(executor, organisationId, controlId, variantKeys);
    },

    /** One control's last 30 days (UTC, today last), one dataset per variant in the variants' order. */
    async dailySeries(
      organisationId: string,
      controlId: string,
      variants: readonly { key: string; name: string }[],
    ): Promise<VariantDailyImpressions> {
      const today = now();
      const labels: string[] = [];
      for (let back = IMPRESSION_CHART_DAYS - 1; back >= 0; back--) {
        labels.push(utcDay(new Date(today.getTime() - back * DAY_MS)));
      }
      const counts = await repo.dailyCounts(db, organisationId, controlId, labels[0]!);
      const index = new Map(labels.map((label, i) => [label, i]));
      const datasets = variants.map((variant) => {
        const data = labels.map(() => 0);
        for (const row of counts) {
          const at = index.get(row.day);
          if (row.variantKey === variant.key && at !== undefined) data[at] = (data[at] ?? 0) + row.count;
        }
        return { label: variant.name, data };
      });
      return { labels, datasets };
    },
  };
}
