import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/client';
import { isDataError, isForeignKeyViolation } from '../db/errors';
import type { IngestOutcome, SdkEvent } from './events';
import { createCollector } from './ingestion-collect';
import { INGESTION_DEFAULTS as DEFAULTS, type IngestionOptions } from './ingestion-options';
import { createDailyBound, createFairShare } from './ingestion-limits';
import * as rowsOf from './ingestion-rows';
import type { Rows } from './ingestion-rows';
import * as repo from './ingestion.repository';
import type { EnvironmentSnapshot } from './sdk-store';

export type { IngestionOptions } from './ingestion-options';

/** A request waiting for the transaction that stores its rows. */
type Waiter = {
  environmentId: string;
  units: number;
  rows: Rows;
  settle: (outcome: IngestOutcome) => void;
};
type Written = 'stored' | 'refused' | 'unavailable';
/** One writer: the requests waiting for its next group, and the group it is writing. */
type Lane = {
  queue: Waiter[];
  /** The flush scheduled for it: on the next turn of the event loop, or after `flushIntervalMs`. */
  timer: { cancel: () => void } | null;
  running: Promise<void> | null;
  /** Events of the requests waiting in it or being written by it. */
  events: number;
  /** Whether its write under way went unanswered for `stallMs`. */
  stalled: boolean;
};

/**
 * What a failure is, for the log: its SQLSTATE or socket code, else the driver's own message (the
 * innermost cause). Never the whole error: Drizzle's message quotes the query's parameters, which
 * are SDK users' ids and attributes.
 */
function describe(error: unknown): { code?: string; reason?: string } {
  let current: unknown = error;
  let reason: string | undefined;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth++) {
    const { code, message, cause } = current as { code?: unknown; message?: unknown; cause?: unknown };
    if (typeof code === 'string') return { code };
    if (typeof message === 'string') reason = message.slice(0, 200);
    current = cause;
  }
  return { reason };
}

export type Ingestion = ReturnType<typeof createIngestion>;

/**
 * Event ingestion with group commit (docs/adr/0008-event-ingestion-group-commit.md): each request's
 * events become rows (ingestion-collect.ts); requests waiting together in a lane are written in one
 * transaction, and each is answered only once it has committed. So acknowledged means stored, and
 * a failed write refuses exactly the requests whose rows it held.
 */
export function createIngestion(
  deps: {
    db: Database;
    logger: FastifyBaseLogger;
    /** Told, once stored, of each feature an SDK evaluated in an environment for the first time. */
    onFirstSeen?: (where: rowsOf.FeatureWhere, at: Date) => void;
  } & IngestionOptions,
) {
  const { db, logger } = deps;
  const options = { ...DEFAULTS };
  for (const key of Object.keys(DEFAULTS) as (keyof IngestionOptions)[]) {
    if (deps[key] !== undefined) options[key] = deps[key];
  }
  const STORED: IngestOutcome = { status: 'stored' };
  const BUSY: IngestOutcome = { status: 'busy', retryAfterSeconds: options.busyRetryAfterSeconds };
  const UNAVAILABLE: IngestOutcome = {
    status: 'unavailable',
    retryAfterSeconds: options.unavailableRetryAfterSeconds,
  };
  const REFUSED: IngestOutcome = { status: 'refused' };

  const share = createFairShare(options.maxPendingEvents);
  const users = createDailyBound(options.maxUsersPerDay, (environmentId) =>
    logger.warn(
      { environmentId, limit: options.maxUsersPerDay },
      'This environment reached its daily limit of new SDK users: impressions still count, new users are not recorded until tomorrow (UTC)',
    ),
  );
  const values = createDailyBound(options.maxValuesPerDay, (projectId) =>
    logger.warn(
      { projectId, limit: options.maxValuesPerDay },
      'This project reached its daily limit of new attribute values from SDKs: they are not recorded until tomorrow (UTC)',
    ),
  );
  const names = createDailyBound(options.maxNamesPerDay, (environmentId) =>
    logger.warn(
      { environmentId, limit: options.maxNamesPerDay },
      'This environment reached its daily limit of new goal keys and unknown variants from SDKs: they are not recorded until tomorrow (UTC)',
    ),
  );

  const lanes: Lane[] = Array.from({ length: Math.max(1, options.lanes) }, () => ({
    queue: [],
    timer: null,
    running: null,
    events: 0,
    stalled: false,
  }));
  /** The lane of each environment with events in one, and how many of its requests are there. */
  const laneOf = new Map<string, { lane: Lane; requests: number }>();
  let stopped = false;
  /** The failure streak under way: logged when it starts and when it ends, not on every attempt. */
  let failing: { since: number; attempts: number } | null = null;
  /** A write has gone unanswered for `stallMs`: storage counts as down until one succeeds. */
  const stalled = () => lanes.some((lane) => lane.stalled);
  const writing = () => lanes.some((lane) => lane.running !== null);

  /** The environment's lane while it has events in one; else the lane holding the fewest events. */
  function enter(environmentId: string, units: number): Lane {
    let bound = laneOf.get(environmentId);
    if (!bound) {
      const lane = lanes.reduce((least, candidate) => (candidate.events < least.events ? candidate : least));
      bound = { lane, requests: 0 };
      laneOf.set(environmentId, bound);
    }
    bound.requests += 1;
    bound.lane.events += units;
    return bound.lane;
  }

  function leave(environmentId: string, units: number) {
    const bound = laneOf.get(environmentId);
    if (!bound) return;
    bound.lane.events -= units;
    bound.requests -= 1;
    if (bound.requests === 0) laneOf.delete(environmentId);
  }

  const collect = createCollector({ users, values, names });

  /**
   * Takes a request's events and resolves once they are stored, or with why not: `busy` when the
   * environment is past its share of waiting events (nothing was taken), `unavailable` when storage
   * failed, `refused` when the database rejected these rows themselves.
   */
  function record(
    snapshot: EnvironmentSnapshot,
    events: readonly SdkEvent[],
    receivedAt: Date,
  ): Promise<IngestOutcome> {
    if (stopped) return Promise.resolve(UNAVAILABLE);
    // Storage is known to be down and a write is already probing it: waiting would only hold the
    // SDK's request; it sends the events again after Retry-After.
    if (stalled() || (failing && writing())) return Promise.resolve(UNAVAILABLE);
    const environmentId = snapshot.keys.environmentId;
    const units = Math.max(1, events.length);
    if (!share.take(environmentId, units)) return Promise.resolve(BUSY);
    const rows = collect(snapshot, events, receivedAt);
    if (rowsOf.isEmpty(rows)) {
      share.release(environmentId, units);
      return Promise.resolve(STORED);
    }
    const lane = enter(environmentId, units);
    return new Promise((resolve) => {
      lane.queue.push({
        environmentId,
        units,
        rows,
        settle: (outcome) => {
          leave(environmentId, units);
          share.release(environmentId, units);
          resolve(outcome);
        },
      });
      schedule(lane);
    });
  }

  /**
   * Starts the lane's write soon: with no interval, on the next turn of the event loop, so the
   * requests read in the same turn share it and a request that finds its lane idle is written at once
   * rather than after a timer (a quiet tenant's post costs one commit, not a tick plus one); requests
   * that come while a write is under way form the next group whatever the interval.
   */
  function schedule(lane: Lane) {
    if (lane.timer || lane.running || lane.queue.length === 0) return;
    const start = () => {
      lane.timer = null;
      void drain(lane);
    };
    if (options.flushIntervalMs <= 0) {
      const immediate = setImmediate(start);
      lane.timer = { cancel: () => clearImmediate(immediate) };
    } else {
      const timeout = setTimeout(start, options.flushIntervalMs);
      lane.timer = { cancel: () => clearTimeout(timeout) };
    }
  }

  /**
   * Writes the lane's groups one after another until nothing waits in it; requests that came
   * during a write form the next.
   */
  function drain(lane: Lane): Promise<void> {
    lane.running ??= (async () => {
      while (lane.queue.length > 0) {
        // A part at a time: on the embedded database the lanes take turns, so another lane waits
        // for one part of a backlog, not all of it.
        let taken = 0;
        let size = 0;
        while (
          size < lane.queue.length &&
          (size === 0 || taken + lane.queue[size]!.units <= options.maxGroupEvents)
        )
          taken += lane.queue[size++]!.units;
        const group = lane.queue.splice(0, size);
        const watchdog = setTimeout(() => stall(lane), options.stallMs);
        try {
          await commit(group, 'environments', { attempts: options.maxAttempts, since: Date.now() });
        } catch (error) {
          // Not a database answer (those are handled in write): nobody may wait for ever.
          logger.error(describe(error), 'SDK events could not be written');
          settle(group, UNAVAILABLE);
        } finally {
          clearTimeout(watchdog);
          lane.stalled = false;
        }
      }
    })().finally(() => {
      lane.running = null;
      schedule(lane);
    });
    return lane.running;
  }

  /** A write under way hangs: answer those waiting in every lane now rather than after it. */
  function stall(lane: Lane) {
    lane.stalled = true;
    startFailing(new Error(`no answer from the database for ${options.stallMs} ms`));
    for (const each of lanes) {
      const waiting = each.queue;
      each.queue = [];
      settle(waiting, UNAVAILABLE);
    }
  }

  function settle(group: readonly Waiter[], outcome: IngestOutcome) {
    for (const waiter of group) waiter.settle(outcome);
  }

  /**
   * One transaction for the group (the usual case). When its rows are refused, the group is split
   * by environment, then by request, so only the requests whose rows fail are refused.
   */
  async function commit(
    group: Waiter[],
    split: 'environments' | 'requests',
    budget: { attempts: number; since: number },
  ) {
    const written = await write(group, budget);
    if (written === 'stored') return settle(group, STORED);
    if (written === 'unavailable') return settle(group, UNAVAILABLE);
    if (group.length === 1) {
      logger.warn(
        { environmentId: group[0]!.environmentId },
        'The database refused one request of SDK events; it was answered 400 and nothing of it was kept',
      );
      return settle(group, REFUSED);
    }
    const parts = new Map<string, Waiter[]>();
    if (split === 'environments') {
      for (const waiter of group) {
        const part = parts.get(waiter.environmentId);
        if (part) part.push(waiter);
        else parts.set(waiter.environmentId, [waiter]);
      }
    }
    if (parts.size > 1) for (const part of parts.values()) await commit(part, 'requests', budget);
    else for (const waiter of group) await commit([waiter], 'requests', budget);
  }

  async function write(
    group: readonly Waiter[],
    budget: { attempts: number; since: number },
  ): Promise<Written> {
    let pruned = false;
    for (;;) {
      const rows = rowsOf.mergeRows(group.map((waiter) => waiter.rows));
      let failure: unknown;
      try {
        let firstSeen: string[] = [];
        if (!rowsOf.isEmpty(rows)) {
          firstSeen = await repo.writeGroup(db, rows);
        }
        recovered();
        for (const controlId of firstSeen) {
          const row = rows.controls.get(controlId);
          if (row) deps.onFirstSeen?.(row.where, row.seenAt);
        }
        return 'stored';
      } catch (error) {
        failure = error;
      }
      if (isForeignKeyViolation(failure) && !pruned) {
        // A control, environment or project was deleted since the events came: drop only its rows.
        pruned = true;
        try {
          const live = await repo.existing(db, rowsOf.referencedIds(rows));
          for (const waiter of group) rowsOf.dropVanished(waiter.rows, live);
          logger.warn('Dropped SDK events of controls, environments or projects that no longer exist');
          continue;
        } catch (error) {
          failure = error;
        }
      }
      if (isDataError(failure)) return 'refused';
      startFailing(failure);
      budget.attempts -= 1;
      if (budget.attempts <= 0 || stalled() || Date.now() - budget.since > options.maxRetryMs)
        return 'unavailable';
      const tried = options.maxAttempts - budget.attempts;
      await sleep(Math.min(options.retryDelayMs * 2 ** (tried - 1), 5_000));
    }
  }

  function startFailing(error: unknown) {
    if (failing) {
      failing.attempts += 1;
      return;
    }
    failing = { since: Date.now(), attempts: 1 };
    logger.error(
      describe(error),
      'Could not store SDK events: retrying with backoff, and answering 503 to requests whose events could not be stored, until it works again',
    );
  }

  function recovered() {
    if (!failing) return;
    logger.info(
      { failedAttempts: failing.attempts, failingForMs: Date.now() - failing.since },
      'Storing SDK events again',
    );
    failing = null;
  }

  async function drainAll(): Promise<void> {
    await Promise.all(
      lanes.map((lane) => {
        if (lane.timer) {
          lane.timer.cancel();
          lane.timer = null;
        }
        return drain(lane);
      }),
    );
  }

  return {
    record,
    /** Writes what waits now and resolves when it is answered. */
    async flush(): Promise<void> {
      await drainAll();
    },
    /** Events admitted and not yet answered in this environment. */
    pendingEvents: (environmentId: string) => share.held(environmentId),
    /** Answers what waits (stored, or refused if storage fails) and refuses new events with 503. */
    async stop(): Promise<void> {
      stopped = true;
      await drainAll();
    },
  };
}
