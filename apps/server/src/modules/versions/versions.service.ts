import {
  jsonPatch,
  nothingToRestoreMessage,
  type Version,
  type VersionDiff,
  type VersionSource,
  type VersionSummary,
  type VersionedResource,
} from '@vexil/core';
import type { z } from 'zod';
import type { Executor } from '../../db/client';
import { AppError, NotFoundError } from '../../errors';
import * as repo from './versions.repository';
import type { VersionRecord, VersionedRef } from './versions.repository';

export type { VersionRecord, VersionedRef };

/** Where a change came from and why: the source of its version and the comment its author gave. */
export type ChangeOrigin = {
  source: VersionSource;
  comment?: string | null | undefined;
  /** The applied change request the change belongs to (source `change-request`). */
  changeRequestId?: string | undefined;
};

/**
 * Where a member's write came from: an access token is the API, a session (the dashboard's cookie or
 * a bearer session token) the dashboard; with the comment they gave.
 */
export function originOf(
  principal: { via?: 'access-token' | undefined },
  comment?: string | null | undefined,
): ChangeOrigin {
  return { source: principal.via === 'access-token' ? 'api' : 'ui', comment: comment || null };
}

/** Who a member's version names: their id and e-mail, as the live changes name them. */
export function authorOf(principal: { userId: string; email: string }): VersionAuthor {
  return { id: principal.userId, name: principal.email };
}

/** Who a version names: the member (or token owner) by id and name, or nobody for the system. */
export type VersionAuthor = { id: string; name: string } | null;

/** One version to store. `describe` words what changed since the version before (null for the first). */
export type VersionEntry<S extends Record<string, unknown>> = VersionedRef & {
  featureId?: string | undefined;
  environmentId?: string | undefined;
  /** A segment's version: deleted with the segment. */
  segmentId?: string | undefined;
  author: VersionAuthor;
  origin: ChangeOrigin;
  restoredFrom?: number | undefined;
  snapshot: S;
  describe: (before: S | null) => string[];
};

/** What a new version was numbered. */
export type RecordedVersion = { number: number };

export type VersionsService = ReturnType<typeof createVersionsService>;

/**
 * Versions of what people change (docs/adr/0022-versions.md). The owner of a resource records a version
 * in the transaction of each write, after locking the resource's row, so numbers follow one another
 * without gaps; the unique index refuses a number taken by a write that did not lock. Reads are scoped
 * to the organisation.
 */
export function createVersionsService() {
  return {
    /** Stores the next version of one resource: its number follows the newest, its parent is the newest. */
    async record<S extends Record<string, unknown>>(
      tx: Executor,
      entry: VersionEntry<S>,
    ): Promise<RecordedVersion> {
      const previous = await repo.latest(tx, entry);
      const number = (previous?.number ?? 0) + 1;
      await repo.insert(tx, [
        rowOf(entry, number, previous?.number ?? null, entry.describe((previous?.snapshot as S) ?? null)),
      ]);
      return { number };
    },

    /** Stores the first version of resources just created (a new feature's controls in every environment). */
    async recordFirst<S extends Record<string, unknown>>(
      tx: Executor,
      entries: readonly VersionEntry<S>[],
    ): Promise<void> {
      await repo.insert(
        tx,
        entries.map((entry) => rowOf(entry, 1, null, entry.describe(null))),
      );
    },

    /** The newest version of a resource, undefined before its first. */
    latest(executor: Executor, ref: VersionedRef): Promise<VersionRecord | undefined> {
      return repo.latest(executor, ref);
    },

    /** One version by number, undefined when the resource has no such version. */
    byNumber(executor: Executor, ref: VersionedRef, number: number): Promise<VersionRecord | undefined> {
      return repo.byNumber(executor, ref, number);
    },

    /**
     * Two versions of one resource, read together (a diff): 404 for a number the resource has not
     * reached.
     */
    async pair(
      executor: Executor,
      ref: VersionedRef,
      a: number,
      b: number,
    ): Promise<[VersionRecord, VersionRecord]> {
      return pairOf(executor, ref, a, b);
    },

    /** One version's snapshot, read with its resource's schema: 404 for a number not reached. */
    async snapshot<S>(
      executor: Executor,
      ref: VersionedRef,
      number: number,
      schema: z.ZodType<S>,
    ): Promise<S> {
      const row = await repo.byNumber(executor, ref, number);
      if (!row) throw new NotFoundError('version', String(number));
      return schema.parse(row.snapshot);
    },

    /** GET …/versions/{number} of any resource: one version with its snapshot, as the API shows it. */
    async version(
      executor: Executor,
      ref: VersionedRef,
      number: number,
      environmentKey: string | null,
    ): Promise<Version> {
      const row = await repo.byNumber(executor, ref, number);
      if (!row) throw new NotFoundError('version', String(number));
      return { ...toVersionSummary(row, environmentKey), snapshot: row.snapshot };
    },

    /**
     * GET …/versions/{a}/diff/{b} of any resource: the two snapshots read together with its schema,
     * as a JSON Patch and in the resource's own sentences.
     */
    async diff<S>(
      executor: Executor,
      ref: VersionedRef,
      from: number,
      to: number,
      kind: { schema: z.ZodType<S>; describe: (before: S, after: S) => string[] },
    ): Promise<VersionDiff> {
      const [a, b] = await pairOf(executor, ref, from, to);
      const before = kind.schema.parse(a.snapshot);
      const after = kind.schema.parse(b.snapshot);
      return { from, to, patch: jsonPatch(before, after), changes: kind.describe(before, after) };
    },

    /** One page of a resource's history, newest first, as the API lists it. */
    async page(
      executor: Executor,
      ref: VersionedRef,
      query: { page: number; pageSize: number },
      environmentKey: string | null,
    ): Promise<{ content: VersionSummary[]; last: boolean }> {
      const rows = await repo.page(executor, ref, query.page, query.pageSize);
      return {
        content: rows.slice(0, query.pageSize).map((row) => toVersionSummary(row, environmentKey)),
        last: rows.length <= query.pageSize,
      };
    },
  };
}

/** Two versions of one resource in one read; 404 for a number the resource has not reached. */
async function pairOf(
  executor: Executor,
  ref: VersionedRef,
  a: number,
  b: number,
): Promise<[VersionRecord, VersionRecord]> {
  const rows = await repo.byNumbers(executor, ref, [a, b]);
  const find = (number: number) => {
    const row = rows.find((candidate) => candidate.number === number);
    if (!row) throw new NotFoundError('version', String(number));
    return row;
  };
  return [find(a), find(b)];
}

function rowOf<S extends Record<string, unknown>>(
  entry: VersionEntry<S>,
  number: number,
  parentNumber: number | null,
  changes: string[],
): repo.NewVersionRecord {
  return {
    organisationId: entry.organisationId,
    resourceType: entry.resourceType,
    resourceId: entry.resourceId,
    featureId: entry.featureId ?? null,
    environmentId: entry.environmentId ?? null,
    segmentId: entry.segmentId ?? null,
    number,
    parentNumber,
    authorId: entry.author?.id ?? null,
    authorName: entry.author?.name ?? null,
    source: entry.origin.source,
    comment: entry.origin.comment || null,
    restoredFrom: entry.restoredFrom ?? null,
    changeRequestId: entry.origin.changeRequestId ?? null,
    changes,
    snapshot: entry.snapshot,
  };
}

/** A stored version as a history lists it (without its snapshot). */
export function toVersionSummary(
  row: Omit<VersionRecord, 'snapshot'>,
  environmentKey: string | null,
): VersionSummary {
  return {
    number: row.number,
    parentNumber: row.parentNumber,
    resourceType: row.resourceType as VersionedResource,
    environmentKey,
    author: row.authorId || row.authorName ? { id: row.authorId ?? '', name: row.authorName ?? '' } : null,
    source: row.source,
    comment: row.comment,
    restoredFrom: row.restoredFrom,
    changeRequestId: row.changeRequestId,
    changes: row.changes,
    createdDate: row.createdAt.toISOString(),
  };
}

/** Why a restore is refused when the resource already is that version (409 `nothing_to_restore`). */
export function nothingToRestore(number: number): AppError {
  return new AppError(409, nothingToRestoreMessage(number), undefined, undefined, 'nothing_to_restore');
}
