import { isDeepStrictEqual } from 'node:util';
import {
  defaultControlFor,
  describeRules,
  ruleProblems,
  variantProblems,
  targetingStatusOf,
  trafficOf,
  type FeatureControl,
  type FeatureControlInput,
  type FeatureControlToggleInput,
  type Rule,
  type RuleContext,
  type VariantDailyImpressions,
} from '@vexil/core';
import type { SQL } from 'drizzle-orm';
import type { Database, Executor } from '../../db/client';
import { BadRequestError, NotFoundError, assertAllowed } from '../../errors';
import { actorOf, type ChangeEvents } from '../../lib/change-events';
import { changedSince } from '../../lib/versions';
import type { AuditService } from '../audit/audit.service';
import type { Principal } from '../auth/auth.service';
import type { BillingService } from '../billing/billing.service';
import type { ImpressionsService } from '../impressions/impressions.service';
import type { Scope } from '../scope/scope.service';
import { controlAudit } from './control-audit';
import * as repo from './controls.repository';
import type { ControlRecord } from './controls.types';

/**
 * What rules are checked against: the project's target types and the environment's segments. The
 * composition root builds it from the targets and segments modules, which sit beside this one.
 */
export type RuleContextSource = (
  executor: Executor,
  organisationId: string,
  scope: { projectId: string; environmentId: string },
) => Promise<RuleContext>;

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

export type ControlsService = ReturnType<typeof createControlsService>;

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
  ruleContext: RuleContextSource;
  now?: () => Date;
}) {
  const { db, audit, billing, events, impressions, scope, ruleContext } = deps;
  const now = deps.now ?? (() => new Date());

  /** Equal as JSON: key order (jsonb reorders keys) and undefined members do not count. */
  function sameJson(a: unknown, b: unknown): boolean {
    return isDeepStrictEqual(JSON.parse(JSON.stringify(a)), JSON.parse(JSON.stringify(b)));
  }

  type ControlState = { enabled: boolean; offVariantKey: string; rules: Rule[] };

  /**
   * One write of a control, in one transaction: the row locked, permission and subscription checked,
   * refused with 409 when it changed since `basedOn`, the new state checked (variants and rules only
   * when they change), stored, audited, then announced to the SDK payloads.
   */
  async function change(
    principal: Principal,
    controlId: string,
    basedOn: string | undefined,
    next: (before: ControlState) => ControlState,
  ): Promise<FeatureControl> {
    const organisationId = principal.organisationId;
    const result = await db.transaction(async (tx) => {
      const found = await repo.findControl(tx, organisationId, controlId, { forUpdate: true });
      if (!found) throw new NotFoundError('feature control', controlId);
      const { control: before, feature, environment, project } = found;
      const constraint = {
        production: environment.production,
        tags: environment.tags,
        projectId: project.id,
      };
      assertAllowed(principal, 'update', { type: 'featureControl', environment: constraint });
      await billing.assertActive(tx, organisationId);
      if (changedSince(before.updatedAt, basedOn)) {
        throw await audit.staleWrite(
          tx,
          principal,
          { type: 'feature_control', id: feature.id, environmentKey: environment.key },
          'targeting',
          { changedAt: before.updatedAt },
        );
      }
      const state = next(before);
      const variantRows = await repo.variantsOf(tx, organisationId, feature.id);
      const variantNames = Object.fromEntries(variantRows.map((v) => [v.key, v.name]));
      const rulesChanged =
        before.offVariantKey !== state.offVariantKey || !sameJson(before.rules, state.rules);
      if (rulesChanged) {
        const problems = [
          ...variantProblems(
            state,
            variantRows.map((v) => v.key),
          ),
          ...ruleProblems(
            state.rules,
            await ruleContext(tx, organisationId, { projectId: project.id, environmentId: environment.id }),
          ),
        ];
        if (problems.length > 0) throw new BadRequestError(problems[0]!.message, problems);
      }
      const at = now();
      const after = await repo.updateControl(tx, organisationId, before.id, { ...state, updatedAt: at });
      await audit.record(
        tx,
        principal,
        controlAudit({
          kind: 'feature_control.updated',
          by: principal.email,
          control: before,
          feature,
          environment,
          project,
          variantNames,
          before,
          after: state,
          targetingChanged: rulesChanged,
        }),
      );
      const switched = before.enabled !== after.enabled;
      const today = await impressions.today(tx, organisationId, [after.id]);
      return {
        environmentId: environment.id,
        featureId: feature.id,
        live: {
          kind: switched && !rulesChanged ? ('feature.toggled' as const) : ('feature.targeting' as const),
          projectKey: project.key,
          environmentKey: environment.key,
          featureKey: feature.key,
          actor: actorOf(principal),
          at: at.toISOString(),
          enabled: after.enabled,
        },
        view: toControlView(
          after,
          {
            featureKey: feature.key,
            environmentKey: environment.key,
            variantNames,
            impressionsToday: today.get(after.id) ?? new Map(),
          },
          at,
        ),
      };
    });
    events.publish({
      type: 'environment.changed',
      organisationId,
      environmentId: result.environmentId,
      featureIds: [result.featureId],
    });
    events.publish({ type: 'dashboard', organisationId, change: result.live });
    return result.view;
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
      },
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
      await repo.insertControls(tx, rows);
    },

    /** A new feature's controls: the default control in every live environment of its project. */
    async createForFeature(
      tx: Executor,
      target: { organisationId: string; projectId: string; featureId: string; variantKeys: string[] },
    ): Promise<string[]> {
      const environmentIds = (await scope.environmentsOf(tx, target.organisationId, target.projectId)).map(
        (environment) => environment.id,
      );
      const control = defaultControlFor(target.variantKeys);
      await repo.insertControls(
        tx,
        environmentIds.map((environmentId) => ({
          organisationId: target.organisationId,
          featureId: target.featureId,
          environmentId,
          ...control,
        })),
      );
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
      return change(principal, input.id, input.lastModifiedDate, () => ({
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
      return change(principal, controlId, input.lastModifiedDate, (before) => ({
        enabled: input.enabled,
        offVariantKey: before.offVariantKey,
        rules: before.rules,
      }));
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
