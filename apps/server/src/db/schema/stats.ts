import { bigint, date, index, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { featureControls } from './features.ts';
import { organisationId } from './tenant.ts';

/*
 * Counters flushed by the SDK event ingestion (docs/architecture.md "Data"): raw events are not stored.
 * A flush upserts `on conflict (…primary key…) do update set count = count + excluded.count`.
 * `day` is the UTC calendar day of the event, as 'YYYY-MM-DD'. The natural key is the primary
 * key: these are the hottest writes, and a surrogate uuid would only add an index.
 */

/** Impressions of a feature control per variant and day (statistics, charts, usage). */
export const impressionCounters = pgTable(
  'impression_counters',
  {
    organisationId: organisationId(),
    featureControlId: uuid('feature_control_id')
      .notNull()
      .references(() => featureControls.id, { onDelete: 'cascade' }),
    variantKey: text('variant_key').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    count: bigint('count', { mode: 'number' }).notNull().default(0),
  },
  (t) => [
    // control, day: GET /variant-daily-impressions and "impressions today".
    primaryKey({ name: 'impression_counters_pk', columns: [t.featureControlId, t.day, t.variantKey] }),
    // Usage impressionsUsed over the billing period.
    index('impression_counters_organisation_day_idx').on(t.organisationId, t.day),
  ],
);

export type ImpressionCounterRow = typeof impressionCounters.$inferSelect;
export type NewImpressionCounterRow = typeof impressionCounters.$inferInsert;
