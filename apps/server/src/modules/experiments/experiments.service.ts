import {
  EXPERIMENTS_NOT_IN_PLAN,
  type EnvironmentRef,
  type Experiment,
  type ExperimentInput,
  type ExperimentStatistics,
  type Goal,
} from '@vexil/core';
import type { AuditExperimentDesign } from '@vexil/core/audit-entries';
import type { Database, Executor } from '../../db/client';
import { isUniqueViolation } from '../../db/errors';
import { ForbiddenError, NotFoundError, ValidationError, assertAllowed } from '../../errors';
import type { ChangeEvents } from '../../lib/change-events';
import type { ChangeOutbox } from '../../lib/change-outbox';
import type { AuditService } from '../audit/audit.service';
import type { Principal } from '../auth/auth.service';
import type { BillingService } from '../billing/billing.service';
import type { Scope } from '../scope/scope.service';
import * as repo from './experiments.repository';
import type { ExperimentRecord, ExperimentWrite } from './experiments.types';
import { experimentAudit } from './experiment-audit';
import { createExperimentAnnouncer } from './experiment-events';
import { analyseStored, currentResults } from './experiment-results';
import { assertSameDesign, nameTaken, toExperiment } from './experiment-shape';

/** The refusal on a plan without `variantTesting`; core's words are the dashboard's reason too. */
export const EXPERIMENTS_NOT_ON_PLAN = `${EXPERIMENTS_NOT_IN_PLAN} Upgrade it to run experiments.`;

/** Most goal keys GET /api/v1/goals answers. */
const GOALS_LIMIT = 100;

export type ExperimentsService = ReturnType<typeof createExperimentsService>;

/**
 * Conversion experiments of one environment (docs/product.md §2 "Experiments"): the control variant
 * of a feature against an alternate, measured by a goal. Enabling one the first time starts it;
 * disabling it finishes it (its end date); enabling a finished one runs it again. While it runs, the
 * SDK event ingestion records each user's first exposure and conversion (sdk/ingestion.ts), and the
 * statistics are counted from those rows (docs/adr/0015-experiment-statistics.md).
 */
export function createExperimentsService(deps: {
  db: Database;
  audit: AuditService;
  billing: BillingService;
  scope: Scope;
  events: ChangeEvents;
  /** Writes, in a change's transaction, what it triggers (docs/adr/0023-durable-queue.md). */
  outbox: ChangeOutbox;
  now?: () => Date;
}) {
  const { db, audit, billing, scope } = deps;
  const now = deps.now ?? (() => new Date());
  const { liveChange, changedWithin, changed } = createExperimentAnnouncer({ events: deps.events, now });

  function assertCan(
    principal: Principal,
    action: 'create' | 'update' | 'delete',
    environment: EnvironmentRef,
  ) {
    assertAllowed(principal, action, {
      type: 'experiment',
      environment: {
        production: environment.production,
        tags: environment.tags,
        projectId: environment.project.id,
      },
    });
  }

  async function assertOnPlan(executor: Executor, organisationId: string) {
    if (!(await billing.allows(executor, organisationId, 'variantTesting')))
      throw new ForbiddenError(EXPERIMENTS_NOT_ON_PLAN, 'plan_required');
  }

  /** The experiment and its live environment; 404 for another organisation's, an archived one, or one whose environment is gone. */
  async function find(
    executor: Executor,
    principal: Principal,
    id: string,
    options: { forUpdate?: boolean } = {},
  ): Promise<{ row: ExperimentRecord; environment: EnvironmentRef }> {
    const row = await repo.findById(executor, principal.organisationId, id, options);
    const environment = row
      ? await scope.findEnvironmentById(executor, principal.organisationId, row.environmentId)
      : null;
    if (!row || row.archived || !environment) throw new NotFoundError('experiment', id);
    return { row, environment };
  }

  /** The feature and variants of the input, checked: a live feature of the environment's project with both variants. */
  async function checkedFeature(
    executor: Executor,
    principal: Principal,
    input: ExperimentInput,
    environment: EnvironmentRef,
  ) {
    const feature = await repo.featureWithVariants(executor, principal.organisationId, input.featureId);
    if (!feature || feature.projectId !== environment.project.id)
      throw new ValidationError('featureId', 'Feature is required');
    for (const [field, key] of [
      ['control', input.control],
      ['variation', input.variation],
    ] as const) {
      if (!feature.variantKeys.includes(key))
        throw new ValidationError(field, `"${key}" is not a variant of the feature ${feature.name}.`);
    }
    return feature;
  }

  /** Start and end dates after a write that sets `enabled`. */
  function datesFor(
    enabled: boolean,
    previous: Pick<ExperimentRecord, 'enabled' | 'startDate' | 'endDate'> | null,
  ) {
    const at = now();
    if (enabled) return { startDate: previous?.startDate ?? at, endDate: null };
    if (previous?.enabled) return { startDate: previous.startDate, endDate: at };
    return { startDate: previous?.startDate ?? null, endDate: previous?.endDate ?? null };
  }

  function write(
    input: ExperimentInput,
    dates: { startDate: Date | null; endDate: Date | null },
  ): ExperimentWrite {
    return {
      featureId: input.featureId,
      name: input.name,
      description: input.description,
      enabled: input.enabled,
      mode: input.mode,
      goalKey: input.goalKey,
      controlVariantKey: input.control,
      variationVariantKey: input.variation,
      ...dates,
    };
  }

  /** What the audit log says an experiment measures. */
  function design(
    row: Pick<ExperimentInput, 'control' | 'variation' | 'goalKey'>,
    featureName: string,
  ): AuditExperimentDesign {
    return { featureName, control: row.control, variation: row.variation, goalKey: row.goalKey };
  }

  function auditedEnvironment(environment: EnvironmentRef) {
    return { key: environment.key, name: environment.name, projectKey: environment.project.key };
  }

  return {
    /** GET /api/v1/experiments/?projectKey=&environmentKey= */
    async list(principal: Principal, projectKey: string, environmentKey: string): Promise<Experiment[]> {
      const environment = await scope.environment(db, principal.organisationId, projectKey, environmentKey);
      const rows = await repo.list(db, principal.organisationId, environment.id);
      const experiments: Experiment[] = [];
      for (const row of rows) {
        experiments.push(
          toExperiment(row, environment, await currentResults(db, principal.organisationId, row)),
        );
      }
      return experiments;
    },

    /** GET /api/v1/experiments/{id} */
    async get(principal: Principal, id: string): Promise<Experiment> {
      const { row, environment } = await find(db, principal, id);
      return toExperiment(row, environment, await currentResults(db, principal.organisationId, row));
    },

    /** POST /api/v1/experiments/ */
    async create(principal: Principal, input: ExperimentInput): Promise<Experiment> {
      if (input.id !== undefined)
        throw new ValidationError('id', 'A new experiment has no id: use PUT to update.');
      const environment = await scope.environment(
        db,
        principal.organisationId,
        input.projectKey,
        input.environmentKey,
      );
      assertCan(principal, 'create', environment);
      try {
        const { experiment, sdk } = await db.transaction(async (tx) => {
          await billing.assertActive(tx, principal.organisationId);
          await assertOnPlan(tx, principal.organisationId);
          const feature = await checkedFeature(tx, principal, input, environment);
          const id = await repo.insert(tx, {
            ...write(input, datesFor(input.enabled, null)),
            organisationId: principal.organisationId,
            environmentId: environment.id,
            createdById: principal.userId,
          });
          await repo.ensureGoal(tx, principal.organisationId, environment.project.id, input.goalKey);
          await audit.record(
            tx,
            principal,
            experimentAudit({
              kind: 'experiment.created',
              by: principal.email,
              experiment: { id, name: input.name },
              environment: auditedEnvironment(environment),
              design: design(input, feature.name),
              started: input.enabled,
            }),
          );
          const row = (await repo.findById(tx, principal.organisationId, id))!;
          if (input.enabled)
            await deps.outbox(
              tx,
              principal.organisationId,
              liveChange(environment, principal, row.featureKey, { name: row.name, transition: 'started' }),
            );
          return {
            experiment: toExperiment(
              row,
              environment,
              await currentResults(tx, principal.organisationId, row),
            ),
            sdk: await changedWithin(tx, principal.organisationId, environment),
          };
        });
        changed(sdk, environment, principal, experiment.featureKey, {
          name: experiment.name,
          ...(input.enabled ? { transition: 'started' as const } : {}),
        });
        return experiment;
      } catch (error) {
        if (isUniqueViolation(error, 'experiments_environment_name_unique')) throw nameTaken(input.name);
        throw error;
      }
    },

    /** PUT /api/v1/experiments/: every field; the environment stays. */
    async update(principal: Principal, input: ExperimentInput): Promise<Experiment> {
      if (input.id === undefined)
        throw new ValidationError('id', 'An id is required to update an experiment.');
      const id = input.id;
      try {
        const { experiment, environment, transition, sdk } = await db.transaction(async (tx) => {
          const { row, environment } = await find(tx, principal, id, { forUpdate: true });
          if (environment.project.key !== input.projectKey || environment.key !== input.environmentKey)
            throw new NotFoundError('experiment', id);
          assertCan(principal, 'update', environment);
          await billing.assertActive(tx, principal.organisationId);
          await assertOnPlan(tx, principal.organisationId);
          if (row.startDate) assertSameDesign(row, input);
          const feature = await checkedFeature(tx, principal, input, environment);
          await repo.update(tx, principal.organisationId, id, write(input, datesFor(input.enabled, row)));
          await repo.ensureGoal(tx, principal.organisationId, environment.project.id, input.goalKey);
          const what =
            row.enabled === input.enabled
              ? 'updated'
              : input.enabled
                ? row.endDate
                  ? 'restarted'
                  : 'started'
                : 'finished';
          await audit.record(
            tx,
            principal,
            experimentAudit({
              kind: 'experiment.updated',
              by: principal.email,
              experiment: { id, name: input.name },
              environment: auditedEnvironment(environment),
              design: design(input, feature.name),
              change: what,
            }),
          );
          const updated = (await repo.findById(tx, principal.organisationId, id))!;
          const transition =
            what === 'started' || what === 'restarted'
              ? ('started' as const)
              : what === 'finished'
                ? ('finished' as const)
                : undefined;
          if (transition)
            await deps.outbox(
              tx,
              principal.organisationId,
              liveChange(environment, principal, updated.featureKey, { name: updated.name, transition }),
            );
          const results = await currentResults(tx, principal.organisationId, updated);
          return {
            experiment: toExperiment(updated, environment, results),
            environment,
            transition,
            sdk: await changedWithin(tx, principal.organisationId, environment),
          };
        });
        changed(sdk, environment, principal, experiment.featureKey, {
          name: experiment.name,
          ...(transition ? { transition } : {}),
        });
        return experiment;
      } catch (error) {
        if (isUniqueViolation(error, 'experiments_environment_name_unique')) throw nameTaken(input.name);
        throw error;
      }
    },

    /** DELETE /api/v1/experiments/{id}: archives it (it stops counting and leaves the list). */
    async archive(principal: Principal, id: string): Promise<void> {
      const archived = await db.transaction(async (tx) => {
        const { row, environment } = await find(tx, principal, id, { forUpdate: true });
        assertCan(principal, 'delete', environment);
        await billing.assertActive(tx, principal.organisationId);
        await repo.archive(tx, principal.organisationId, id, now());
        await audit.record(
          tx,
          principal,
          experimentAudit({
            kind: 'experiment.archived',
            by: principal.email,
            experiment: { id, name: row.name },
            environment: auditedEnvironment(environment),
          }),
        );
        return {
          environment,
          featureKey: row.featureKey,
          sdk: await changedWithin(tx, principal.organisationId, environment),
        };
      });
      changed(archived.sdk, archived.environment, principal, archived.featureKey);
    },

    /** GET /api/v1/goals?projectKey=&query=: goals SDKs reported and goals experiments name. */
    async goals(principal: Principal, projectKey: string, text: string | undefined): Promise<Goal[]> {
      const project = await scope.project(db, principal.organisationId, projectKey);
      const keys = await repo.goalKeys(
        db,
        principal.organisationId,
        project.id,
        text?.trim() || undefined,
        GOALS_LIMIT,
      );
      return keys.map((key) => ({ key, name: key }));
    },

    /** GET /api/v1/experiment-statistics/{id} */
    async statistics(principal: Principal, id: string): Promise<ExperimentStatistics> {
      const { row } = await find(db, principal, id);
      const { analysis, days } = await analyseStored(db, principal.organisationId, row);
      return {
        confidence: analysis.confidence,
        pvalue: analysis.pvalue,
        validResult: analysis.validResult,
        winningVariation: analysis.winningVariation,
        zscore: analysis.zscore,
        variantResults: Object.fromEntries(
          Object.entries(analysis.variantResults).map(([key, result]) => [
            key,
            {
              impressions: result.impressions,
              goals: result.goals,
              conversionRate: result.conversionRate,
              ...(result.valueSum !== undefined ? { valueSum: result.valueSum } : {}),
            },
          ]),
        ),
        mode: analysis.mode,
        invalidReasons: analysis.invalidReasons,
        difference: analysis.difference,
        relativeLift: analysis.relativeLift,
        sampleRatio: analysis.sampleRatio,
        usersInBothVariants: analysis.usersInBothVariants,
        daily: days,
      };
    },
  };
}
