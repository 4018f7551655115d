import type { TargetUserAttributes } from '../db/schema/index';

/**
 * What a set of SDK events adds to the database, aggregated: counters (control × variant × day),
 * availability and last impression per control, users and attribute values seen, goals. One request's
 * rows, or a whole flush's after `mergeRows`.
 */
export type ImpressionRow = {
  organisationId: string;
  featureControlId: string;
  variantKey: string;
  day: string;
  count: number;
};
export type ControlRow = {
  controlId: string;
  lastImpressionAt: Date | null;
  seenAt: Date;
  /** Where the control is, told to the live dashboards when an SDK first evaluates it. */
  where: FeatureWhere;
};
/** A feature in an environment, as the dashboard names it. */
export type FeatureWhere = {
  organisationId: string;
  projectKey: string;
  environmentKey: string;
  featureKey: string;
};
export type UserRow = {
  organisationId: string;
  environmentId: string;
  userKey: string;
  attributes: TargetUserAttributes;
  lastSeenAt: Date;
};
export type ValueRow = {
  organisationId: string;
  projectId: string;
  targetKey: string;
  value: string;
  lastSeenAt: Date;
};
export type GoalRow = { organisationId: string; projectId: string; key: string; lastSeenAt: Date };
/**
 * A user exposed to a running experiment: the earliest exposure's variant is the one they count for;
 * `crossed` when they were also seen with the other variant.
 */
export type ExposureRow = {
  organisationId: string;
  experimentId: string;
  userKey: string;
  variantKey: string;
  exposedAt: Date;
  crossed: boolean;
};
/** Goal events of an experiment's goal from one user: the first and last time, how many, their values. */
export type ConversionRow = {
  organisationId: string;
  experimentId: string;
  userKey: string;
  firstAt: Date;
  lastAt: Date;
  count: number;
  valueSum: number;
};

/** A user of a running ramp's rule: the arm and step of their earliest exposure there (docs/adr/0026-guarded-rollouts.md). */
export type RampExposureRow = {
  organisationId: string;
  scheduleId: string;
  userKey: string;
  arm: 'treatment' | 'control';
  step: number;
  exposedAt: Date;
};

export type Rows = {
  impressions: Map<string, ImpressionRow>;
  controls: Map<string, ControlRow>;
  users: Map<string, UserRow>;
  values: Map<string, ValueRow>;
  goals: Map<string, GoalRow>;
  exposures: Map<string, ExposureRow>;
  conversions: Map<string, ConversionRow>;
  rampExposures: Map<string, RampExposureRow>;
};

export function emptyRows(): Rows {
  return {
    impressions: new Map(),
    controls: new Map(),
    users: new Map(),
    values: new Map(),
    goals: new Map(),
    exposures: new Map(),
    conversions: new Map(),
    rampExposures: new Map(),
  };
}

export function isEmpty(rows: Rows): boolean {
  return (
    rows.impressions.size +
      rows.controls.size +
      rows.users.size +
      rows.values.size +
      rows.goals.size +
      rows.exposures.size +
      rows.conversions.size +
      rows.rampExposures.size ===
    0
  );
}

/** Keys of one map; NUL never occurs in stored text (events.ts refuses it), so it separates parts. */
export const rowKey = (...parts: string[]) => parts.join('\u0000');

const later = (a: Date | null, b: Date | null) => (a && b ? (a > b ? a : b) : (a ?? b));

export function addImpressions(rows: Rows, row: ImpressionRow) {
  const key = rowKey(row.featureControlId, row.variantKey, row.day);
  const existing = rows.impressions.get(key);
  if (existing) existing.count += row.count;
  else rows.impressions.set(key, { ...row });
}

export function touchControl(rows: Rows, row: ControlRow) {
  const existing = rows.controls.get(row.controlId);
  if (!existing) rows.controls.set(row.controlId, { ...row });
  else {
    existing.lastImpressionAt = later(existing.lastImpressionAt, row.lastImpressionAt);
    // Availability dates from the first time it was seen.
    if (row.seenAt < existing.seenAt) existing.seenAt = row.seenAt;
  }
}

export function seeUser(rows: Rows, row: UserRow) {
  const key = rowKey(row.environmentId, row.userKey);
  const existing = rows.users.get(key);
  // The latest sighting's attributes win.
  if (!existing || row.lastSeenAt >= existing.lastSeenAt) rows.users.set(key, { ...row });
}

export function seeValue(rows: Rows, row: ValueRow) {
  const key = rowKey(row.projectId, row.targetKey, row.value);
  const existing = rows.values.get(key);
  if (!existing) rows.values.set(key, { ...row });
  else if (row.lastSeenAt > existing.lastSeenAt) existing.lastSeenAt = row.lastSeenAt;
}

export function seeGoal(rows: Rows, row: GoalRow) {
  const key = rowKey(row.projectId, row.key);
  const existing = rows.goals.get(key);
  if (!existing) rows.goals.set(key, { ...row });
  else if (row.lastSeenAt > existing.lastSeenAt) existing.lastSeenAt = row.lastSeenAt;
}

export function expose(rows: Rows, row: ExposureRow) {
  const key = rowKey(row.experimentId, row.userKey);
  const existing = rows.exposures.get(key);
  if (!existing) {
    rows.exposures.set(key, { ...row });
    return;
  }
  const crossed = existing.crossed || row.crossed || existing.variantKey !== row.variantKey;
  if (row.exposedAt < existing.exposedAt) rows.exposures.set(key, { ...row, crossed });
  else existing.crossed = crossed;
}

/** The earliest exposure wins: a user counts for the arm they were first seen in. */
export function exposeToRamp(rows: Rows, row: RampExposureRow) {
  const key = rowKey(row.scheduleId, row.userKey);
  const existing = rows.rampExposures.get(key);
  if (!existing || row.exposedAt < existing.exposedAt) rows.rampExposures.set(key, { ...row });
}

export function convert(rows: Rows, row: ConversionRow) {
  const key = rowKey(row.experimentId, row.userKey);
  const existing = rows.conversions.get(key);
  if (!existing) {
    rows.conversions.set(key, { ...row });
    return;
  }
  if (row.firstAt < existing.firstAt) existing.firstAt = row.firstAt;
  if (row.lastAt > existing.lastAt) existing.lastAt = row.lastAt;
  existing.count += row.count;
  existing.valueSum += row.valueSum;
}

/** One set of rows for several: what one transaction writes for a group of requests. */
export function mergeRows(parts: readonly Rows[]): Rows {
  if (parts.length === 1) return parts[0]!;
  const merged = emptyRows();
  for (const part of parts) {
    for (const row of part.impressions.values()) addImpressions(merged, row);
    for (const row of part.controls.values()) touchControl(merged, row);
    for (const row of part.users.values()) seeUser(merged, row);
    for (const row of part.values.values()) seeValue(merged, row);
    for (const row of part.goals.values()) seeGoal(merged, row);
    for (const row of part.exposures.values()) expose(merged, row);
    for (const row of part.conversions.values()) convert(merged, row);
    for (const row of part.rampExposures.values()) exposeToRamp(merged, row);
  }
  return merged;
}

/** Drops the rows of controls and environments that no longer exist (deleted since the event came). */
export function dropVanished(rows: Rows, live: Live) {
  for (const [key, row] of rows.impressions)
    if (!live.controls.has(row.featureControlId)) rows.impressions.delete(key);
  for (const key of rows.controls.keys()) if (!live.controls.has(key)) rows.controls.delete(key);
  for (const [key, row] of rows.users) if (!live.environments.has(row.environmentId)) rows.users.delete(key);
  for (const [key, row] of rows.values) if (!live.projects.has(row.projectId)) rows.values.delete(key);
  for (const [key, row] of rows.goals) if (!live.projects.has(row.projectId)) rows.goals.delete(key);
  for (const [key, row] of rows.exposures)
    if (!live.experiments.has(row.experimentId)) rows.exposures.delete(key);
  for (const [key, row] of rows.conversions)
    if (!live.experiments.has(row.experimentId)) rows.conversions.delete(key);
  for (const [key, row] of rows.rampExposures)
    if (!live.ramps.has(row.scheduleId)) rows.rampExposures.delete(key);
}

/** The ids rows refer to, to ask which still exist. */
export function referencedIds(rows: Rows) {
  const environments = new Set([...rows.users.values()].map((row) => row.environmentId));
  const projects = new Set([...rows.values.values(), ...rows.goals.values()].map((row) => row.projectId));
  const experiments = new Set(
    [...rows.exposures.values(), ...rows.conversions.values()].map((row) => row.experimentId),
  );
  const ramps = new Set([...rows.rampExposures.values()].map((row) => row.scheduleId));
  return {
    controls: [...rows.controls.keys()],
    environments: [...environments],
    projects: [...projects],
    experiments: [...experiments],
    ramps: [...ramps],
  };
}

export type Live = {
  controls: Set<string>;
  environments: Set<string>;
  projects: Set<string>;
  experiments: Set<string>;
  /** Ramps still running: a user first seen after a ramp ended does not count for it. */
  ramps: Set<string>;
};
