/**
 * Concurrent edits of a control's targeting (docs/adr/0013-concurrent-edits.md): the words the server's
 * 409 `stale_write` and the Targeting form use, and the parts of a control that are merged one by one.
 */

/** "{member} changed this targeting at {time}.": who saved the targeting since the edit began. */
export function targetingChangedMessage(member: string, time: string): string {
  return `${member} changed this targeting at ${time}.`;
}

/** What the form does about it: nothing of the edit is lost. */
export const TARGETING_CONFLICT_HINT =
  'Your edits are kept: for each part you both changed, keep yours or take theirs, then save.';

/** The parts of a control's targeting that two edits can change apart, merged each on its own. */
export const TARGETING_PARTS = ['enabled', 'offVariantKey', 'rules', 'fallback'] as const;
/** One {@link TARGETING_PARTS} entry. */
export type TargetingPart = (typeof TARGETING_PARTS)[number];

/** How the form names each part. */
export const TARGETING_PART_LABELS: Readonly<Record<TargetingPart, string>> = {
  enabled: 'On/off switch',
  offVariantKey: 'Off variant',
  rules: 'Rules',
  fallback: 'Everyone else',
};

/**
 * A three-way merge of one edit's parts: `base` is what the edit started from, `mine` the edit,
 * `theirs` what was saved since. A part only one side changed takes that side's; a part both
 * changed alike is that; a part both changed differently keeps mine and is a conflict to resolve.
 * `same` tells whether two values of a part say the same.
 */
export function mergeParts<T extends Record<TargetingPart, unknown>>(
  base: T,
  mine: T,
  theirs: T,
  same: (part: TargetingPart, a: T[TargetingPart], b: T[TargetingPart]) => boolean,
): { merged: T; conflicts: TargetingPart[] } {
  const merged = { ...mine };
  const conflicts: TargetingPart[] = [];
  for (const part of TARGETING_PARTS) {
    if (same(part, mine[part], theirs[part])) continue;
    if (same(part, mine[part], base[part])) merged[part] = theirs[part];
    else if (!same(part, theirs[part], base[part])) conflicts.push(part);
  }
  return { merged, conflicts };
}
