import type { TargetUser } from '@vexil/core';

/**
 * An SDK user of an environment as the module keeps it: core's `TargetUser` is this with `userKey` as
 * its `id`; the Users page also shows when they were last seen.
 */
export type TargetUserRecord = Pick<TargetUser, 'attributes'> & {
  /** The SDK user's `id`. */
  userKey: string;
  lastSeenAt: Date;
};

/** One page of an environment's SDK users, with how many match in all. */
export type TargetUserPage = { rows: TargetUserRecord[]; total: number };
