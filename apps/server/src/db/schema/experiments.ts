import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  doublePrecision,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { archivable, createdAt, id, notArchived, timestamptz, updatedAt } from './columns.ts';
import { features } from './features.ts';
import { users } from './identity.ts';
import { environments, projects } from './projects.ts';
import { organisationId } from './tenant.ts';

/**
 * A conversion goal of a project: created when an experiment names it or when an SDK first
 * reports it (goal events), and offered by GET /api/v1/goals?projectKey=&query=.
 */
export const goals = pgTable(
  'goals',
  {
    id: id(),
    organisationId: organisationId(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    createdAt: createdAt(),
    lastSeenAt: timestamptz('last_seen_at'),
  },
  (t) => [uniqueIndex('goals_project_key_unique').on(t.projectId, t.key)],
);

/** The goals tracked for a feature (docs/product.md §3 Feature.goals[]). */
export const featureGoals = pgTable(
  'feature_goals',
  {
    id: id(),
    organisationId: organisationId(),
    featureId: uuid('feature_id')
      .notNull()
      .references(() => features.id, { onDelete: 'cascade' }),
    goalId: uuid('goal_id')
      .notNull()
      .references(() => goals.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('feature_goals_feature_goal_unique').on(t.featureId, t.goalId),
    index('feature_goals_goal_idx').on(t.goalId),
  ],
);

/**
 * A conversion (A/B) experiment of one feature in one environment: the control variant against
 * the variation, measured by one goal. Running while enabled with a start date and no end date.
 */
export const experiments = pgTable(
  'experiments',
  {
    id: id(),
    organisationId: organisationId(),
    environmentId: uuid('environment_id')
      .notNull()
      .references(() => environments.id, { onDelete: 'cascade' }),
    featureId: uuid('feature_id')
      .notNull()
      .references(() => features.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    enabled: boolean('enabled').notNull().default(false),
    /** How significance is read: `fixed` (z-test) or `sequential` (always-valid p-value). */
    mode: text('mode').$type<'fixed' | 'sequential'>().notNull().default('fixed'),
    /** Normalised goal key; goals(project_id, key) holds the same key. */
    goalKey: text('goal_key').notNull(),
    /** Variant keys of the feature (docs/product.md §3: control, variation). */
    controlVariantKey: text('control_variant_key').notNull(),
    variationVariantKey: text('variation_variant_key').notNull(),
    startDate: timestamptz('start_date'),
    endDate: timestamptz('end_date'),
    createdById: uuid('created_by_id').references(() => users.id, { onDelete: 'set null' }),
    ...archivable(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('experiments_environment_name_unique').on(t.environmentId, t.name).where(notArchived),
    index('experiments_environment_idx').on(t.environmentId, t.createdAt),
    // Goal ingestion: the experiments of an environment measuring a goal.
    index('experiments_environment_goal_idx').on(t.environmentId, t.goalKey).where(notArchived),
    index('experiments_feature_idx').on(t.featureId),
    index('experiments_created_by_idx').on(t.createdById),
    check('experiments_distinct_variants', sql`control_variant_key <> variation_variant_key`),
    check('experiments_dates_ordered', sql`end_date is null or start_date is null or end_date >= start_date`),
  ],
);

/**
 * One SDK user exposed to a running experiment: the variant of their first exposure (which they count
 * for), whether they were later seen with the other variant, and their conversion (the first goal
 * event of the experiment's goal after exposure; later ones add to `conversions` and `valueSum`).
 * Statistics are counts over these rows, so they are exact and survive restarts.
 */
export const experimentExposures = pgTable(
  'experiment_exposures',
  {
    experimentId: uuid('experiment_id')
      .notNull()
      .references(() => experiments.id, { onDelete: 'cascade' }),
    organisationId: organisationId(),
    userKey: text('user_key').notNull(),
    variantKey: text('variant_key').notNull(),
    exposedAt: timestamptz('exposed_at').notNull(),
    /** Seen with the other variant after the first exposure (a rule changed mid-experiment). */
    crossed: boolean('crossed').notNull().default(false),
    convertedAt: timestamptz('converted_at'),
    conversions: integer('conversions').notNull().default(0),
    valueSum: doublePrecision('value_sum').notNull().default(0),
  },
  (t) => [primaryKey({ name: 'experiment_exposures_pk', columns: [t.experimentId, t.userKey] })],
);

export type GoalRow = typeof goals.$inferSelect;
export type NewGoalRow = typeof goals.$inferInsert;
export type FeatureGoalRow = typeof featureGoals.$inferSelect;
export type NewFeatureGoalRow = typeof featureGoals.$inferInsert;
export type ExperimentRow = typeof experiments.$inferSelect;
export type NewExperimentRow = typeof experiments.$inferInsert;
