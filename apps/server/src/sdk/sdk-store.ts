import { createHash } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/client';
import type { ControlRule, JsonValue } from '../db/schema/index';
import type { ChangeEvents } from '../lib/change-events';
import { groupBy } from '../lib/collections';
import * as repo from './sdk.repository';
import type { EnvironmentKeys } from './sdk.repository';

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

export type ControlEntry = {
  controlId: string;
  featureId: string;
  control: SdkControl;
  /** `control` serialised once. */
  json: string;
  /** The variants' JSON values by key (only those that have one), for the JS client and OFREP. */
  values: ReadonlyMap<string, JsonValue>;
  /** Exactly the variants `on` and `off`: OFREP answers such a feature with booleans. */
  onOff: boolean;
};

/** One environment's SDK payload, built once per change and served from memory. */
export type EnvironmentSnapshot = {
  keys: EnvironmentKeys;
  controls: ReadonlyMap<string, ControlEntry>;
  /** The `/api/sdk/v1/features` body: every control keyed by feature key. */
  body: string;
  /** `body` encoded once, so serving it copies no string (a thousand 100 KB answers a second). */
  bytes: Buffer;
  /** Quoted strong ETag of `body`. */
  etag: string;
  /** The running experiments, by feature key and by goal key, for the event ingestion. */
  experiments: ExperimentsIndex;
};

export type ExperimentsIndex = {
  byFeature: ReadonlyMap<string, readonly repo.RunningExperiment[]>;
  byGoal: ReadonlyMap<string, readonly repo.RunningExperiment[]>;
};

const NO_EXPERIMENTS: ExperimentsIndex = { byFeature: new Map(), byGoal: new Map() };

function indexExperiments(running: repo.RunningExperiment[]): ExperimentsIndex {
  if (running.length === 0) return NO_EXPERIMENTS;
  return {
    byFeature: groupBy(running, (experiment) => experiment.featureKey),
    byGoal: groupBy(running, (experiment) => experiment.goalKey),
  };
}

/** What changed in a rebuild, for the SSE streams of that environment. */
export type SnapshotChange = { snapshot: EnvironmentSnapshot; updated: ControlEntry[]; deleted: string[] };
export type SnapshotListener = (change: SnapshotChange) => void;

/** A lookup that found no environment is remembered this long, so bad keys cannot hammer the database. */
const UNKNOWN_KEY_TTL_MS = 10_000;
const UNKNOWN_KEY_LIMIT = 10_000;

export function etagOf(body: string): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`;
}

function buildControls(rows: repo.ControlRow[], variantRows: repo.VariantRow[]): Map<string, ControlEntry> {
  const variantsByFeature = groupBy(variantRows, (v) => v.featureId);
  const controls = new Map<string, ControlEntry>();
  for (const row of rows) {
    const control: SdkControl = {
      key: row.key,
      enabled: row.enabled,
      offVariantKey: row.offVariantKey,
      salt: '1',
      deleted: false,
      inClientApi: row.inClientApi,
      variants: (variantsByFeature.get(row.featureId) ?? []).map((v) =>
        v.value === null ? { key: v.key, name: v.name } : { key: v.key, name: v.name, value: v.value },
      ),
      rules: row.rules.map((rule) => ({
        defaultRule: rule.defaultRule,
        ...(rule.priority === undefined ? {} : { priority: rule.priority }),
        audience: rule.defaultRule ? null : rule.audience,
        variantSplits: rule.variantSplits,
      })),
    };
    const keys = control.variants.map((v) => v.key).sort();
    controls.set(row.key, {
      controlId: row.controlId,
      featureId: row.featureId,
      control,
      json: JSON.stringify(control),
      values: new Map(control.variants.flatMap((v) => ('value' in v ? [[v.key, v.value!] as const] : []))),
      onOff: keys.length === 2 && keys[0] === 'off' && keys[1] === 'on',
    });
  }
  return controls;
}

function serialise(controls: ReadonlyMap<string, ControlEntry>): string {
  const parts: string[] = [];
  for (const [key, entry] of controls) parts.push(`${JSON.stringify(key)}:${entry.json}`);
  return `{${parts.join(',')}}`;
}

export type SdkStore = ReturnType<typeof createSdkStore>;

/**
 * The SDK API's memory (docs/architecture.md "Scale"): every live environment's payload, pre-serialised
 * with its ETag, indexed by both SDK keys. Change events rebuild one environment and notify its
 * streams; SDK requests never touch the database unless a key is not in memory yet.
 */
export function createSdkStore(deps: { db: Database; events: ChangeEvents; logger: FastifyBaseLogger }) {
  const { db, events, logger } = deps;
  const snapshots = new Map<string, EnvironmentSnapshot>();
  const byKey = new Map<string, string>();
  const unknownKeys = new Map<string, number>();
  const listeners = new Map<string, Set<SnapshotListener>>();
  const building = new Map<string, Promise<void>>();
  const dirty = new Set<string>();
  let unsubscribe: (() => void) | null = null;
  let retryTimer: NodeJS.Timeout | null = null;

  function index(snapshot: EnvironmentSnapshot, previous: EnvironmentSnapshot | undefined) {
    if (previous) {
      byKey.delete(previous.keys.serverApiKey);
      byKey.delete(previous.keys.jsApiKey);
    }
    byKey.set(snapshot.keys.serverApiKey, snapshot.keys.environmentId);
    byKey.set(snapshot.keys.jsApiKey, snapshot.keys.environmentId);
    unknownKeys.delete(snapshot.keys.serverApiKey);
    unknownKeys.delete(snapshot.keys.jsApiKey);
  }

  function drop(environmentId: string) {
    const previous = snapshots.get(environmentId);
    if (!previous) return;
    snapshots.delete(environmentId);
    byKey.delete(previous.keys.serverApiKey);
    byKey.delete(previous.keys.jsApiKey);
    const deleted = [...previous.controls.keys()];
    const empty: EnvironmentSnapshot = {
      keys: previous.keys,
      controls: new Map(),
      body: '{}',
      bytes: Buffer.from('{}'),
      etag: etagOf('{}'),
      experiments: NO_EXPERIMENTS,
    };
    for (const listener of listeners.get(environmentId) ?? [])
      listener({ snapshot: empty, updated: [], deleted });
  }

  async function build(keys: EnvironmentKeys): Promise<EnvironmentSnapshot> {
    const rows = await repo.controlsOf(db, keys.environmentId);
    const variantRows = await repo.variantsOf(
      db,
      rows.map((r) => r.featureId),
    );
    const controls = buildControls(rows, variantRows);
    const body = serialise(controls);
    const experiments = indexExperiments(await repo.runningExperimentsOf(db, keys.environmentId));
    return { keys, controls, body, bytes: Buffer.from(body), etag: etagOf(body), experiments };
  }

  function install(snapshot: EnvironmentSnapshot) {
    const environmentId = snapshot.keys.environmentId;
    const previous = snapshots.get(environmentId);
    snapshots.set(environmentId, snapshot);
    index(snapshot, previous);
    if (!previous || previous.etag === snapshot.etag) return;
    const updated = [...snapshot.controls.values()].filter(
      (entry) => previous.controls.get(entry.control.key)?.json !== entry.json,
    );
    const deleted = [...previous.controls.keys()].filter((key) => !snapshot.controls.has(key));
    for (const listener of listeners.get(environmentId) ?? []) {
      try {
        listener({ snapshot, updated, deleted });
      } catch (error) {
        logger.error({ err: error }, 'An SDK stream listener failed');
      }
    }
  }

  /** Rebuilds one environment; changes arriving meanwhile cause one more rebuild, not one each. */
  function rebuild(environmentId: string): Promise<void> {
    if (building.has(environmentId)) {
      dirty.add(environmentId);
      return building.get(environmentId)!;
    }
    const run = (async () => {
      try {
        do {
          dirty.delete(environmentId);
          const keys = await repo.environmentById(db, environmentId);
          if (!keys) {
            drop(environmentId);
            return;
          }
          install(await build(keys));
        } while (dirty.has(environmentId));
      } catch (error) {
        // The previous payload keeps being served; the next change retries.
        logger.error({ err: error, environmentId }, 'Could not rebuild an environment’s SDK payload');
      } finally {
        building.delete(environmentId);
      }
    })();
    building.set(environmentId, run);
    return run;
  }

  return {
    /** Loads every live environment and follows change events. */
    async start(): Promise<void> {
      unsubscribe = events.subscribe((event) => {
        if (event.type === 'environment.removed') drop(event.environmentId);
        else if (event.type === 'environment.changed') void rebuild(event.environmentId);
      });
      const load = async () => {
        try {
          for (const keys of await repo.liveEnvironments(db)) install(await build(keys));
        } catch (error) {
          // Keys are still found one by one on demand; the full load is retried.
          logger.error({ err: error }, 'Could not load the SDK payloads; retrying in 5 s');
          if (unsubscribe) retryTimer = setTimeout(() => void load(), 5_000).unref();
        }
      };
      await load();
    },

    /** Rebuilds every environment (after missed notifications), dropping those that are gone. */
    async refreshAll(): Promise<void> {
      const live = await repo.liveEnvironments(db);
      const ids = new Set(live.map((keys) => keys.environmentId));
      for (const environmentId of [...snapshots.keys()]) if (!ids.has(environmentId)) drop(environmentId);
      for (const keys of live) await rebuild(keys.environmentId);
    },

    stop() {
      unsubscribe?.();
      unsubscribe = null;
      if (retryTimer) clearTimeout(retryTimer);
    },

    /** Resolves when every rebuild under way has finished (tests, shutdown). */
    async settled(): Promise<void> {
      while (building.size > 0) await Promise.all([...building.values()]);
    },

    /**
     * The snapshot of the environment owning this SDK key (server or JS client), or null when no
     * live environment has it. A key not in memory is looked up once in the database (a key made on
     * another instance whose change has not arrived yet); misses are remembered briefly.
     */
    async find(key: string): Promise<EnvironmentSnapshot | null> {
      const environmentId = byKey.get(key);
      if (environmentId) return snapshots.get(environmentId) ?? null;
      const missUntil = unknownKeys.get(key);
      if (missUntil !== undefined && missUntil > Date.now()) return null;
      const keys = await repo.environmentByKey(db, key);
      if (!keys) {
        if (unknownKeys.size >= UNKNOWN_KEY_LIMIT) unknownKeys.clear();
        unknownKeys.set(key, Date.now() + UNKNOWN_KEY_TTL_MS);
        return null;
      }
      await rebuild(keys.environmentId);
      return snapshots.get(keys.environmentId) ?? null;
    },

    /** The snapshot of an environment by id, if loaded. */
    get(environmentId: string): EnvironmentSnapshot | undefined {
      return snapshots.get(environmentId);
    },

    /** Follows an environment's changes (SSE). Returns the function that stops following. */
    listen(environmentId: string, listener: SnapshotListener): () => void {
      const set = listeners.get(environmentId) ?? new Set();
      set.add(listener);
      listeners.set(environmentId, set);
      return () => {
        set.delete(listener);
        if (set.size === 0) listeners.delete(environmentId);
      };
    },

    /** How many streams are open, for metrics and tests. */
    listenerCount(): number {
      let total = 0;
      for (const set of listeners.values()) total += set.size;
      return total;
    },
  };
}
