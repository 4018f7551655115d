import { segmentChanges, sameJson, type SegmentSnapshot } from '@vexil/core';
import type { Executor } from '../../db/client';
import type { ChangeOrigin, VersionAuthor, VersionsService } from '../versions/versions.service';
import type { SegmentRecord } from './segments.types';

/*
 * Versions of a segment (docs/adr/0022-versions.md): resource type `segment`, one history per segment,
 * whose snapshot is what the segment form edits. The segments module records them in the transaction
 * of each of its writes that changes the snapshot; they are deleted with the segment.
 */

/** The history of a segment. */
export function segmentRef(organisationId: string, segmentId: string) {
  return { organisationId, resourceType: 'segment' as const, resourceId: segmentId };
}

/** A segment as a version keeps it. */
export function segmentSnapshot(row: Pick<SegmentRecord, 'key' | 'name' | 'description'>): SegmentSnapshot {
  return { key: row.key, name: row.name, description: row.description };
}

/** One write of a segment: by whom, from where, and the segment before and after. */
export type SegmentWrite = {
  organisationId: string;
  segment: SegmentRecord;
  author: VersionAuthor;
  origin: ChangeOrigin;
  restoredFrom?: number | undefined;
  /** null for a segment just created: its version 1. */
  before: SegmentSnapshot | null;
};

/**
 * Records the next version of a segment when the write changed it (version 1 for a new one); the
 * number it was given, or undefined when it is as it was. The caller holds the segment's row lock
 * (or created it in this transaction).
 */
export async function recordSegmentVersion(
  versions: VersionsService,
  tx: Executor,
  write: SegmentWrite,
): Promise<number | undefined> {
  const after = segmentSnapshot(write.segment);
  if (write.before !== null && sameJson(write.before, after)) return undefined;
  const { number } = await versions.record(tx, {
    ...segmentRef(write.organisationId, write.segment.id),
    environmentId: write.segment.environmentId,
    segmentId: write.segment.id,
    author: write.author,
    origin: write.origin,
    restoredFrom: write.restoredFrom,
    snapshot: after,
    describe: (previous) => segmentChanges(previous, after),
  });
  return number;
}
