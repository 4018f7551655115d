import type { ControlSnapshot } from '../schemas/versions';
import { sameJson } from '../versions/same-json';

/*
 * The conflict rule of change requests (docs/adr/0024-change-requests.md). A change is drafted
 * against a base version of its resource; when the live version has moved on by the time the
 * request is applied (or when its author brings it up to date), the change is merged part by part:
 * a part only one side changed takes that side's value, a part both changed alike takes it, and a
 * part both changed differently is a conflict, shown with all three values for the author to
 * decide. Parts are the fields of a snapshot; a control's rules are parts one by one while no side
 * added, removed or moved a rule (the rules then line up by position), and one part otherwise.
 */

/** A part both sides changed differently: what it was, what is live, what the request wants. */
export type MergeConflict = {
  /** Machine name: a field (`enabled`), `rules/{index}`, or `rules` for the whole list. */
  part: string;
  /** What a person calls it: "On/off", "Rule 2", "Rules". */
  label: string;
  base: unknown;
  live: unknown;
  proposed: unknown;
};

/** A merge's result; where it conflicts, `merged` keeps the live value until the author decides. */
export type MergeResult<T> = { merged: T; conflicts: MergeConflict[] };

/** One part, three ways. */
function mergePart<V>(
  part: string,
  label: string,
  base: V,
  live: V,
  proposed: V,
): { value: V; conflict?: MergeConflict } {
  if (sameJson(proposed, base) || sameJson(live, proposed)) return { value: live };
  if (sameJson(live, base)) return { value: proposed };
  return { value: live, conflict: { part, label, base, live, proposed } };
}

/**
 * Merges a snapshot whose parts are its fields (a feature's settings, a segment, an environment's
 * settings). `labels` names the fields for people; a field without one is named by its key.
 */
export function mergeFields<T extends Record<string, unknown>>(
  base: T,
  live: T,
  proposed: T,
  labels: Partial<Record<keyof T & string, string>> = {},
): MergeResult<T> {
  const merged: Record<string, unknown> = {};
  const conflicts: MergeConflict[] = [];
  const keys = new Set([...Object.keys(base), ...Object.keys(live), ...Object.keys(proposed)]);
  for (const key of keys) {
    const label = labels[key as keyof T & string] ?? key;
    const { value, conflict } = mergePart(key, label, base[key], live[key], proposed[key]);
    if (value !== undefined) merged[key] = value;
    if (conflict) conflicts.push(conflict);
  }
  return { merged: merged as T, conflicts };
}

/** A control's parts as people call them. */
const CONTROL_LABELS = { enabled: 'On/off', offVariantKey: 'Variant served when off', rules: 'Rules' };

/** Merges a feature control (see above for its rules). */
export function mergeControl(
  base: ControlSnapshot,
  live: ControlSnapshot,
  proposed: ControlSnapshot,
): MergeResult<ControlSnapshot> {
  const conflicts: MergeConflict[] = [];
  const take = <V>(part: string, label: string, b: V, l: V, p: V): V => {
    const { value, conflict } = mergePart(part, label, b, l, p);
    if (conflict) conflicts.push(conflict);
    return value;
  };
  const enabled = take('enabled', CONTROL_LABELS.enabled, base.enabled, live.enabled, proposed.enabled);
  const offVariantKey = take(
    'offVariantKey',
    CONTROL_LABELS.offVariantKey,
    base.offVariantKey,
    live.offVariantKey,
    proposed.offVariantKey,
  );
  const lined = base.rules.length === live.rules.length && base.rules.length === proposed.rules.length;
  const rules = lined
    ? base.rules.map((rule, index) =>
        take(`rules/${index}`, `Rule ${index + 1}`, rule, live.rules[index]!, proposed.rules[index]!),
      )
    : take('rules', CONTROL_LABELS.rules, base.rules, live.rules, proposed.rules);
  return { merged: { enabled, offVariantKey, rules }, conflicts };
}
