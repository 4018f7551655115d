import { describeRules, targetingStatusOf, trafficOf, type FeatureControl } from '@vexil/core';
import type { ControlRecord } from './controls.types';

export type ControlContext = {
  featureKey: string;
  environmentKey: string;
  variantNames: Record<string, string>;
  /** Today's impressions of this control per variant. */
  impressionsToday: Map<string, number>;
};

/** A stored control as the API shows it, with its computed statuses (docs/product.md §3 Feature control). */
export function toControlView(row: ControlRecord, context: ControlContext, now: Date): FeatureControl {
  const lastImpressionDate = row.lastImpressionAt?.toISOString() ?? null;
  const createdDate = row.createdAt.toISOString();
  const { trafficStatus, staleDays } = trafficOf({ lastImpressionDate, createdDate }, now);
  let total = 0;
  const variants: Record<string, { impressions: { today: number } }> = {};
  for (const key of Object.keys(context.variantNames)) {
    const today = context.impressionsToday.get(key) ?? 0;
    total += today;
    variants[key] = { impressions: { today } };
  }
  return {
    id: row.id,
    key: context.featureKey,
    environmentKey: context.environmentKey,
    enabled: row.enabled,
    offVariantKey: row.offVariantKey,
    rules: row.rules,
    available: row.available,
    trafficStatus,
    targetingStatus: targetingStatusOf({ enabled: row.enabled, rules: row.rules }),
    staleDays,
    rulesDescription: describeRules(
      { enabled: row.enabled, offVariantKey: row.offVariantKey, rules: row.rules },
      context.variantNames,
    ),
    createdDate,
    lastModifiedDate: row.updatedAt.toISOString(),
    statistics: { lastImpressionDate, impressions: { today: total }, variants },
  };
}
