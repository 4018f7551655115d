import type { EnvironmentRef, ProjectRef, Segment } from '@vexil/core';

/**
 * A segment as the module keeps it: core's `Segment` is this with its project and environment keys
 * and `updatedAt` as `lastModifiedDate`.
 */
export type SegmentRecord = Pick<Segment, 'id' | 'key' | 'name' | 'description'> & {
  environmentId: string;
  /** The version `lastModifiedDate` reports and updates are checked against. */
  updatedAt: Date;
};

/** A segment of a live environment of a live project, with both. */
export type SegmentInScope = {
  segment: SegmentRecord;
  environment: Pick<EnvironmentRef, 'id' | 'key' | 'name' | 'production' | 'tags'>;
  project: ProjectRef;
};
