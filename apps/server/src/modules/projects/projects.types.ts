import type { ProjectRef } from '@vexil/core';

/**
 * A live project as the module keeps it: core's `Project` is this with its environments and targets,
 * as each reader may see them.
 */
export type ProjectRecord = ProjectRef & {
  /** `null` when no url is set (the API shows `''`). */
  url: string | null;
  tags: string[];
  /** The version `lastModifiedDate` reports and updates are checked against. */
  updatedAt: Date;
};
