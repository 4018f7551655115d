import {
  sameJson,
  segmentChanges,
  segmentSnapshotSchema,
  type RestoreVersionInput,
  type Segment,
  type Version,
  type VersionDiff,
  type VersionPage,
} from '@vexil/core';
import type { Database } from '../../db/client';
import { NotFoundError } from '../../errors';
import type { Principal } from '../auth/auth.service';
import type { Scope } from '../scope/scope.service';
import { nothingToRestore, type VersionsService } from '../versions/versions.service';
import type { SegmentChange } from './segment-change';
import { segmentRef } from './segment-versions';
import * as repo from './segments.repository';

/** A segment, named as its history routes name it. */
export type SegmentKeys = { projectKey: string; environmentKey: string; segmentKey: string };

export type SegmentHistory = ReturnType<typeof createSegmentHistory>;

/**
 * The versions of a segment (docs/adr/0022-versions.md): the history, one version, the difference
 * between two, and a restore, which is a segment save like any other (the same rights, checks and
 * audit) whose name and description are an older version's.
 */
export function createSegmentHistory(deps: {
  db: Database;
  scope: Scope;
  versions: VersionsService;
  change: SegmentChange;
}) {
  const { db, scope, versions, change } = deps;

  async function locate(principal: Principal, keys: SegmentKeys) {
    const organisationId = principal.organisationId;
    const environment = await scope.environment(db, organisationId, keys.projectKey, keys.environmentKey);
    const segment = await repo.findByKey(db, organisationId, environment.id, keys.segmentKey);
    if (!segment) throw new NotFoundError('segment', keys.segmentKey);
    return { segment, ref: segmentRef(organisationId, segment.id) };
  }

  const kind = { schema: segmentSnapshotSchema, describe: segmentChanges };

  return {
    /** GET …/versions: the segment's history, newest first. */
    async page(
      principal: Principal,
      keys: SegmentKeys,
      query: { page: number; pageSize: number },
    ): Promise<VersionPage> {
      const { ref } = await locate(principal, keys);
      return versions.page(db, ref, query, null);
    },

    /** GET …/versions/{number}: one version with its snapshot. */
    async get(principal: Principal, keys: SegmentKeys, number: number): Promise<Version> {
      const { ref } = await locate(principal, keys);
      return versions.version(db, ref, number, null);
    },

    /** GET …/versions/{a}/diff/{b}: what turns version a into version b. */
    async diff(principal: Principal, keys: SegmentKeys, from: number, to: number): Promise<VersionDiff> {
      const { ref } = await locate(principal, keys);
      return versions.diff(db, ref, from, to, kind);
    },

    /**
     * POST …/versions/{number}/restore: the segment's name and description as version `number` had
     * them, through the segment's one write path; 409 when it moved past `currentVersion` or already
     * is that version.
     */
    async restore(
      principal: Principal,
      keys: SegmentKeys,
      number: number,
      input: RestoreVersionInput,
    ): Promise<Segment> {
      const { segment, ref } = await locate(principal, keys);
      const snapshot = await versions.snapshot(db, ref, number, kind.schema);
      return change(
        principal,
        { id: segment.id, projectKey: keys.projectKey, environmentKey: keys.environmentKey },
        {
          origin: { source: 'restore', comment: input.comment },
          restore: { from: number, currentVersion: input.currentVersion },
        },
        (before) => {
          // The key never changes: a version's key is the segment's.
          const restored = { ...snapshot, key: before.key };
          if (sameJson(before, restored)) {
            throw nothingToRestore(number);
          }
          return restored;
        },
      );
    },
  };
}
