import type { ExperimentDay, ExperimentResults } from '@vexil/core';
import type { Executor } from '../../db/client';
import * as repo from './experiments.repository';
import type { ExperimentRecord } from './experiments.types';
import type { ArmPair, ExperimentAnalysis } from './statistics';

/**
 * An experiment's analysis from its counts as they are now (docs/product.md "Experiment statistics"),
 * with the cumulative days it was read over. The statistics page shows all of it; the experiments
 * list shows its outcome (`results`: whether it is valid and the variant winning at 95 %).
 */
export async function analyseStored(
  db: Executor,
  organisationId: string,
  row: ExperimentRecord,
): Promise<{ analysis: ExperimentAnalysis; days: ExperimentDay[] }> {
  const counts = await repo.variantCounts(db, organisationId, row.id);
  const daily = await repo.dailyCounts(db, organisationId, row.id);
  const arm = (key: string) => {
    const found = counts.find((c) => c.variantKey === key);
    return {
      key,
      exposures: found?.exposures ?? 0,
      conversions: found?.conversions ?? 0,
      valueSum: found?.valueSum ?? 0,
    };
  };
  const days = cumulativeDays(daily, [row.control, row.variation]);
  const looks: ArmPair[] = days.slice(0, -1).map((day) => ({
    control: {
      exposures: day.variants[row.control]!.impressions,
      conversions: day.variants[row.control]!.goals,
    },
    variation: {
      exposures: day.variants[row.variation]!.impressions,
      conversions: day.variants[row.variation]!.goals,
    },
  }));
  const rules = await repo.rulesOf(db, organisationId, row.featureId, row.environmentId);
  // The statistics (and their distribution functions) load with the first results asked for.
  const { analyseExperiment } = await import('./statistics');
  const analysis = analyseExperiment({
    control: arm(row.control),
    variation: arm(row.variation),
    expectedVariationShare: configuredShare(rules, row.control, row.variation),
    mode: row.mode,
    sequential: { earlierLooks: looks },
    usersInBothVariants: counts.reduce((sum, c) => sum + c.crossed, 0),
  });
  return { analysis, days };
}

/**
 * What the experiments list shows of an experiment (`results`: whether its analysis is valid, and
 * the variant winning at 95 %), read from its counts as they are now; none before it has started.
 * Nothing is stored: every read counts again, so the list and the statistics page always agree.
 */
export async function currentResults(
  db: Executor,
  organisationId: string,
  row: ExperimentRecord,
): Promise<ExperimentResults | null> {
  if (!row.startDate) return null;
  const { analysis: read } = await analyseStored(db, organisationId, row);
  return { validResult: read.validResult, winningVariation: read.winningVariation };
}

/**
 * The share of the alternate among the experiment's users that the targeting configures: from the
 * default rule's split between the two variants, else the first rule splitting between both, else
 * even. The sample-ratio check compares the exposures with it.
 */
export function configuredShare(
  rules: readonly {
    defaultRule?: boolean;
    variantSplits: readonly { variantKey: string; split: number }[];
  }[],
  control: string,
  variation: string,
): number {
  const shareOf = (rule: (typeof rules)[number]) => {
    const split = (key: string) => rule.variantSplits.find((s) => s.variantKey === key)?.split ?? 0;
    const [c, v] = [split(control), split(variation)];
    return c > 0 && v > 0 ? v / (c + v) : null;
  };
  const ordered = [...rules.filter((rule) => rule.defaultRule), ...rules.filter((rule) => !rule.defaultRule)];
  for (const rule of ordered) {
    const share = shareOf(rule);
    if (share !== null) return share;
  }
  return 0.5;
}

/** The daily new exposures and conversions added up, per variant, for every day from the first to the last. */
export function cumulativeDays(
  daily: {
    exposed: { day: string; variantKey: string; count: number }[];
    converted: { day: string; variantKey: string; count: number }[];
  },
  variantKeys: readonly string[],
): ExperimentDay[] {
  const dayKeys = [...new Set([...daily.exposed, ...daily.converted].map((row) => row.day))].sort();
  const totals = new Map(variantKeys.map((key) => [key, { impressions: 0, goals: 0 }]));
  const byDay = (rows: { day: string; variantKey: string; count: number }[]) => {
    const map = new Map<string, number>();
    for (const row of rows) map.set(`${row.day} ${row.variantKey}`, row.count);
    return map;
  };
  const exposed = byDay(daily.exposed);
  const converted = byDay(daily.converted);
  return dayKeys.map((day) => {
    for (const [key, total] of totals) {
      total.impressions += exposed.get(`${day} ${key}`) ?? 0;
      total.goals += converted.get(`${day} ${key}`) ?? 0;
    }
    return { day, variants: Object.fromEntries([...totals].map(([key, total]) => [key, { ...total }])) };
  });
}
