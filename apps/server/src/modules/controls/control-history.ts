import {
  controlChanges,
  controlSnapshotSchema,
  jsonPatch,
  type ControlSnapshot,
  type FeatureControl,
  type RestoreVersionInput,
  type Version,
  type VersionDiff,
  type VersionPage,
} from '@vexil/core';
import { readTogether, type Database } from '../../db/client';
import { NotFoundError } from '../../errors';
import type { Principal } from '../auth/auth.service';
import { nothingToRestore, type VersionsService } from '../versions/versions.service';
import { controlSnapshot, sameJson, type ControlChange } from './control-change';
import * as repo from './controls.repository';

/** A feature's control in one environment, named as the history routes name it. */
export type ControlKeys = { projectKey: string; featureKey: string; environmentKey: string };

export type ControlHistory = ReturnType<typeof createControlHistory>;

/**
 * The versions of feature controls (docs/adr/0022-versions.md): the history, one version, the
 * difference between two, and a restore, which is a change like any other (the same rights, checks,
 * audit and announcements) whose state is an older version's.
 */
export function createControlHistory(deps: {
  db: Database;
  versions: VersionsService;
  change: ControlChange;
}) {
  const { db, versions, change } = deps;

  async function locate(principal: Principal, keys: ControlKeys) {
    const found = await repo.findControlByKeys(db, principal.organisationId, keys);
    if (!found) throw new NotFoundError('feature control', `${keys.featureKey} in ${keys.environmentKey}`);
    const ref = {
      organisationId: principal.organisationId,
      resourceType: 'feature_control' as const,
      resourceId: found.control.id,
    };
    return { found, ref };
  }

  return {
    /** GET …/versions?environmentKey=: the control's history, newest first. */
    async page(
      principal: Principal,
      keys: ControlKeys,
      query: { page: number; pageSize: number },
    ): Promise<VersionPage> {
      const { ref } = await locate(principal, keys);
      return versions.page(db, ref, query, keys.environmentKey);
    },

    /** GET …/versions/{number}?environmentKey=: one version with its snapshot. */
    async get(principal: Principal, keys: ControlKeys, number: number): Promise<Version> {
      const { ref } = await locate(principal, keys);
      return versions.version(db, ref, number, keys.environmentKey);
    },

    /** GET …/versions/{a}/diff/{b}?environmentKey=: what turns version a into version b. */
    async diff(principal: Principal, keys: ControlKeys, from: number, to: number): Promise<VersionDiff> {
      const { found, ref } = await locate(principal, keys);
      const [[a, b], variants] = await readTogether(db, [
        () => versions.pair(db, ref, from, to),
        () => repo.variantsOf(db, principal.organisationId, found.feature.id),
      ]);
      const before = controlSnapshotSchema.parse(a.snapshot) as ControlSnapshot;
      const after = controlSnapshotSchema.parse(b.snapshot) as ControlSnapshot;
      return {
        from,
        to,
        patch: jsonPatch(before, after),
        changes: controlChanges(before, after, {
          variants: Object.fromEntries(variants.map((v) => [v.key, v.name])),
        }),
      };
    },

    /**
     * POST …/versions/{number}/restore?environmentKey=: a new version equal to version `number`,
     * refused with 409 when the control moved past `currentVersion` or already is that version.
     */
    async restore(
      principal: Principal,
      keys: ControlKeys,
      number: number,
      input: RestoreVersionInput,
    ): Promise<FeatureControl> {
      const { found, ref } = await locate(principal, keys);
      const snapshot = await versions.snapshot(db, ref, number, controlSnapshotSchema);
      return change(
        principal,
        found.control.id,
        {
          origin: { source: 'restore', comment: input.comment },
          currentVersion: input.currentVersion,
          restoredFrom: number,
        },
        (before) => {
          if (sameJson(controlSnapshot(before), snapshot)) {
            throw nothingToRestore(number);
          }
          return snapshot;
        },
      );
    },
  };
}
