import { and, asc, eq, inArray, or, sql } from 'drizzle-orm';
import type { Executor } from '../db/client';
import {
  environments,
  experiments,
  schedules,
  featureControls,
  features,
  projects,
  variants,
  type ControlRule,
  type JsonValue,
} from '../db/schema/index';

export type EnvironmentKeys = {
  environmentId: string;
  organisationId: string;
  projectId: string;
  /** The dashboard's names of the environment and its project (for live changes). */
  projectKey: string;
  environmentKey: string;
  serverApiKey: string;
  jsApiKey: string;
};

const liveEnvironment = and(eq(environments.archived, false), eq(projects.archived, false));

const keyColumns = {
  environmentId: environments.id,
  organisationId: environments.organisationId,
  projectId: environments.projectId,
  projectKey: projects.key,
  environmentKey: environments.key,
  serverApiKey: environments.serverApiKey,
  jsApiKey: environments.jsApiKey,
};

/** Every live environment of every organisation (the SDK store loads them all at start). */
export async function liveEnvironments(db: Executor): Promise<EnvironmentKeys[]> {
  return db
    .select(keyColumns)
    .from(environments)
    .innerJoin(projects, eq(projects.id, environments.projectId))
    .where(liveEnvironment)
    .orderBy(asc(environments.createdAt));
}

export async function environmentById(db: Executor, id: string): Promise<EnvironmentKeys | null> {
  const [row] = await db
    .select(keyColumns)
    .from(environments)
    .innerJoin(projects, eq(projects.id, environments.projectId))
    .where(and(liveEnvironment, eq(environments.id, id)))
    .limit(1);
  return row ?? null;
}

/** A live environment by either of its SDK keys. */
export async function environmentByKey(db: Executor, key: string): Promise<EnvironmentKeys | null> {
  const [row] = await db
    .select(keyColumns)
    .from(environments)
    .innerJoin(projects, eq(projects.id, environments.projectId))
    .where(and(liveEnvironment, or(eq(environments.serverApiKey, key), eq(environments.jsApiKey, key))))
    .limit(1);
  return row ?? null;
}

export type ControlRow = {
  controlId: string;
  featureId: string;
  key: string;
  enabled: boolean;
  offVariantKey: string;
  inClientApi: boolean;
  rules: ControlRule[];
};

const controlColumns = {
  controlId: featureControls.id,
  featureId: features.id,
  key: features.key,
  enabled: featureControls.enabled,
  offVariantKey: featureControls.offVariantKey,
  inClientApi: featureControls.inClientApi,
  rules: featureControls.rules,
};

/**
 * The controls of the environment's live features, by feature key in byte order (`collate "C"`,
 * which `compareKeys` in sdk-store.ts reproduces to place a patched-in feature).
 */
export async function controlsOf(db: Executor, environmentId: string): Promise<ControlRow[]> {
  return db
    .select(controlColumns)
    .from(featureControls)
    .innerJoin(features, eq(features.id, featureControls.featureId))
    .where(and(eq(featureControls.environmentId, environmentId), eq(features.archived, false)))
    .orderBy(sql`${features.key} collate "C"`);
}

/**
 * The environment's controls of some features, those still live (a patch of the payload: a feature
 * missing from the answer was deleted).
 */
export async function controlsOfFeatures(
  db: Executor,
  environmentId: string,
  featureIds: readonly string[],
): Promise<ControlRow[]> {
  if (featureIds.length === 0) return [];
  return db
    .select(controlColumns)
    .from(featureControls)
    .innerJoin(features, eq(features.id, featureControls.featureId))
    .where(
      and(
        eq(featureControls.environmentId, environmentId),
        inArray(features.id, [...featureIds]),
        eq(features.archived, false),
      ),
    )
    .orderBy(sql`${features.key} collate "C"`);
}

export async function variantsOf(db: Executor, featureIds: string[]) {
  if (featureIds.length === 0) return [];
  return db
    .select({ featureId: variants.featureId, key: variants.key, name: variants.name, value: variants.value })
    .from(variants)
    .where(inArray(variants.featureId, featureIds))
    .orderBy(asc(variants.position), asc(variants.key));
}

export type VariantRow = { featureId: string; key: string; name: string; value: JsonValue | null };

/** An enabled, started experiment of the environment: what the event ingestion counts for. */
export type RunningExperiment = {
  id: string;
  organisationId: string;
  featureKey: string;
  goalKey: string;
  control: string;
  variation: string;
  startDate: Date;
  endDate: Date | null;
};

/** The environment's enabled experiments that have started, on live features. */
export async function runningExperimentsOf(
  db: Executor,
  environmentId: string,
): Promise<RunningExperiment[]> {
  const rows = await db
    .select({
      id: experiments.id,
      organisationId: experiments.organisationId,
      featureKey: features.key,
      goalKey: experiments.goalKey,
      control: experiments.controlVariantKey,
      variation: experiments.variationVariantKey,
      startDate: experiments.startDate,
      endDate: experiments.endDate,
    })
    .from(experiments)
    .innerJoin(features, eq(features.id, experiments.featureId))
    .where(
      and(
        eq(experiments.environmentId, environmentId),
        eq(experiments.enabled, true),
        eq(experiments.archived, false),
        eq(features.archived, false),
        sql`${experiments.startDate} is not null`,
      ),
    );
  return rows.map((row) => ({ ...row, startDate: row.startDate! }));
}

/** A running ramp of the environment: whose rule's users the event ingestion sorts into arms. */
export type RunningRamp = {
  id: string;
  organisationId: string;
  featureKey: string;
  ruleIndex: number;
  variantKey: string;
  /** The ramp's step now (from 0). */
  step: number;
};

/** The environment's running ramps (docs/adr/0026-guarded-rollouts.md), on live features. */
export async function runningRampsOf(db: Executor, environmentId: string): Promise<RunningRamp[]> {
  const rows = await db
    .select({
      id: schedules.id,
      organisationId: schedules.organisationId,
      featureKey: features.key,
      spec: schedules.spec,
      step: schedules.step,
    })
    .from(schedules)
    .innerJoin(features, eq(features.id, schedules.featureId))
    .where(
      and(
        eq(schedules.environmentId, environmentId),
        eq(schedules.kind, 'ramp'),
        eq(schedules.state, 'running'),
        eq(features.archived, false),
      ),
    );
  return rows.flatMap(({ spec, ...row }) =>
    spec.kind === 'ramp' && row.step >= 0
      ? [{ ...row, ruleIndex: spec.ruleIndex, variantKey: spec.variantKey }]
      : [],
  );
}
