import { createHash } from 'node:crypto';
import { CLIENT_TIME_TARGETS, rulesWithUtcDates } from '@vexil/core';
import type { ControlRule, JsonValue } from '../db/schema/index';
import { groupBy } from '../lib/collections';
import type * as repo from './sdk.repository';
import type { EnvironmentKeys } from './sdk.repository';

/**
 * The payload of one environment as SDKs receive it, and how it is built from the database's rows and
 * patched when features change (the store in sdk-store.ts keeps one per live environment).
 */
/** A variant as SDKs receive it; `value` only when the variant has one (docs/sdk-protocol.md §8). */
export type SdkVariant = { key: string; name: string; value?: JsonValue };

/** The FeatureControl JSON of docs/sdk-protocol.md §8, exactly as served. */
export type SdkControl = {
  key: string;
  enabled: boolean;
  offVariantKey: string;
  salt: '1';
  deleted: false;
  inClientApi: boolean;
  variants: SdkVariant[];
  rules: ControlRule[];
};

/**
 * Whether an answer computed from a control depends on the clock as well as on the user: `server`
 * for the engine (`evaluate` in packages/core/src/evaluate/engine.ts, OFREP), which reads the date and
 * hour itself; `client` for the JS client endpoint (`clientRules`), which sends date and hour
 * conditions to the device and evaluates only the others.
 */
export type ClockUse = { server: boolean; client: boolean };

/** A control's clock use, and whether it has date or hour conditions the JS client leaves to the device. */
export type ControlClockUse = ClockUse & { device: boolean };

export type ControlEntry = {
  controlId: string;
  featureId: string;
  control: SdkControl;
  /** `control` serialised once. */
  json: string;
  /** `JSON.stringify(control.key)`, for the payload and the answers keyed by feature. */
  keyJson: string;
  /** The variants' JSON values by key (only those that have one), for the JS client and OFREP. */
  values: ReadonlyMap<string, JsonValue>;
  /** Exactly the variants `on` and `off`: OFREP answers such a feature with booleans. */
  onOff: boolean;
  readsClock: ControlClockUse;
  /** This control's answer items (UTF-8) by outcome, made on first use (answer-items.ts). */
  items: Map<string, Map<string, Buffer>>;
};

/** One environment's SDK payload, built once per change and served from memory. */
export type EnvironmentSnapshot = {
  keys: EnvironmentKeys;
  /** By feature key, in byte order of the keys (as `repo.controlsOf` reads them). */
  controls: ReadonlyMap<string, ControlEntry>;
  /** The `/api/sdk/v1/features` body: every control keyed by feature key. */
  body: string;
  /** `body` encoded once, so serving it copies no string (a thousand 100 KB answers a second). */
  bytes: Buffer;
  /** Quoted strong ETag of `body`; also the version the answer cache keys answers by. */
  etag: string;
  /** The running experiments, by feature key and by goal key, for the event ingestion. */
  experiments: ExperimentsIndex;
  /** Whether any control's answers depend on the clock; such answers are not cached. */
  readsClock: ClockUse;
};

/** What the event ingestion counts users for: running experiments, and running ramps' arms. */
export type ExperimentsIndex = {
  byFeature: ReadonlyMap<string, readonly repo.RunningExperiment[]>;
  byGoal: ReadonlyMap<string, readonly repo.RunningExperiment[]>;
  /** Running ramps by feature key (docs/adr/0026-guarded-rollouts.md). */
  rampsByFeature: ReadonlyMap<string, readonly repo.RunningRamp[]>;
};

export const NO_EXPERIMENTS: ExperimentsIndex = {
  byFeature: new Map(),
  byGoal: new Map(),
  rampsByFeature: new Map(),
};

export function indexExperiments(
  running: repo.RunningExperiment[],
  ramps: repo.RunningRamp[] = [],
): ExperimentsIndex {
  if (running.length === 0 && ramps.length === 0) return NO_EXPERIMENTS;
  return {
    byFeature: groupBy(running, (experiment) => experiment.featureKey),
    byGoal: groupBy(running, (experiment) => experiment.goalKey),
    rampsByFeature: groupBy(ramps, (ramp) => ramp.featureKey),
  };
}

/** What changed in a rebuild or a patch, for the SSE streams of that environment. */
export type SnapshotChange = { snapshot: EnvironmentSnapshot; updated: ControlEntry[]; deleted: string[] };
export type SnapshotListener = (change: SnapshotChange) => void;

export function etagOf(body: string | Buffer): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`;
}

/** The one built-in attribute the engine reads from the user rather than from the clock (engine.ts). */
const USER_ID_TARGET = 'featureflow.user.id';

/**
 * How a control's conditions use the clock. Every `featureflow.` built-in but the user id counts as
 * the clock (the date and the hour today), so a built-in added to the engine later is not cached
 * by mistake; a rule that can never apply (a disabled control, the default rule) counts too.
 */
function clockUseOf(rules: readonly ControlRule[]): ControlClockUse {
  let server = false;
  let client = false;
  let device = false;
  for (const rule of rules) {
    for (const condition of rule.audience?.conditions ?? []) {
      const target: unknown = condition.target;
      if (typeof target !== 'string' || !target.startsWith('featureflow.') || target === USER_ID_TARGET)
        continue;
      server = true;
      if (CLIENT_TIME_TARGETS.has(target)) device = true;
      else client = true;
    }
  }
  return { server, client, device };
}

export function entryOf(row: repo.ControlRow, variantRows: readonly repo.VariantRow[]): ControlEntry {
  const control: SdkControl = {
    key: row.key,
    enabled: row.enabled,
    offVariantKey: row.offVariantKey,
    salt: '1',
    deleted: false,
    inClientApi: row.inClientApi,
    variants: variantRows.map((v) =>
      v.value === null ? { key: v.key, name: v.name } : { key: v.key, name: v.name, value: v.value },
    ),
    // Offset-less date-times sent with a Z, so that no SDK reads them in its host's zone.
    rules: rulesWithUtcDates(row.rules).map((rule) => ({
      defaultRule: rule.defaultRule,
      ...(rule.priority === undefined ? {} : { priority: rule.priority }),
      audience: rule.defaultRule ? null : rule.audience,
      variantSplits: rule.variantSplits,
    })),
  };
  const keys = control.variants.map((v) => v.key).sort();
  return {
    controlId: row.controlId,
    featureId: row.featureId,
    control,
    json: JSON.stringify(control),
    keyJson: JSON.stringify(row.key),
    values: new Map(control.variants.flatMap((v) => ('value' in v ? [[v.key, v.value!] as const] : []))),
    onOff: keys.length === 2 && keys[0] === 'off' && keys[1] === 'on',
    readsClock: clockUseOf(control.rules),
    items: new Map(),
  };
}

export function buildControls(
  rows: repo.ControlRow[],
  variantRows: repo.VariantRow[],
): Map<string, ControlEntry> {
  const variantsByFeature = groupBy(variantRows, (v) => v.featureId);
  const controls = new Map<string, ControlEntry>();
  for (const row of rows) controls.set(row.key, entryOf(row, variantsByFeature.get(row.featureId) ?? []));
  return controls;
}

/** UTF-16 puts U+E000–U+FFFF after the surrogates of U+10000 and above; code points do not. */
const codePointRank = (unit: number) => (unit < 0xd800 ? unit : unit < 0xe000 ? unit + 0x2000 : unit - 0x800);

/** Code point order: the byte order of UTF-8, which is PostgreSQL's `collate "C"` (repo.controlsOf). */
export function compareKeys(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return codePointRank(x) - codePointRank(y);
  }
  return a.length - b.length;
}

export function snapshotOf(
  keys: EnvironmentKeys,
  controls: ReadonlyMap<string, ControlEntry>,
  experiments: ExperimentsIndex,
): EnvironmentSnapshot {
  const parts: string[] = [];
  const readsClock: ClockUse = { server: false, client: false };
  for (const entry of controls.values()) {
    parts.push(`${entry.keyJson}:${entry.json}`);
    readsClock.server ||= entry.readsClock.server;
    readsClock.client ||= entry.readsClock.client;
  }
  const body = `{${parts.join(',')}}`;
  const bytes = Buffer.from(body);
  return { keys, controls, body, bytes, etag: etagOf(bytes), experiments, readsClock };
}

/**
 * The payload after a change of some features: their entries replaced in place, the deleted ones
 * removed and new ones placed in key order, so that the result is exactly what a full build would
 * give. `fresh` holds the live controls of the `touched` features, by key. Null when no entry
 * changed (the snapshot stays as it is).
 */
export function patchControls(
  current: ReadonlyMap<string, ControlEntry>,
  touched: ReadonlySet<string>,
  fresh: ReadonlyMap<string, ControlEntry>,
): {
  controls: Map<string, ControlEntry>;
  /** The entries whose JSON changed or that are new, in key order. */
  updated: ControlEntry[];
  deleted: string[];
  /** Features came or went: the experiments index may have changed. */
  membership: boolean;
} | null {
  const updated: ControlEntry[] = [];
  const deleted: string[] = [];
  let membership = false;
  let replaced = false;
  const additions = [...fresh.values()].filter((entry) => !current.has(entry.control.key));
  additions.sort((a, b) => compareKeys(a.control.key, b.control.key));
  const controls = new Map<string, ControlEntry>();
  let a = 0;
  const add = (entry: ControlEntry) => {
    controls.set(entry.control.key, entry);
    updated.push(entry);
    membership = true;
  };
  for (const [key, entry] of current) {
    while (a < additions.length && compareKeys(additions[a]!.control.key, key) < 0) add(additions[a++]!);
    // The live feature with this key, if it is one of the touched; else the entry stays, unless its
    // own feature was touched and is gone (deleted, or its control is).
    const next = fresh.get(key) ?? (touched.has(entry.featureId) ? null : entry);
    if (!next) {
      deleted.push(key);
      membership = true;
      continue;
    }
    controls.set(key, next);
    if (next === entry) continue;
    if (next.featureId !== entry.featureId) membership = true;
    if (next.json !== entry.json) updated.push(next);
    else if (next.controlId !== entry.controlId || next.featureId !== entry.featureId) replaced = true;
  }
  while (a < additions.length) add(additions[a++]!);
  if (updated.length === 0 && deleted.length === 0 && !replaced) return null;
  return { controls, updated, deleted, membership };
}

/** Work waiting for an environment: a full rebuild (which absorbs any patch), or features to patch. */
