import { and, asc, eq, inArray, or, sql } from 'drizzle-orm';
import type { Executor } from '../db/client';
import {
  environments,
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
  serverApiKey: string;
  jsApiKey: string;
};

const liveEnvironment = and(eq(environments.archived, false), eq(projects.archived, false));

const keyColumns = {
  environmentId: environments.id,
  organisationId: environments.organisationId,
  projectId: environments.projectId,
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

/** The controls of the environment's live features, by feature key. */
export async function controlsOf(db: Executor, environmentId: string): Promise<ControlRow[]> {
  return db
    .select({
      controlId: featureControls.id,
      featureId: features.id,
      key: features.key,
      enabled: featureControls.enabled,
      offVariantKey: featureControls.offVariantKey,
      inClientApi: featureControls.inClientApi,
      rules: featureControls.rules,
    })
    .from(featureControls)
    .innerJoin(features, eq(features.id, featureControls.featureId))
    .where(and(eq(featureControls.environmentId, environmentId), eq(features.archived, false)))
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
