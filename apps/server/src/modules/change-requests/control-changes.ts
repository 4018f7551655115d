import {
  controlChanges,
  controlSnapshotSchema,
  mergeControl,
  type ChangeInput,
  type ChangeRequestChange,
  type ControlSnapshot,
  type MergeConflict,
} from '@vexil/core';
import type { Executor } from '../../db/client';
import { BadRequestError, NotFoundError, ValidationError, assertAllowed } from '../../errors';
import { changedSince } from '../../lib/versions';
import type { AuditService } from '../audit/audit.service';
import type { Principal } from '../auth/auth.service';
import { sameJson } from '../controls/control-change';
import type { ControlsService } from '../controls/controls.service';
import { nothingToRestore, type VersionsService } from '../versions/versions.service';
import type { ChangeRow, NewChange, RequestInScope } from './change-requests.repository';

/*
 * The changes a request makes to feature controls (kinds `control` and `restore`): what a change
 * stores when it is added, how it reads against what is live, and how it is merged when the request
 * is applied (docs/adr/0024-change-requests.md, core's mergeControl).
 */

/** A change as it is stored, without its request; `label` names it on the timeline. */
export type ResolvedChange = Omit<NewChange, 'changeRequestId' | 'organisationId'> & { label: string };

/** A change read against what is live: the merge of its base, the live state and its proposal. */
export type ControlPlan = {
  change: ChangeRow;
  controlId: string;
  featureName: string;
  live: ControlSnapshot;
  liveVersion: number | null;
  /** Who made the live version (a suspension names them). */
  liveAuthor: string | null;
  /** The state the change was drafted on (what is live when it has no base version). */
  base: ControlSnapshot;
  proposed: ControlSnapshot;
  merged: ControlSnapshot;
  conflicts: MergeConflict[];
  variantNames: Record<string, string>;
  featureKey: string;
};

export type ControlChanges = ReturnType<typeof createControlChanges>;

export function createControlChanges(deps: {
  controls: ControlsService['forChangeRequests'];
  versions: VersionsService;
  audit: AuditService;
}) {
  const { controls, versions, audit } = deps;
  const refOf = (organisationId: string, controlId: string) => ({
    organisationId,
    resourceType: 'feature_control' as const,
    resourceId: controlId,
  });

  return {
    /**
     * What adding `input` to the request stores: the control, the version it is drafted on (the
     * live one), and the state it proposes. Refused like the direct write would be: another
     * environment's control, rights, a state that does not hold, a stale edit, a restore of what is
     * already live.
     */
    async resolve(
      tx: Executor,
      principal: Principal,
      found: RequestInScope,
      input: ChangeInput,
    ): Promise<ResolvedChange> {
      const organisationId = principal.organisationId;
      const control =
        input.kind === 'control'
          ? await controls.find(tx, organisationId, input.id)
          : await controls.findByKeys(tx, organisationId, {
              projectKey: found.project.key,
              featureKey: input.featureKey,
              environmentKey: found.environment.key,
            });
      if (!control) {
        throw new NotFoundError('feature control', input.kind === 'control' ? input.id : input.featureKey);
      }
      if (control.environment.id !== found.environment.id) {
        throw new ValidationError(
          'id',
          'This feature control is not in the environment of this change request.',
        );
      }
      assertAllowed(principal, 'update', {
        type: 'featureControl',
        environment: {
          production: control.environment.production,
          tags: control.environment.tags,
          projectId: found.project.id,
        },
      });
      const ref = refOf(organisationId, control.control.id);
      const live = await versions.latest(tx, ref);
      const where = {
        type: 'feature_control',
        id: control.feature.id,
        environmentKey: control.environment.key,
      };
      let proposed: ControlSnapshot;
      let restoredFrom: number | null = null;
      if (input.kind === 'control') {
        if (changedSince(control.control.updatedAt, input.lastModifiedDate)) {
          throw await audit.staleWrite(tx, principal, where, 'targeting', {
            changedAt: control.control.updatedAt,
          });
        }
        proposed = { enabled: input.enabled, offVariantKey: input.offVariantKey, rules: input.rules };
      } else {
        if (live && live.number !== input.currentVersion)
          throw await audit.staleWrite(tx, principal, where, 'targeting');
        proposed = await versions.snapshot(tx, ref, input.number, controlSnapshotSchema);
        if (live && sameState(controlSnapshotSchema.parse(live.snapshot), proposed))
          throw nothingToRestore(input.number);
        restoredFrom = input.number;
      }
      const problems = await controls.problems(
        tx,
        organisationId,
        { projectId: found.project.id, environmentId: found.environment.id, featureId: control.feature.id },
        proposed,
      );
      if (problems.length > 0) throw new BadRequestError(problems[0]!.message, problems);
      return {
        kind: input.kind,
        resourceType: 'feature_control',
        resourceId: control.control.id,
        featureId: control.feature.id,
        baseVersion: live?.number ?? null,
        restoredFrom,
        comment: input.comment || null,
        proposed,
        label:
          restoredFrom === null
            ? control.feature.name
            : `${control.feature.name} (version ${restoredFrom} restored)`,
      };
    },

    /**
     * The change against what is live now: the base, live and proposed states merged. Null when its
     * feature is archived. `forUpdate` locks the control's row (the apply).
     */
    async plan(
      executor: Executor,
      organisationId: string,
      change: ChangeRow,
      options: { forUpdate?: boolean } = {},
    ): Promise<ControlPlan | null> {
      const control = await controls.find(executor, organisationId, change.resourceId, options);
      if (!control) return null;
      const ref = refOf(organisationId, change.resourceId);
      const [live, base, variantNames] = [
        await versions.latest(executor, ref),
        change.baseVersion === null ? undefined : await versions.byNumber(executor, ref, change.baseVersion),
        await controls.variantNames(executor, organisationId, control.feature.id),
      ];
      const liveState: ControlSnapshot = {
        enabled: control.control.enabled,
        offVariantKey: control.control.offVariantKey,
        rules: control.control.rules,
      };
      const proposed = controlSnapshotSchema.parse(change.proposed) as ControlSnapshot;
      const baseState = base ? (controlSnapshotSchema.parse(base.snapshot) as ControlSnapshot) : liveState;
      const { merged, conflicts } = mergeControl(baseState, liveState, proposed);
      return {
        change,
        controlId: control.control.id,
        featureName: control.feature.name,
        featureKey: control.feature.key,
        live: liveState,
        base: baseState,
        liveVersion: live?.number ?? null,
        liveAuthor: live?.authorName ?? null,
        proposed,
        merged,
        conflicts,
        variantNames,
      };
    },

    /**
     * The change as the request's page shows it: while the request is open, what applying it would
     * change now; once it is closed, what it changed (or proposed) from the state it was drafted on.
     */
    view(plan: ControlPlan, closed = false): ChangeRequestChange {
      const { change } = plan;
      const [from, to] = closed ? [plan.base, plan.proposed] : [plan.live, plan.merged];
      return {
        id: change.id,
        kind: change.kind,
        resourceType: change.resourceType,
        resourceId: change.resourceId,
        featureKey: plan.featureKey,
        resourceName: plan.featureName,
        baseVersion: change.baseVersion,
        liveVersion: plan.liveVersion,
        restoredFrom: change.restoredFrom,
        comment: change.comment,
        live: plan.live,
        proposed: plan.proposed,
        merged: plan.merged,
        changes: sameState(from, to) ? [] : controlChanges(from, to, { variants: plan.variantNames }),
        conflicts: closed ? [] : plan.conflicts,
      };
    },
  };
}

/** Equal states, whatever the key order. */
export function sameState(a: ControlSnapshot, b: ControlSnapshot): boolean {
  return sameJson(a, b);
}
