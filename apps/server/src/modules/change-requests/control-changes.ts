import {
  controlChanges,
  controlSnapshotSchema,
  mergeControl,
  sameJson,
  type ChangeInput,
  type ControlSnapshot,
} from '@vexil/core';
import type { Executor } from '../../db/client';
import { BadRequestError, NotFoundError, ValidationError, assertAllowed } from '../../errors';
import { changedSince } from '../../lib/versions';
import type { AuditService } from '../audit/audit.service';
import type { Principal } from '../auth/auth.service';

import type { ControlsService } from '../controls/controls.service';
import { nothingToRestore, type VersionsService } from '../versions/versions.service';
import type { ChangeKind, ChangePlan } from './change-plan';
import type { ChangeRow, RequestInScope } from './change-requests.repository';

/*
 * The changes a request makes to feature controls (kinds `control` and `restore`): what a change
 * stores when it is added, how it reads against what is live, and how it is merged when the request
 * is applied (docs/adr/0024-change-requests.md, core's mergeControl).
 */

/** The inputs of the control kinds. */
type ControlInput = Extract<ChangeInput, { kind: 'control' | 'restore' }>;

/** Changes of feature controls: a state (`control`) or an older version brought forward (`restore`). */
export function createControlChanges(deps: {
  controls: ControlsService['forChangeRequests'];
  versions: VersionsService;
  audit: AuditService;
}): ChangeKind<ControlInput> {
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
    async resolve(tx: Executor, principal: Principal, found: RequestInScope, input: ControlInput) {
      const organisationId = principal.organisationId;
      if (input.kind === 'restore' && !input.featureKey)
        throw new ValidationError('featureKey', 'Feature key is required');
      const control =
        input.kind === 'control'
          ? await controls.find(tx, organisationId, input.id)
          : await controls.findByKeys(tx, organisationId, {
              projectKey: found.project.key,
              featureKey: input.featureKey!,
              environmentKey: found.environment.key,
            });
      if (!control) {
        throw new NotFoundError('feature control', input.kind === 'control' ? input.id : input.featureKey!);
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
        if (live && sameJson(controlSnapshotSchema.parse(live.snapshot), proposed))
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
    ): Promise<ChangePlan | null> {
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
      const controlId = control.control.id;
      return {
        change,
        resourceName: control.feature.name,
        featureKey: control.feature.key,
        live: liveState,
        base: baseState,
        liveVersion: live?.number ?? null,
        liveAuthor: live?.authorName ?? null,
        proposed,
        merged,
        conflicts,
        describe: (from, to) =>
          controlChanges(from as ControlSnapshot, to as ControlSnapshot, { variants: variantNames }),
        same: sameJson,
        control: { variantNames, live: liveState, merged },
        async write(tx, principal, request) {
          const written = await controls.write(
            tx,
            principal,
            controlId,
            {
              id: request.id,
              title: request.title,
              comment: change.comment ?? request.title,
              restoredFrom: change.restoredFrom,
            },
            () => merged,
          );
          return written.afterCommit;
        },
      };
    },
  };
}
