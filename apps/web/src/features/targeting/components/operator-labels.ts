import { BUILT_IN_TARGETS, type Operator, type Target, type TargetType } from '@vexil/core';

/** Operators as a sentence reads them: `email ends with …`, `age is at least …`. */
export const OPERATOR_LABELS: Readonly<Record<Operator, string>> = {
  equals: 'equals',
  contains: 'contains',
  startsWith: 'starts with',
  endsWith: 'ends with',
  matches: 'matches the pattern',
  in: 'is one of',
  notIn: 'is not one of',
  greaterThan: 'is more than',
  greaterThanOrEqual: 'is at least',
  lessThan: 'is less than',
  lessThanOrEqual: 'is at most',
  before: 'is before',
  after: 'is after',
};

/** A segment target's two operators read differently: the user is (not) in a segment. */
const SEGMENT_LABELS: Partial<Record<Operator, string>> = { in: 'is in', notIn: 'is not in' };

export function operatorText(operator: Operator, type: TargetType): string {
  return (type === 'segment' ? SEGMENT_LABELS[operator] : undefined) ?? OPERATOR_LABELS[operator];
}

/** Names of the attributes every SDK adds (docs/sdk-protocol.md §9.1). */
export const BUILT_IN_TARGET_NAMES: Readonly<Record<string, string>> = {
  'featureflow.user.id': 'User id',
  'featureflow.date': 'Current date',
  'featureflow.hourofday': 'Hour of the day',
};

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
