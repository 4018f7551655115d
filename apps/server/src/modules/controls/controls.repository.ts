import { and, asc, eq, inArray, not, sql, type SQL } from 'drizzle-orm';
import { DAY_MS, STALE_AFTER_DAYS, type TargetingStatus, type TrafficStatus } from '@vexil/core';
import type { Executor } from '../../db/client';
import {
  environments,
  featureControls,
  features,
  projects,
  variants,
  type NewFeatureControlRow,
} from '../../db/schema/index';
import type { ControlInScope, ControlRecord } from './controls.types';

/** The columns of a {@link ControlRecord}. */
const controlColumns = {
  id: featureControls.id,
  featureId: featureControls.featureId,
  environmentId: featureControls.environmentId,
  enabled: featureControls.enabled,
  offVariantKey: featureControls.offVariantKey,
  rules: featureControls.rules,
  available: featureControls.available,
  lastImpressionAt: featureControls.lastImpressionAt,
  createdAt: featureControls.createdAt,
  updatedAt: featureControls.updatedAt,
};

/** The live features of a project with their variant keys in order. */
export async function listFeatureVariantKeys(db: Executor, organisationId: string, projectId: string) {
  const rows = await db
    .select({ featureId: features.id, variantKey: variants.key })
    .from(features)
    .leftJoin(variants, eq(variants.featureId, features.id))
    .where(
      and(
        eq(features.organisationId, organisationId),
        eq(features.projectId, projectId),
        eq(features.archived, false),
      ),
    )
    .orderBy(asc(features.id), asc(variants.position), asc(variants.key));
  const byFeature = new Map<string, string[]>();
  for (const row of rows) {
    const keys = byFeature.get(row.featureId) ?? [];
    if (row.variantKey !== null) keys.push(row.variantKey);
    byFeature.set(row.featureId, keys);
  }
  return byFeature;
}

export async function listControlsOfEnvironment(
  db: Executor,
  organisationId: string,
  environmentId: string,
): Promise<ControlRecord[]> {
  return db
    .select(controlColumns)
    .from(featureControls)
    .where(
      and(
        eq(featureControls.organisationId, organisationId),
        eq(featureControls.environmentId, environmentId),
      ),
    );
}

/** Stores new controls and returns those stored (a control that already existed is left as it is). */
export async function insertControls(db: Executor, rows: NewFeatureControlRow[]): Promise<ControlRecord[]> {
  const stored: ControlRecord[] = [];
  // Chunked: one statement per 500 rows stays far below PostgreSQL's parameter limit.
  for (let start = 0; start < rows.length; start += 500) {
    stored.push(
      ...(await db
        .insert(featureControls)
        .values(rows.slice(start, start + 500))
        .onConflictDoNothing()
        .returning(controlColumns)),
    );
  }
  return stored;
}

/** Controls of these features in live environments (optionally only `environmentIds`), with the environment. */
export async function controlsOfFeatures(
  db: Executor,
  organisationId: string,
  featureIds: string[],
  environmentIds?: string[],
): Promise<{ control: ControlRecord; environment: { id: string; key: string } }[]> {
  if (featureIds.length === 0 || environmentIds?.length === 0) return [];
  return db
    .select({ control: controlColumns, environment: { id: environments.id, key: environments.key } })
    .from(featureControls)
    .innerJoin(environments, eq(environments.id, featureControls.environmentId))
    .where(
      and(
        eq(featureControls.organisationId, organisationId),
        inArray(featureControls.featureId, featureIds),
        eq(environments.archived, false),
        environmentIds ? inArray(featureControls.environmentId, environmentIds) : undefined,
      ),
    )
    .orderBy(asc(environments.createdAt), asc(environments.name));
}

/**
 * A control of a live feature in a live environment of a live project, with all three. `forUpdate`
 * locks the control's row (only it) until the transaction ends, so a version check and the write
 * that follows see the same row.
 */
export async function findControl(
  db: Executor,
  organisationId: string,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<ControlInScope | null> {
  const query = inScope(
    db,
    and(eq(featureControls.organisationId, organisationId), eq(featureControls.id, id)),
  );
  const [row] = options.forUpdate ? await query.for('update', { of: featureControls }) : await query;
  return row ?? null;
}

/** The control of a live feature in a live environment of a live project, found by their keys. */
export async function findControlByKeys(
  db: Executor,
  organisationId: string,
  keys: { projectKey: string; featureKey: string; environmentKey: string },
): Promise<ControlInScope | null> {
  const [row] = await inScope(
    db,
    and(
      eq(featureControls.organisationId, organisationId),
      eq(projects.key, keys.projectKey),
      eq(features.key, keys.featureKey),
      eq(environments.key, keys.environmentKey),
    ),
  );
  return row ?? null;
}

function inScope(db: Executor, condition: SQL | undefined) {
  return db
    .select({
      control: controlColumns,
      feature: { id: features.id, key: features.key, name: features.name },
      environment: {
        id: environments.id,
        key: environments.key,
        name: environments.name,
        production: environments.production,
        tags: environments.tags,
      },
      project: { id: projects.id, key: projects.key, name: projects.name },
    })
    .from(featureControls)
    .innerJoin(features, eq(features.id, featureControls.featureId))
    .innerJoin(environments, eq(environments.id, featureControls.environmentId))
    .innerJoin(projects, eq(projects.id, features.projectId))
    .where(
      and(
        condition,
        eq(features.archived, false),
        eq(environments.archived, false),
        eq(projects.archived, false),
      ),
    )
    .limit(1);
}

export async function updateControl(
  db: Executor,
  organisationId: string,
  id: string,
  changes: Partial<NewFeatureControlRow>,
): Promise<ControlRecord> {
  const [row] = await db
    .update(featureControls)
    .set(changes)
    .where(and(eq(featureControls.organisationId, organisationId), eq(featureControls.id, id)))
    .returning(controlColumns);
  return row!;
}

/** The variants of a feature, in order: what a control may serve. */
export async function variantsOf(db: Executor, organisationId: string, featureId: string) {
  return db
    .select({ key: variants.key, name: variants.name })
    .from(variants)
    .where(and(eq(variants.organisationId, organisationId), eq(variants.featureId, featureId)))
    .orderBy(asc(variants.position), asc(variants.key));
}

/** Marks a feature's control in one environment as registered by an SDK, keeping the first date. */
export async function markAvailable(db: Executor, featureId: string, environmentId: string, at: Date) {
  await db
    .update(featureControls)
    .set({
      available: true,
      availableAt: sql`coalesce(${featureControls.availableAt}, ${at.toISOString()}::timestamptz)`,
    })
    .where(and(eq(featureControls.featureId, featureId), eq(featureControls.environmentId, environmentId)));
}

/** Live features' controls in an environment, with the feature's name (to find rules using a segment). */
export async function rulesOfEnvironment(db: Executor, organisationId: string, environmentId: string) {
  return db
    .select({ name: features.name, rules: featureControls.rules })
    .from(featureControls)
    .innerJoin(features, eq(features.id, featureControls.featureId))
    .where(
      and(
        eq(featureControls.organisationId, organisationId),
        eq(featureControls.environmentId, environmentId),
        eq(features.archived, false),
      ),
    );
}

/**
 * A control's targeting status (docs/product.md §4) in SQL over `feature_controls`, exactly as core's
 * `targetingStatusOf` derives it: `off` when disabled; `single` when the rules are one default rule
 * giving some variant 100 %; `targeted` otherwise. JSON values are compared as JSON (`true`, `100`),
 * as the JavaScript compares them.
 */
export const targetingStatusSql: SQL<TargetingStatus> = sql<TargetingStatus>`(case
  when not ${featureControls.enabled} then 'off'
  when jsonb_array_length(${featureControls.rules}) = 1
    and ${featureControls.rules} -> 0 -> 'defaultRule' = 'true'::jsonb
    and exists (
      select 1 from jsonb_array_elements(${featureControls.rules} -> 0 -> 'variantSplits') as given(split)
      where given.split -> 'split' = '100'::jsonb
    ) then 'single'
  else 'targeted' end)`;

/**
 * A control's traffic status at `now` (docs/product.md §4) in SQL over `feature_controls`, exactly as
 * core's `trafficOf` derives it: `never` without an impression; `inactive` once whole days since the
 * last one reach `STALE_AFTER_DAYS`; `active` otherwise. The threshold is computed here, in
 * milliseconds, rather than with an SQL interval (whose days follow the session's time zone), and the
 * stored time is cut to the milliseconds a JavaScript date keeps.
 */
export function trafficStatusSql(now: Date): SQL<TrafficStatus> {
  const inactiveFrom = new Date(now.getTime() - STALE_AFTER_DAYS * DAY_MS).toISOString();
  return sql<TrafficStatus>`(case
    when ${featureControls.lastImpressionAt} is null then 'never'
    when date_trunc('milliseconds', ${featureControls.lastImpressionAt}) <= ${inactiveFrom}::timestamptz then 'inactive'
    else 'active' end)`;
}

/** The feature list's filters on a control (core's `featureListQuery`: `state`, `stale`, `targeting`). */
export type ControlFilter = {
  state?: 'on' | 'off' | undefined;
  stale?: boolean | undefined;
  targeting?: TargetingStatus | undefined;
};

/** The condition on `feature_controls` keeping the controls that pass `filter` at `now`; undefined for none. */
export function filterCondition(filter: ControlFilter, now: Date): SQL | undefined {
  const inactive = sql`${trafficStatusSql(now)} = 'inactive'`;
  return and(
    filter.state === undefined ? undefined : eq(featureControls.enabled, filter.state === 'on'),
    filter.stale === undefined ? undefined : filter.stale ? inactive : not(inactive),
    filter.targeting === undefined ? undefined : sql`${targetingStatusSql} = ${filter.targeting}`,
  );
}
