/**
 * Optimistic concurrency for dashboard writes (docs/adr/0013-concurrent-edits.md): a write may say
 * which version of the record it was based on, the `lastModifiedDate` it read.
 */

/**
 * Whether the stored record changed since the version a write was based on. Compared to the
 * millisecond, the precision of the ISO dates the API hands out; no version means no check.
 */
export function changedSince(updatedAt: Date, basedOn: string | undefined): boolean {
  if (basedOn === undefined) return false;
  return Date.parse(basedOn) !== updatedAt.getTime();
}
