import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/client';
import type { ChangeEvents } from '../lib/change-events';
import { createAnswerCache, DEFAULT_ANSWER_CACHE_LIMITS, type AnswerCacheLimits } from './answer-cache';
import {
  NO_EXPERIMENTS,
  buildControls,
  etagOf,
  indexExperiments,
  patchControls,
  snapshotOf,
  type ControlEntry,
  type EnvironmentSnapshot,
  type SnapshotChange,
  type SnapshotListener,
} from './sdk-snapshot';
import * as repo from './sdk.repository';
import type { EnvironmentKeys } from './sdk.repository';

export {
  compareKeys,
  entryOf,
  etagOf,
  patchControls,
  type ClockUse,
  type ControlClockUse,
  type ControlEntry,
  type EnvironmentSnapshot,
  type ExperimentsIndex,
  type SdkControl,
  type SdkVariant,
  type SnapshotChange,
  type SnapshotListener,
} from './sdk-snapshot';

/** A lookup that found no environment is remembered this long, so bad keys cannot hammer the database. */
const UNKNOWN_KEY_TTL_MS = 10_000;
const UNKNOWN_KEY_LIMIT = 10_000;

/**
 * Beyond this many changed features, the environment is rebuilt whole: reading them one by one buys
 * nothing over reading them all.
 */
const PATCH_LIMIT = 500;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type Pending = { full: boolean; featureIds: Set<string>; keys?: EnvironmentKeys };

export type SdkStore = ReturnType<typeof createSdkStore>;

/**
 * The SDK API's memory (docs/architecture.md "Scale"): every live environment's payload, pre-serialised
 * with its ETag, indexed by both SDK keys. A change event naming features patches their entries; any
 * other rebuilds the environment. Either way its streams learn what changed. SDK requests never touch
 * the database unless a key is not in memory yet. Also holds the cache of recent SDK answers, whose
 * superseded versions it drops.
 */
export function createSdkStore(deps: {
  db: Database;
  events: ChangeEvents;
  logger: FastifyBaseLogger;
  answerCache?: AnswerCacheLimits;
}) {
  const { db, events, logger } = deps;
  const snapshots = new Map<string, EnvironmentSnapshot>();
  const byKey = new Map<string, string>();
  const unknownKeys = new Map<string, number>();
  const listeners = new Map<string, Set<SnapshotListener>>();
  /** The worker of each environment with work under way; it runs until `pending` has none left. */
  const building = new Map<string, Promise<void>>();
  const pending = new Map<string, Pending>();
  /** Environments whose last rebuild or patch failed: their next change rebuilds them whole. */
  const stale = new Set<string>();
  /** Counts the drops of each environment, so that work started before a drop installs nothing. */
  const drops = new Map<string, number>();
  const answers = createAnswerCache(deps.answerCache ?? DEFAULT_ANSWER_CACHE_LIMITS);
  /** How many patches and full rebuilds have run, for metrics and tests. */
  const counts = { patches: 0, rebuilds: 0 };
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

  function notify(environmentId: string, change: SnapshotChange) {
    for (const listener of listeners.get(environmentId) ?? []) {
      try {
        listener(change);
      } catch (error) {
        logger.error({ err: error }, 'An SDK stream listener failed');
      }
    }
  }

  function drop(environmentId: string) {
    drops.set(environmentId, (drops.get(environmentId) ?? 0) + 1);
    const previous = snapshots.get(environmentId);
    if (!previous) return;
    snapshots.delete(environmentId);
    byKey.delete(previous.keys.serverApiKey);
    byKey.delete(previous.keys.jsApiKey);
    answers.dropVersion(previous.etag);
    const deleted = [...previous.controls.keys()];
    const empty: EnvironmentSnapshot = {
      keys: previous.keys,
      controls: new Map(),
      body: '{}',
      bytes: Buffer.from('{}'),
      etag: etagOf('{}'),
      experiments: NO_EXPERIMENTS,
      readsClock: { server: false, client: false },
    };
    notify(environmentId, { snapshot: empty, updated: [], deleted });
  }

  async function build(keys: EnvironmentKeys): Promise<EnvironmentSnapshot> {
    const rows = await repo.controlsOf(db, keys.environmentId);
    const variantRows = await repo.variantsOf(
      db,
      rows.map((r) => r.featureId),
    );
    const controls = buildControls(rows, variantRows);
    const experiments = indexExperiments(
      await repo.runningExperimentsOf(db, keys.environmentId),
      await repo.runningRampsOf(db, keys.environmentId),
    );
    return snapshotOf(keys, controls, experiments);
  }

  /**
   * Serves `snapshot` from now on. `change` names what differs from the previous one when the caller
   * knows it (a patch); otherwise every entry is compared.
   */
  function install(snapshot: EnvironmentSnapshot, change?: { updated: ControlEntry[]; deleted: string[] }) {
    const environmentId = snapshot.keys.environmentId;
    const previous = snapshots.get(environmentId);
    snapshots.set(environmentId, snapshot);
    index(snapshot, previous);
    if (!previous || previous.etag === snapshot.etag) return;
    answers.dropVersion(previous.etag);
    const updated =
      change?.updated ??
      [...snapshot.controls.values()].filter(
        (entry) => previous.controls.get(entry.control.key)?.json !== entry.json,
      );
    const deleted =
      change?.deleted ?? [...previous.controls.keys()].filter((key) => !snapshot.controls.has(key));
    notify(environmentId, { snapshot, updated, deleted });
  }

  /**
   * Re-reads the changed features' controls and variants; returns how to install the patched
   * snapshot, or null when nothing served changed.
   */
  async function patch(current: EnvironmentSnapshot, featureIds: ReadonlySet<string>) {
    const environmentId = current.keys.environmentId;
    const rows = await repo.controlsOfFeatures(db, environmentId, [...featureIds]);
    const variantRows = await repo.variantsOf(
      db,
      rows.map((r) => r.featureId),
    );
    const patched = patchControls(current.controls, featureIds, buildControls(rows, variantRows));
    if (!patched) return null;
    // A ramp's step (its start, its end, a rollback) is a change of its feature: the ramps are read
    // again at every patch; experiments only when features came or went.
    const ramps = await repo.runningRampsOf(db, environmentId);
    const experiments = indexExperiments(
      patched.membership
        ? await repo.runningExperimentsOf(db, environmentId)
        : [...new Set([...current.experiments.byFeature.values()].flat())],
      ramps,
    );
    const { controls, updated, deleted } = patched;
    return () => {
      if (updated.length === 0 && deleted.length === 0) {
        // The same JSON from other rows (a feature deleted and created again under its key): the
        // same body and ETag, and nothing for the streams.
        install({ ...current, controls, experiments });
        return;
      }
      install(snapshotOf(current.keys, controls, experiments), { updated, deleted });
    };
  }

  /** Applies one piece of work; true when it rebuilt the environment whole. */
  async function perform(environmentId: string, work: Pending): Promise<boolean> {
    const dropsBefore = drops.get(environmentId) ?? 0;
    const current = snapshots.get(environmentId);
    let installation: (() => void) | null;
    let rebuilt = true;
    if (!work.full && current) {
      counts.patches++;
      installation = await patch(current, work.featureIds);
      rebuilt = false;
    } else {
      counts.rebuilds++;
      const keys = work.keys ?? (await repo.environmentById(db, environmentId));
      if (!keys) {
        drop(environmentId);
        return true;
      }
      const snapshot = await build(keys);
      installation = () => install(snapshot);
    }
    if ((drops.get(environmentId) ?? 0) !== dropsBefore) {
      // Removed while it was being read: a full rebuild asks the database whether it still exists.
      void schedule(environmentId);
      return rebuilt;
    }
    installation?.();
    return rebuilt;
  }

  /** Runs the environment's pending work, one piece at a time, until none is left. */
  function work(environmentId: string): Promise<void> {
    const run = Promise.resolve().then(async () => {
      try {
        for (let next = pending.get(environmentId); next; next = pending.get(environmentId)) {
          pending.delete(environmentId);
          try {
            if (await perform(environmentId, next)) stale.delete(environmentId);
          } catch (error) {
            // The previous payload keeps being served. What this work was to change is not known to
            // be in it any more: the work waiting (or else the next change) rebuilds it whole.
            const waiting = pending.get(environmentId);
            if (waiting) {
              waiting.full = true;
              waiting.featureIds.clear();
              delete waiting.keys;
            } else stale.add(environmentId);
            logger.error({ err: error, environmentId }, 'Could not rebuild an environment’s SDK payload');
          }
        }
      } finally {
        building.delete(environmentId);
      }
    });
    building.set(environmentId, run);
    return run;
  }

  /**
   * Asks for an environment's payload to follow a change: of some features (a patch), or of anything
   * (a full rebuild, without `featureIds`). Changes arriving while one is applied wait and are applied
   * together: a full rebuild absorbs any patch, patches add up their features.
   */
  function schedule(
    environmentId: string,
    featureIds?: readonly string[],
    keys?: EnvironmentKeys,
  ): Promise<void> {
    const full =
      featureIds === undefined ||
      stale.has(environmentId) ||
      featureIds.length > PATCH_LIMIT ||
      !featureIds.every((id) => UUID.test(id));
    const waiting = pending.get(environmentId);
    if (!full && featureIds.length === 0) return building.get(environmentId) ?? Promise.resolve();
    const next: Pending = waiting ?? { full: false, featureIds: new Set() };
    if (full) {
      // Keys read earlier (the start's list) serve only a rebuild nothing else asked for since.
      if (keys && !waiting) next.keys = keys;
      else delete next.keys;
      next.full = true;
      next.featureIds.clear();
    } else if (!next.full) {
      for (const id of featureIds) next.featureIds.add(id);
      if (next.featureIds.size > PATCH_LIMIT) {
        next.full = true;
        next.featureIds.clear();
      }
    }
    pending.set(environmentId, next);
    return building.get(environmentId) ?? work(environmentId);
  }

  return {
    /** Loads every live environment and follows change events. */
    async start(): Promise<void> {
      unsubscribe = events.subscribe((event) => {
        if (event.type === 'environment.removed') drop(event.environmentId);
        else if (event.type === 'environment.changed') void schedule(event.environmentId, event.featureIds);
      });
      const load = async () => {
        try {
          const live = await repo.liveEnvironments(db);
          for (const keys of live) {
            const id = keys.environmentId;
            // A change (or a key lookup) got there first and reads the environment afresh.
            if (snapshots.has(id) || building.has(id)) continue;
            await schedule(id, undefined, keys);
          }
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
      for (const keys of live) await schedule(keys.environmentId);
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

    /** The snapshot of a key already in memory, without a lookup (the SDK fast path, fast-path.ts). */
    peek(key: string): EnvironmentSnapshot | undefined {
      const environmentId = byKey.get(key);
      return environmentId === undefined ? undefined : snapshots.get(environmentId);
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
      await schedule(keys.environmentId);
      return snapshots.get(keys.environmentId) ?? null;
    },

    /** The snapshot of an environment by id, if loaded. */
    get(environmentId: string): EnvironmentSnapshot | undefined {
      return snapshots.get(environmentId);
    },

    /** Recent SDK answers by payload version (js.routes.ts, ofrep.routes.ts). */
    answers,

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

    /** How many patches and full rebuilds have run since the start. */
    runs(): { patches: number; rebuilds: number } {
      return { ...counts };
    },

    /** How many listeners follow environments, for metrics and tests. */
    listenerCount(): number {
      let total = 0;
      for (const set of listeners.values()) total += set.size;
      return total;
    },
  };
}
