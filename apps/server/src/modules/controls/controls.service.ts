import {
  controlChanges,
  defaultControlFor,
  ruleProblems,
  variantProblems,
  type FeatureControl,
  type FeatureControlInput,
  type FeatureControlToggleInput,
  type VariantDailyImpressions,
} from '@vexil/core';
import type { SQL } from 'drizzle-orm';
import type { Database, Executor } from '../../db/client';
import { NotFoundError } from '../../errors';
import type { ChangeEvents } from '../../lib/change-events';
import type { ChangeOutbox } from '../../lib/change-outbox';
import type { AuditService } from '../audit/audit.service';
import type { Principal } from '../auth/auth.service';
import type { BillingService } from '../billing/billing.service';
import type { ImpressionsService } from '../impressions/impressions.service';
import type { Scope } from '../scope/scope.service';
import {
  originOf,
  type ChangeOrigin,
  type VersionAuthor,
  type VersionsService,
} from '../versions/versions.service';
import {
  controlSnapshot,
  createControlChange,
  unprotected,
  type ControlState,
  type ControlWrite,
  type EnvironmentProtection,
} from './control-change';
import { createControlHistory } from './control-history';
import { toControlView } from './control-view';
import * as repo from './controls.repository';
import type { ControlRecord, RuleContextSource } from './controls.types';

export type { RuleContextSource, ControlState, ControlWrite, EnvironmentProtection };
export { unprotected };

export type ControlsService = ReturnType<typeof createControlsService>;

/** Who created controls, and from where: their first versions say so. */
export type VersionOrigin = { author: VersionAuthor; origin: ChangeOrigin };

/**
 * Feature controls, one per feature and environment (docs/product.md §3): the switch, the off variant and the
 * rules; whether an SDK registered the feature there; which controls use a segment.
 */
export function createControlsService(deps: {
  db: Database;
  audit: AuditService;
  billing: BillingService;
  events: ChangeEvents;
  impressions: ImpressionsService;
  scope: Scope;
  versions: VersionsService;
  /** Writes, in a change's transaction, what it triggers (docs/adr/0023-durable-queue.md). */
  outbox: ChangeOutbox;
  ruleContext: RuleContextSource;
  /** Whether an environment asks for change requests (docs/adr/0024-change-requests.md). */
  protection?: EnvironmentProtection;
  now?: () => Date;
}) {
  const { db, impressions, scope, ruleContext } = deps;
  const now = deps.now ?? (() => new Date());

  const change = createControlChange({ ...deps, protection: deps.protection ?? unprotected, now });
  const history = createControlHistory({ db, versions: deps.versions, change });

  /** What is wrong with a state for a control (unknown variants, rules that do not hold). */
  async function problems(
    executor: Executor,
    organisationId: string,
    where: { projectId: string; environmentId: string; featureId: string },
    state: ControlState,
  ) {
    const variants = await repo.variantsOf(executor, organisationId, where.featureId);
    const context = await ruleContext(executor, organisationId, where);
    return [
      ...variantProblems(
        state,
        variants.map((v) => v.key),
      ),
      ...ruleProblems(state.rules, context),
    ];
  }

  /** The first version of each control just created, by whoever created it. */
  async function recordFirstVersions(
    tx: Executor,
    origin: VersionOrigin & { organisationId: string },
    created: ControlRecord[],
  ) {
    await deps.versions.recordFirst(
      tx,
      created.map((control) => ({
        organisationId: origin.organisationId,
        resourceType: 'feature_control' as const,
        resourceId: control.id,
        featureId: control.featureId,
        environmentId: control.environmentId,
        author: origin.author,
        origin: origin.origin,
        snapshot: controlSnapshot(control),
        describe: () => controlChanges(null, controlSnapshot(control)),
      })),
    );
  }

  return {
    /**
     * Gives a new environment a control for every live feature of its project: copied from
     * `cloneFromEnvironmentId` (switch, off variant, rules; not what SDKs reported) when given,
     * else the default control (off, serving `off`).
     */
    async createForEnvironment(
      tx: Executor,
      target: {
        organisationId: string;
        projectId: string;
        environmentId: string;
        cloneFromEnvironmentId?: string | undefined;
      } & VersionOrigin,
    ): Promise<void> {
      const { organisationId, projectId, environmentId } = target;
      const featureVariants = await repo.listFeatureVariantKeys(tx, organisationId, projectId);
      const source = target.cloneFromEnvironmentId
        ? new Map(
            (await repo.listControlsOfEnvironment(tx, organisationId, target.cloneFromEnvironmentId)).map(
              (control) => [control.featureId, control],
            ),
          )
        : new Map<string, ControlRecord>();
      const rows = [...featureVariants].map(([featureId, variantKeys]) => {
        const copied = source.get(featureId);
        const control = copied
          ? { enabled: copied.enabled, offVariantKey: copied.offVariantKey, rules: copied.rules }
          : defaultControlFor(variantKeys);
        return { organisationId, featureId, environmentId, ...control };
      });
      await recordFirstVersions(tx, target, await repo.insertControls(tx, rows));
    },

    /** A new feature's controls: the default control in every live environment of its project. */
    async createForFeature(
      tx: Executor,
      target: {
        organisationId: string;
        projectId: string;
        featureId: string;
        variantKeys: string[];
      } & VersionOrigin,
    ): Promise<string[]> {
      const environmentIds = (await scope.environmentsOf(tx, target.organisationId, target.projectId)).map(
        (environment) => environment.id,
      );
      const control = defaultControlFor(target.variantKeys);
      const created = await repo.insertControls(
        tx,
        environmentIds.map((environmentId) => ({
          organisationId: target.organisationId,
          featureId: target.featureId,
          environmentId,
          ...control,
        })),
      );
      await recordFirstVersions(tx, target, created);
      return environmentIds;
    },

    /** Marks a feature registered by an SDK in one environment (docs/product.md §4 Availability). */
    markAvailable(tx: Executor, featureId: string, environmentId: string, at: Date): Promise<void> {
      return repo.markAvailable(tx, featureId, environmentId, at);
    },

    /** Names of the live features whose rules in this environment target the segment `segmentKey`. */
    async usingSegment(
      executor: Executor,
      organisationId: string,
      where: { projectId: string; environmentId: string },
      segmentKey: string,
    ): Promise<string[]> {
      const { targetTypes } = await ruleContext(executor, organisationId, where);
      const controls = await repo.rulesOfEnvironment(executor, organisationId, where.environmentId);
      return controls
        .filter((control) =>
          control.rules.some((rule) =>
            (rule.audience?.conditions ?? []).some(
              (condition) =>
                targetTypes[condition.target] === 'segment' && condition.values.includes(segmentKey),
            ),
          ),
        )
        .map((control) => control.name);
    },

    /** The clock the computed statuses are read with, for a list that filters by them and shows them. */
    now,

    /**
     * The condition a feature list puts on each feature's control in the environment it shows
     * (`feature_controls`, joined by the list) for its filters: on or off, stale (traffic status
     * `inactive`) or not, and a targeting status; undefined when none is set. The statuses are those
     * {@link toControlView} shows at `at`, derived in SQL (controls.repository.ts).
     */
    listCondition(filter: repo.ControlFilter, at: Date): SQL | undefined {
      return repo.filterCondition(filter, at);
    },

    /**
     * Views of the controls of these features keyed by feature id, then environment key, with their
     * statuses at `at` (now by default).
     */
    async viewsOf(
      executor: Executor,
      organisationId: string,
      features: { id: string; key: string; variantNames: Record<string, string> }[],
      environmentIds?: string[],
      at: Date = now(),
    ): Promise<Map<string, Record<string, FeatureControl>>> {
      const rows = await repo.controlsOfFeatures(
        executor,
        organisationId,
        features.map((f) => f.id),
        environmentIds,
      );
      const byControl = await impressions.today(
        executor,
        organisationId,
        rows.map((r) => r.control.id),
      );
      const featureById = new Map(features.map((f) => [f.id, f]));
      const result = new Map<string, Record<string, FeatureControl>>(features.map((f) => [f.id, {}]));
      for (const { control, environment } of rows) {
        const feature = featureById.get(control.featureId)!;
        result.get(feature.id)![environment.key] = toControlView(
          control,
          {
            featureKey: feature.key,
            environmentKey: environment.key,
            variantNames: feature.variantNames,
            impressionsToday: byControl.get(control.id) ?? new Map(),
          },
          at,
        );
      }
      return result;
    },

    /**
     * PUT /api/v1/feature-controls/: the switch, off variant and rules of one control. Needs update
     * rights on it, production edit rights in a production environment (docs/product.md §6).
     */
    save(principal: Principal, input: FeatureControlInput): Promise<FeatureControl> {
      const origin = originOf(principal, input.comment);
      return change(principal, input.id, { origin, basedOn: input.lastModifiedDate }, () => ({
        enabled: input.enabled,
        offVariantKey: input.offVariantKey,
        rules: input.rules,
      }));
    },

    /**
     * PUT /api/v1/feature-controls/{id}/enabled: turns a control on or off and nothing else, so the
     * rules saved meanwhile by someone else stay, and are not checked again.
     */
    toggle(
      principal: Principal,
      controlId: string,
      input: FeatureControlToggleInput,
    ): Promise<FeatureControl> {
      const origin = originOf(principal, input.comment);
      return change(principal, controlId, { origin, basedOn: input.lastModifiedDate }, (before) => ({
        enabled: input.enabled,
        offVariantKey: before.offVariantKey,
        rules: before.rules,
      }));
    },

    /** The controls' versions: history, one version, a diff, a restore (control-history.ts). */
    history,

    /** What change requests read of controls and how they write them (modules/change-requests). */
    forChangeRequests: {
      /** A control of a live feature, environment and project, with all three; `forUpdate` locks its row. */
      find: repo.findControl,
      /** The same, by keys. */
      findByKeys: repo.findControlByKeys,
      /** The feature's variants' names by key. */
      async variantNames(executor: Executor, organisationId: string, featureId: string) {
        const rows = await repo.variantsOf(executor, organisationId, featureId);
        return Object.fromEntries(rows.map((v) => [v.key, v.name]));
      },
      problems,
      /**
       * Writes the state `next` gives, in the request's transaction `tx`, as the control's next
       * version with source `change-request`; the caller runs `afterCommit` once `tx` commits.
       */
      write(
        tx: Executor,
        principal: Principal,
        controlId: string,
        request: { id: string; title: string; comment: string | null; restoredFrom: number | null },
        next: (before: ControlState) => ControlState,
      ): Promise<ControlWrite> {
        return change.within(
          tx,
          principal,
          controlId,
          {
            origin: { source: 'change-request', comment: request.comment, changeRequestId: request.id },
            changeRequest: { id: request.id, title: request.title },
            restoredFrom: request.restoredFrom ?? undefined,
          },
          next,
        );
      },
    },

    /** What schedules read of controls and how they write them (modules/schedules). */
    forSchedules: {
      /** A control of a live feature, environment and project, with all three; `forUpdate` locks its row. */
      find: repo.findControl,
      /** The same, by keys. */
      findByKeys: repo.findControlByKeys,
      problems,
      /** The feature's variants' keys, in order. */
      async variantKeys(executor: Executor, organisationId: string, featureId: string): Promise<string[]> {
        return (await repo.variantsOf(executor, organisationId, featureId)).map((v) => v.key);
      },
      /**
       * Writes the state `next` gives, in the scheduler's transaction `tx`, as the control's next
       * version with source `schedule`; the caller runs `afterCommit` once `tx` commits.
       */
      write(
        tx: Executor,
        principal: Principal,
        controlId: string,
        schedule: { id: string; label: string; bypass: boolean; comment: string | null },
        next: (before: ControlState) => ControlState,
      ): Promise<ControlWrite> {
        return change.within(
          tx,
          principal,
          controlId,
          {
            origin: {
              source: 'schedule',
              comment: schedule.comment ? `${schedule.label}: ${schedule.comment}` : schedule.label,
            },
            scheduled: { id: schedule.id, label: schedule.label, bypass: schedule.bypass },
          },
          next,
        );
      },
    },

    /** GET /api/v1/variant-daily-impressions: the last 30 days of one control, one dataset per variant. */
    async dailyImpressions(principal: Principal, controlId: string): Promise<VariantDailyImpressions> {
      const found = await repo.findControl(db, principal.organisationId, controlId);
      if (!found) throw new NotFoundError('feature control', controlId);
      const variants = await repo.variantsOf(db, principal.organisationId, found.feature.id);
      return impressions.dailySeries(principal.organisationId, controlId, variants);
    },
  };
}
