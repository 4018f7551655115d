import { BUILT_IN_TARGET_NAMES, BUILT_IN_TARGETS, type Target, type TargetType } from '@vexil/core';

// The operator and attribute wording lives in core, so the server's history sentences say the same.
export { BUILT_IN_TARGET_NAMES, OPERATOR_LABELS, operatorText } from '@vexil/core';

export const TARGET_TYPE_LABELS: Readonly<Record<TargetType, string>> = {
  string: 'Text',
  number: 'Number',
  date: 'Date',
  segment: 'Segment',
};

/** The name people know a target by: its declared name, a built-in's name, or its key. */
export function targetName(key: string, targets: readonly Target[]): string {
  return targets.find((target) => target.key === key)?.name ?? BUILT_IN_TARGET_NAMES[key] ?? key;
}

export const BUILT_IN_TARGET_KEYS = Object.keys(BUILT_IN_TARGETS);
