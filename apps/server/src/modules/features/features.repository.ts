import { and, arrayContains, asc, count, desc, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { FeatureListSortColumn, FeatureSortColumn, SortDirection } from '@vexil/core';
import { readTogether, type Executor } from '../../db/client';
import { containsPattern } from '../../db/text-search';
import {
  bookmarks,
  featureControls,
  features,
  projects,
  users,
  variants,
  type NewFeatureRow,
  type NewVariantRow,
} from '../../db/schema/index';
import type { FeatureRecord, FeatureWithProject, ListedFeature, VariantRecord } from './features.types';

/** The columns of a {@link FeatureRecord}. */
export const featureColumns = {
  id: features.id,
  projectId: features.projectId,
  key: features.key,
  name: features.name,
  description: features.description,
  permanent: features.permanent,
  tags: features.tags,
  maintainerId: features.maintainerId,
  archived: features.archived,
  createdAt: features.createdAt,
  updatedAt: features.updatedAt,
};

const projectColumns = { id: projects.id, key: projects.key, name: projects.name };

/** The columns of a {@link FeatureWithProject}. */
const featureWithProjectColumns = { feature: featureColumns, project: projectColumns };

/** Live features of live projects of the organisation. */
function liveFeatures(organisationId: string): SQL {
  return and(
    eq(features.organisationId, organisationId),
    eq(features.archived, false),
    eq(projects.archived, false),
  )!;
}

function matching(text: string | undefined): SQL | undefined {
  if (!text) return undefined;
  const pattern = containsPattern(text);
  return or(
    ilike(features.name, pattern),
    ilike(features.key, pattern),
    ilike(features.description, pattern),
  );
}

export async function findByKey(
  db: Executor,
  organisationId: string,
  projectKey: string,
  featureKey: string,
): Promise<FeatureWithProject | null> {
  const [row] = await db
    .select(featureWithProjectColumns)
    .from(features)
    .innerJoin(projects, eq(projects.id, features.projectId))
    .where(and(liveFeatures(organisationId), eq(projects.key, projectKey), eq(features.key, featureKey)))
    .limit(1);
  return row ?? null;
}

export async function findById(
  db: Executor,
  organisationId: string,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<FeatureWithProject | null> {
  const query = db
    .select(featureWithProjectColumns)
    .from(features)
    .innerJoin(projects, eq(projects.id, features.projectId))
    .where(and(liveFeatures(organisationId), eq(features.id, id)))
    .limit(1);
  const [row] = options.forUpdate ? await query.for('update', { of: features }) : await query;
  return row ?? null;
}

/** Features across the organisation whose name, key or description contains `text`, by name. */
export async function search(
  db: Executor,
  organisationId: string,
  text: string | undefined,
  limit: number,
): Promise<FeatureWithProject[]> {
  return db
    .select(featureWithProjectColumns)
    .from(features)
    .innerJoin(projects, eq(projects.id, features.projectId))
    .where(and(liveFeatures(organisationId), matching(text)))
    .orderBy(asc(features.name), asc(features.key))
    .limit(limit);
}

/** Features of one project matching `text`, by name (link page, feature pickers). */
export async function searchInProject(
  db: Executor,
  organisationId: string,
  projectId: string,
  text: string | undefined,
  limit: number,
): Promise<FeatureWithProject[]> {
  return db
    .select(featureWithProjectColumns)
    .from(features)
    .innerJoin(projects, eq(projects.id, features.projectId))
    .where(and(liveFeatures(organisationId), eq(features.projectId, projectId), matching(text)))
    .orderBy(asc(features.name), asc(features.key))
    .limit(limit);
}

export type HomeList = 'recent' | 'bookmarked' | 'maintaining';

/**
 * When a feature last changed: its settings (its own `updated_at`, the version settings writes are
 * checked against) or any of its controls, whichever is later.
 */
const lastChanged = sql<Date>`greatest(${features.updatedAt}, (select max(${featureControls.updatedAt}) from ${featureControls} where ${featureControls.featureId} = ${features.id}))`;

/** The maintainer's name as the dashboard shows it (core's displayName: full name, else e-mail); null without one. */
const maintainerName = sql<
  string | null
>`(select coalesce(nullif(trim(${users.firstName} || ' ' || ${users.lastName}), ''), ${users.email}) from ${users} where ${users.id} = ${features.maintainerId})`;

/** The SQL each sortable column (home lists, an environment's feature list) sorts by. */
const sortColumns: Record<FeatureSortColumn, SQL> = {
  lastChanged,
  key: sql`${features.key}`,
  name: sql`${features.name}`,
  description: sql`${features.description}`,
  project: sql`${projects.name}`,
  maintainer: maintainerName,
};

/**
 * The order of a sorted feature list: blank cells (no description, no maintainer) last either way,
 * and ties broken by name, key and id so that pages never overlap.
 */
function orderOf(column: FeatureSortColumn, direction: SortDirection): SQL[] {
  const expression = sortColumns[column];
  const blankLast =
    column === 'description' || column === 'maintainer' ? [sql`coalesce(${expression}, '') = ''`] : [];
  const order = direction === 'asc' ? asc : desc;
  return [...blankLast, order(expression), asc(features.name), asc(features.key), asc(features.id)];
}

/** The columns of a listed feature: a {@link FeatureWithProject} and when it last changed. */
const listedColumns = { ...featureWithProjectColumns, lastChanged: lastChanged.mapWith(features.updatedAt) };

export type HomeListOptions = {
  list: HomeList;
  text: string | undefined;
  sortBy: FeatureSortColumn;
  direction: SortDirection;
  offset: number;
  limit: number;
};

/**
 * One page of a home list (recently changed, bookmarked by the user, maintained by the user) with its
 * total, each row with when it last changed, sorted by {@link orderOf}.
 */
export async function homeList(
  db: Executor,
  organisationId: string,
  userId: string,
  options: HomeListOptions,
): Promise<{ rows: ListedFeature[]; total: number }> {
  const where = and(
    liveFeatures(organisationId),
    matching(options.text),
    options.list === 'maintaining' ? eq(features.maintainerId, userId) : undefined,
    options.list === 'bookmarked'
      ? sql`exists (select 1 from ${bookmarks} where ${bookmarks.featureId} = ${features.id} and ${bookmarks.userId} = ${userId})`
      : undefined,
  );
  const [rows, [total]] = await readTogether(db, [
    () =>
      db
        .select(listedColumns)
        .from(features)
        .innerJoin(projects, eq(projects.id, features.projectId))
        .where(where)
        .orderBy(...orderOf(options.sortBy, options.direction))
        .offset(options.offset)
        .limit(options.limit),
    () =>
      db
        .select({ total: count() })
        .from(features)
        .innerJoin(projects, eq(projects.id, features.projectId))
        .where(where),
  ]);
  return { rows, total: total?.total ?? 0 };
}

export type FeatureListOptions = {
  environmentId: string;
  text: string | undefined;
  /** Features having every one of these tags. */
  tags: string[];
  /** A condition on the feature's control in the environment (the controls module's list filters). */
  control: SQL | undefined;
  sortBy: FeatureListSortColumn;
  direction: SortDirection;
  offset: number;
  limit: number;
};

/**
 * One page of a project's features as an environment's list shows them, with the total: matching the
 * text, having all the tags, and whose control in the environment passes `control`; each row with
 * when it last changed, sorted by {@link orderOf}.
 */
export async function page(
  db: Executor,
  organisationId: string,
  projectId: string,
  options: FeatureListOptions,
): Promise<{ rows: ListedFeature[]; total: number }> {
  const where = and(
    liveFeatures(organisationId),
    eq(features.projectId, projectId),
    matching(options.text),
    options.tags.length > 0 ? arrayContains(features.tags, options.tags) : undefined,
    options.control,
  );
  // At most one control per feature and environment: the join never repeats a feature.
  const controlHere = and(
    eq(featureControls.featureId, features.id),
    eq(featureControls.environmentId, options.environmentId),
  );
  const [rows, [total]] = await readTogether(db, [
    () =>
      db
        .select(listedColumns)
        .from(features)
        .innerJoin(projects, eq(projects.id, features.projectId))
        .leftJoin(featureControls, controlHere)
        .where(where)
        .orderBy(...orderOf(options.sortBy, options.direction))
        .offset(options.offset)
        .limit(options.limit),
    () =>
      db
        .select({ total: count() })
        .from(features)
        .innerJoin(projects, eq(projects.id, features.projectId))
        .leftJoin(featureControls, controlHere)
        .where(where),
  ]);
  return { rows, total: total?.total ?? 0 };
}

/** Whether one of the project's live features has this key (a new feature may not). */
export async function hasLiveKey(db: Executor, projectId: string, key: string): Promise<boolean> {
  const rows = await db
    .select({ id: features.id })
    .from(features)
    .where(and(eq(features.projectId, projectId), eq(features.key, key), eq(features.archived, false)))
    .limit(1);
  return rows.length > 0;
}

/** Keys of the project's live features (the free key offered for a taken one). */
export async function liveKeys(db: Executor, projectId: string): Promise<string[]> {
  const rows = await db
    .select({ key: features.key })
    .from(features)
    .where(and(eq(features.projectId, projectId), eq(features.archived, false)));
  return rows.map((r) => r.key);
}

export async function insert(db: Executor, row: NewFeatureRow): Promise<FeatureRecord> {
  const [created] = await db.insert(features).values(row).returning(featureColumns);
  return created!;
}

export async function update(
  db: Executor,
  organisationId: string,
  id: string,
  changes: Partial<NewFeatureRow>,
): Promise<FeatureRecord> {
  const [updated] = await db
    .update(features)
    .set(changes)
    .where(and(eq(features.organisationId, organisationId), eq(features.id, id)))
    .returning(featureColumns);
  return updated!;
}

/** The variants of the features, each feature's in order. */
export async function variantsOf(
  db: Executor,
  organisationId: string,
  featureIds: string[],
): Promise<VariantRecord[]> {
  if (featureIds.length === 0) return [];
  return db
    .select({
      featureId: variants.featureId,
      key: variants.key,
      name: variants.name,
      description: variants.description,
      value: variants.value,
    })
    .from(variants)
    .where(and(eq(variants.organisationId, organisationId), inArray(variants.featureId, featureIds)))
    .orderBy(asc(variants.position), asc(variants.key));
}

export async function insertVariants(db: Executor, rows: NewVariantRow[]): Promise<void> {
  if (rows.length > 0) await db.insert(variants).values(rows);
}

export async function updateVariant(
  db: Executor,
  featureId: string,
  key: string,
  changes: Partial<NewVariantRow>,
): Promise<void> {
  await db
    .update(variants)
    .set(changes)
    .where(and(eq(variants.featureId, featureId), eq(variants.key, key)));
}

/** Distinct tags of the project's live features containing `text`, alphabetically. */
export async function tagsOf(
  db: Executor,
  organisationId: string,
  projectId: string,
  text: string | undefined,
): Promise<string[]> {
  const tag = sql<string>`unnest(${features.tags})`;
  const rows = await db
    .selectDistinct({ tag })
    .from(features)
    .where(
      and(
        eq(features.organisationId, organisationId),
        eq(features.projectId, projectId),
        eq(features.archived, false),
      ),
    );
  const needle = text?.toLowerCase();
  return rows
    .map((r) => r.tag)
    .filter((t) => !needle || t.toLowerCase().includes(needle))
    .sort();
}

/** Live features of a project by key. */
export async function liveByKeys(
  db: Executor,
  projectId: string,
  keys: string[],
): Promise<{ id: string; key: string }[]> {
  if (keys.length === 0) return [];
  return db
    .select({ id: features.id, key: features.key })
    .from(features)
    .where(and(eq(features.projectId, projectId), eq(features.archived, false), inArray(features.key, keys)));
}

/** Archives the live features of a project being removed; returns how many. */
export async function archiveAllOfProject(
  db: Executor,
  organisationId: string,
  projectId: string,
  at: Date,
): Promise<number> {
  const rows = await db
    .update(features)
    .set({ archived: true, archivedAt: at, updatedAt: at })
    .where(
      and(
        eq(features.organisationId, organisationId),
        eq(features.projectId, projectId),
        eq(features.archived, false),
      ),
    )
    .returning({ id: features.id });
  return rows.length;
}
