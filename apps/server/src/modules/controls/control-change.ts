import { isDeepStrictEqual } from 'node:util';
import {
  controlChanges,
  ruleProblems,
  variantProblems,
  type ControlSnapshot,
  type FeatureControl,
  type VersionedResource,
} from '@vexil/core';
import type { Database, Executor } from '../../db/client';
import { BadRequestError, ConflictError, NotFoundError, assertAllowed, type AppError } from '../../errors';
import { actorOf, type ChangeEvents } from '../../lib/change-events';
import type { ChangeOutbox } from '../../lib/change-outbox';
import { changedSince } from '../../lib/versions';
import type { AuditService } from '../audit/audit.service';
import type { Principal } from '../auth/auth.service';
import type { BillingService } from '../billing/billing.service';
import type { ImpressionsService } from '../impressions/impressions.service';
import { authorOf, type ChangeOrigin, type VersionsService } from '../versions/versions.service';
import { controlAudit } from './control-audit';
import * as repo from './controls.repository';
import type { RuleContextSource } from './controls.types';
import { toControlView } from './control-view';

/** What a control serves: its switch, off variant and rules (a version's snapshot). */
export type ControlState = ControlSnapshot;

/** Equal as JSON: key order (jsonb reorders keys) and undefined members do not count. */
export function sameJson(a: unknown, b: unknown): boolean {
  return isDeepStrictEqual(JSON.parse(JSON.stringify(a)), JSON.parse(JSON.stringify(b)));
}

/** The snapshot a version keeps of a control. */
export function controlSnapshot(state: ControlState): ControlSnapshot {
  return { enabled: state.enabled, offVariantKey: state.offVariantKey, rules: state.rules };
}

/** How one write of a control is checked and recorded. */
export type ControlChangeOptions = {
  origin: ChangeOrigin;
  /** The `lastModifiedDate` the editor saw (dashboard saves and toggles). */
  basedOn?: string | undefined;
  /** The version number the restorer saw as current (restores). */
  currentVersion?: number | undefined;
  /** The version a restore brings forward. */
  restoredFrom?: number | undefined;
  /** The applied change request this write belongs to; without one, the environment's protection decides. */
  changeRequest?: { id: string; title: string } | undefined;
  /**
   * The schedule making this write (docs/adr/0025-scheduler.md): its author's rights and the
   * environment's protection were checked when it was made, and it says whether its author bypassed them.
   */
  scheduled?: { id: string; label: string; bypass: boolean } | undefined;
};

/**
 * Whether a write outside a change request may change an environment (docs/adr/0024-change-requests.md):
 * resolves `{bypass: false}` when the environment asks for no change requests, `{bypass: true}` when
 * it does and the writer may bypass them (audited as such), and rejects with 409
 * `change_request_required` otherwise. Filled by the composition root with the change-requests
 * module's rule.
 */
export type EnvironmentProtection = (
  executor: Executor,
  principal: Principal,
  environment: {
    id: string;
    key: string;
    name: string;
    production: boolean;
    tags: string[];
    projectId: string;
  },
  /** What the write changes: the 409 names the writer's open request that already changes it. */
  resource?: { type: VersionedResource; id: string },
) => Promise<{ bypass: boolean }>;

/** An environment that asks for no change requests (an application without the rule). */
export const unprotected: EnvironmentProtection = async () => ({ bypass: false });

/** A write made inside a caller's transaction, and what to announce once that transaction commits. */
export type ControlWrite = {
  view: FeatureControl;
  /** The version the write created; undefined when it changed nothing. */
  version: number | undefined;
  afterCommit: () => void;
};

export type ControlChange = ReturnType<typeof createControlChange>;

/**
 * One write of a control, in one transaction: the row locked, permission and subscription checked,
 * refused with 409 when it changed since what the writer saw, the new state checked (variants and
 * rules only when they change), stored, versioned and audited, then announced to the SDK payloads
 * and the live dashboards.
 */
export function createControlChange(deps: {
  db: Database;
  audit: AuditService;
  billing: BillingService;
  events: ChangeEvents;
  impressions: ImpressionsService;
  versions: VersionsService;
  /** Writes, in the change's transaction, what it triggers (docs/adr/0023-durable-queue.md). */
  outbox: ChangeOutbox;
  ruleContext: RuleContextSource;
  protection: EnvironmentProtection;
  now: () => Date;
}) {
  const { db, audit, billing, events, impressions, versions, outbox, ruleContext, protection, now } = deps;

  /** One write in the caller's transaction `tx`; the caller runs `afterCommit` once it commits. */
  async function within(
    tx: Executor,
    principal: Principal,
    controlId: string,
    options: ControlChangeOptions,
    next: (before: ControlState) => ControlState,
  ): Promise<ControlWrite> {
    const organisationId = principal.organisationId;

    const found = await repo.findControl(tx, organisationId, controlId, { forUpdate: true });
    if (!found) throw new NotFoundError('feature control', controlId);
    const { control: before, feature, environment, project } = found;
    // An applied change request was drafted by someone with these rights and applied by its author
    // or a reviewer of the environment (change-requests module); any other write needs them now.
    if (!options.changeRequest && !options.scheduled) {
      assertAllowed(principal, 'update', {
        type: 'featureControl',
        environment: { production: environment.production, tags: environment.tags, projectId: project.id },
      });
    }
    await billing.assertActive(tx, organisationId);
    const { bypass } = options.changeRequest
      ? { bypass: false }
      : options.scheduled
        ? { bypass: options.scheduled.bypass }
        : await protection(
            tx,
            principal,
            { ...environment, projectId: project.id },
            { type: 'feature_control', id: before.id },
          );
    const ref = { organisationId, resourceType: 'feature_control' as const, resourceId: before.id };
    const stale = async (changedAt?: Date) =>
      audit.staleWrite(
        tx,
        principal,
        { type: 'feature_control', id: feature.id, environmentKey: environment.key },
        'targeting',
        changedAt ? { changedAt } : {},
      );
    if (changedSince(before.updatedAt, options.basedOn)) throw await stale(before.updatedAt);
    if (options.currentVersion !== undefined) {
      const current = await versions.latest(tx, ref);
      if (current && current.number !== options.currentVersion) throw await stale();
    }
    const state = next(before);
    const variantRows = await repo.variantsOf(tx, organisationId, feature.id);
    const variantNames = Object.fromEntries(variantRows.map((v) => [v.key, v.name]));
    const rulesChanged = before.offVariantKey !== state.offVariantKey || !sameJson(before.rules, state.rules);
    const context = rulesChanged
      ? await ruleContext(tx, organisationId, { projectId: project.id, environmentId: environment.id })
      : undefined;
    if (context) {
      const problems = [
        ...variantProblems(
          state,
          variantRows.map((v) => v.key),
        ),
        ...ruleProblems(state.rules, context),
      ];
      if (problems.length > 0) {
        // A restored version may name a variant or segment removed since: a conflict, not bad input.
        const error: AppError =
          options.restoredFrom === undefined
            ? new BadRequestError(problems[0]!.message, problems)
            : new ConflictError(
                `Version ${options.restoredFrom} cannot be restored: ${problems.map((p) => p.message).join(' ')}`,
              );
        throw error;
      }
    }
    const at = now();
    const after = await repo.updateControl(tx, organisationId, before.id, { ...state, updatedAt: at });
    let version: number | undefined;
    if (!sameJson(controlSnapshot(before), controlSnapshot(after))) {
      ({ number: version } = await versions.record(tx, {
        ...ref,
        featureId: feature.id,
        environmentId: environment.id,
        author: authorOf(principal),
        origin: options.origin,
        restoredFrom: options.restoredFrom,
        snapshot: controlSnapshot(after),
        describe: (previous) =>
          controlChanges(previous, controlSnapshot(after), {
            variants: variantNames,
            targetTypes: context?.targetTypes ?? {},
          }),
      }));
    }
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
        version,
        restoredFrom: options.restoredFrom,
        changeRequest: options.changeRequest,
        bypass,
        scheduled: options.scheduled && { id: options.scheduled.id, label: options.scheduled.label },
      }),
    );
    const switched = before.enabled !== after.enabled;
    const live = {
      kind: switched && !rulesChanged ? ('feature.toggled' as const) : ('feature.targeting' as const),
      projectKey: project.key,
      environmentKey: environment.key,
      featureKey: feature.key,
      actor: actorOf(principal),
      at: at.toISOString(),
      enabled: after.enabled,
    };
    await outbox(tx, organisationId, live);
    const changed = await events.within(tx, {
      type: 'environment.changed',
      organisationId,
      environmentId: environment.id,
      featureIds: [feature.id],
    });
    const today = await impressions.today(tx, organisationId, [after.id]);
    const view = toControlView(
      after,
      {
        featureKey: feature.key,
        environmentKey: environment.key,
        variantNames,
        impressionsToday: today.get(after.id) ?? new Map(),
      },
      at,
    );
    return {
      view,
      version,
      afterCommit: () => {
        events.publish(changed);
        events.publish({ type: 'dashboard', organisationId, change: live });
      },
    };
  }

  /** One write in its own transaction. */
  async function change(
    principal: Principal,
    controlId: string,
    options: ControlChangeOptions,
    next: (before: ControlState) => ControlState,
  ): Promise<FeatureControl> {
    const write = await db.transaction((tx) => within(tx, principal, controlId, options, next));
    write.afterCommit();
    return write.view;
  }

  return Object.assign(change, { within });
}
