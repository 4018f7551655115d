import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/client';
import type { TargetUserAttributes } from '../db/schema/index';
import { isDataError, isForeignKeyViolation } from '../db/errors';
import { evaluatedFeaturesOf, isEvaluate, timeOf, userOf, type IngestOutcome, type SdkEvent } from './events';
import { createDailyBound, createFairShare } from './ingestion-limits';
import * as rowsOf from './ingestion-rows';
import type { Rows } from './ingestion-rows';
import * as repo from './ingestion.repository';
import type { EnvironmentSnapshot } from './sdk-store';
import type { RunningExperiment } from './sdk.repository';

/** Attribute values longer than this are not kept as suggestions. */
const MAX_SUGGESTED_VALUE_LENGTH = 200;

export type IngestionOptions = {
  /** Longest a request waits for the flush that stores it to start (it starts at once when one ends). */
  flushIntervalMs?: number;
  /** Events waiting for storage across all environments, shared fairly between them. */
  maxPendingEvents?: number;
  /** New SDK users recorded per environment per UTC day; past it impressions still count. */
  maxUsersPerDay?: number;
  /** New attribute values (targeting suggestions) recorded per project per UTC day. */
  maxValuesPerDay?: number;
  /** New goal keys and variants unknown to their feature recorded per environment per UTC day. */
  maxNamesPerDay?: number;
  /** Tries of one flush that fails for no fault of its rows, with doubling delays between. */
  maxAttempts?: number;
  retryDelayMs?: number;
  /** No further try of a group once this long has passed since its first: its requests get 503. */
  maxRetryMs?: number;
  /**
   * A write unanswered for this long means the database is unreachable (a cut network answers
   * nothing until the driver's own timeout): requests not yet in that write are answered 503 at once,
   * and so are new ones until a write succeeds again.
   */
  stallMs?: number;
  /** Retry-After of a 429 (an environment past its share) and of a 503 (storage down). */
  busyRetryAfterSeconds?: number;
  unavailableRetryAfterSeconds?: number;
};

const DEFAULTS: Required<IngestionOptions> = {
  flushIntervalMs: 10,
  maxPendingEvents: 200_000,
  maxUsersPerDay: 100_000,
  maxValuesPerDay: 10_000,
  maxNamesPerDay: 1_000,
  maxAttempts: 4,
  retryDelayMs: 100,
  maxRetryMs: 3_000,
  stallMs: 2_000,
  busyRetryAfterSeconds: 60,
  unavailableRetryAfterSeconds: 5,
};

/** A request waiting for the transaction that stores its rows. */
type Waiter = { environmentId: string; rows: Rows; settle: (outcome: IngestOutcome) => void };
type Written = 'stored' | 'refused' | 'unavailable';

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
 * Event ingestion with group commit (docs/adr/0008-event-ingestion-group-commit.md): each request's events are aggregated into
 * rows (counters control × variant × day, availability and last impression, users and attribute
 * values seen, goals); requests waiting together are written in one transaction, and each request
 * is answered only once the transaction holding its rows has committed. So acknowledged means
 * stored, and a failed write refuses exactly the requests whose rows it held.
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

  let queue: Waiter[] = [];
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  let stopped = false;
  /** The failure streak under way: logged when it starts and when it ends, not on every attempt. */
  let failing: { since: number; attempts: number } | null = null;
  /** A write has gone unanswered for `stallMs`: storage counts as down until one succeeds. */
  let stalled = false;

  /** Whether `experiment` counts what happened at `at`: between its start and its end, if any. */
  const runsAt = (experiment: RunningExperiment, at: Date) =>
    at >= experiment.startDate && (experiment.endDate === null || at <= experiment.endDate);

  /** A user shown `variantKey` of `featureKey` at `at`: an exposure of each experiment on it that runs then. */
  function exposeUser(
    rows: Rows,
    snapshot: EnvironmentSnapshot,
    userKey: string,
    featureKey: string,
    variantKey: string,
    at: Date,
  ) {
    for (const experiment of snapshot.experiments.byFeature.get(featureKey) ?? []) {
      if (variantKey !== experiment.control && variantKey !== experiment.variation) continue;
      if (!runsAt(experiment, at)) continue;
      rowsOf.expose(rows, {
        organisationId: experiment.organisationId,
        experimentId: experiment.id,
        userKey,
        variantKey,
        exposedAt: at,
        crossed: false,
      });
    }
  }

  /** One request's rows, within the daily bounds of its environment and project. */
  function collect(snapshot: EnvironmentSnapshot, events: readonly SdkEvent[], receivedAt: Date): Rows {
    const rows = rowsOf.emptyRows();
    const { organisationId, environmentId, projectId, projectKey, environmentKey } = snapshot.keys;
    const experimenting = snapshot.experiments.byFeature.size > 0;
    for (const event of events) {
      const at = timeOf(event, receivedAt);
      const user = userOf(event);
      if (user && users.admit(environmentId, user.id, receivedAt)) {
        const attributes = user.attributes as TargetUserAttributes;
        rowsOf.seeUser(rows, { organisationId, environmentId, userKey: user.id, attributes, lastSeenAt: at });
        for (const [targetKey, raw] of Object.entries(user.attributes)) {
          if (targetKey.startsWith('featureflow.')) continue;
          for (const value of Array.isArray(raw) ? raw : [raw]) {
            if (value === null) continue;
            const text = String(value);
            if (text === '' || text.length > MAX_SUGGESTED_VALUE_LENGTH) continue;
            if (!values.admit(projectId, rowsOf.rowKey(targetKey, text), receivedAt)) continue;
            rowsOf.seeValue(rows, { organisationId, projectId, targetKey, value: text, lastSeenAt: at });
          }
        }
      }
      if (isEvaluate(event)) {
        const entry = event.featureKey ? snapshot.controls.get(event.featureKey) : undefined;
        if (!entry) continue;
        const controlId = entry.controlId;
        const count = event.impressions ?? 1;
        const variantKey = event.evaluatedVariant;
        const counted =
          !!variantKey &&
          count > 0 &&
          (entry.control.variants.some((variant) => variant.key === variantKey) ||
            names.admit(environmentId, rowsOf.rowKey('variant', controlId, variantKey), receivedAt));
        if (counted) {
          const day = at.toISOString().slice(0, 10);
          rowsOf.addImpressions(rows, {
            organisationId,
            featureControlId: controlId,
            variantKey,
            day,
            count,
          });
        }
        rowsOf.touchControl(rows, {
          controlId,
          lastImpressionAt: counted ? at : null,
          seenAt: receivedAt,
          where: { organisationId, projectKey, environmentKey, featureKey: entry.control.key },
        });
        if (experimenting && counted && user)
          exposeUser(rows, snapshot, user.id, entry.control.key, variantKey, at);
      } else if (event.type === 'goal' && event.goalKey) {
        if (experimenting && user) {
          // The browser SDK's goal rows say which variants the user was shown (docs/sdk-protocol.md §6.2).
          for (const [featureKey, variantKey] of evaluatedFeaturesOf(event))
            exposeUser(rows, snapshot, user.id, featureKey, variantKey, at);
          for (const experiment of snapshot.experiments.byGoal.get(event.goalKey) ?? []) {
            if (!runsAt(experiment, at)) continue;
            rowsOf.convert(rows, {
              organisationId: experiment.organisationId,
              experimentId: experiment.id,
              userKey: user.id,
              firstAt: at,
              lastAt: at,
              count: 1,
              valueSum: Number.isFinite(event.value) ? event.value! : 0,
            });
          }
        }
        if (!names.admit(environmentId, rowsOf.rowKey('goal', event.goalKey), receivedAt)) continue;
        rowsOf.seeGoal(rows, { organisationId, projectId, key: event.goalKey, lastSeenAt: at });
      }
    }
    return rows;
  }

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
    if (stalled || (failing && running)) return Promise.resolve(UNAVAILABLE);
    const environmentId = snapshot.keys.environmentId;
    const units = Math.max(1, events.length);
    if (!share.take(environmentId, units)) return Promise.resolve(BUSY);
    const rows = collect(snapshot, events, receivedAt);
    if (rowsOf.isEmpty(rows)) {
      share.release(environmentId, units);
      return Promise.resolve(STORED);
    }
    return new Promise((resolve) => {
      queue.push({
        environmentId,
        rows,
        settle: (outcome) => {
          share.release(environmentId, units);
          resolve(outcome);
        },
      });
      schedule();
    });
  }

  function schedule() {
    if (timer || running || queue.length === 0) return;
    timer = setTimeout(() => {
      timer = null;
      void drain();
    }, options.flushIntervalMs);
  }

  /** Writes group after group until nothing waits; requests that came during a write form the next. */
  function drain(): Promise<void> {
    running ??= (async () => {
      while (queue.length > 0) {
        const group = queue;
        queue = [];
        const watchdog = setTimeout(stall, options.stallMs);
        try {
          await commit(group, 'environments', { attempts: options.maxAttempts, since: Date.now() });
        } catch (error) {
          // Not a database answer (those are handled in write): nobody may wait for ever.
          logger.error(describe(error), 'SDK events could not be written');
          settle(group, UNAVAILABLE);
        } finally {
          clearTimeout(watchdog);
          stalled = false;
        }
      }
    })().finally(() => {
      running = null;
      schedule();
    });
    return running;
  }

  /** The write under way hangs: answer those waiting behind it now rather than after it. */
  function stall() {
    stalled = true;
    startFailing(new Error(`no answer from the database for ${options.stallMs} ms`));
    const waiting = queue;
    queue = [];
    settle(waiting, UNAVAILABLE);
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
          await db.transaction(async (tx) => {
            await repo.addImpressions(tx, [...rows.impressions.values()]);
            firstSeen = await repo.touchControls(tx, [...rows.controls.values()]);
            await repo.upsertUsers(tx, [...rows.users.values()]);
            await repo.upsertValues(tx, [...rows.values.values()]);
            await repo.upsertGoals(tx, [...rows.goals.values()]);
            // Exposures before conversions: a goal in the same batch as its exposure converts.
            await repo.addExposures(tx, [...rows.exposures.values()]);
            await repo.addConversions(tx, [...rows.conversions.values()]);
          });
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
      if (budget.attempts <= 0 || stalled || Date.now() - budget.since > options.maxRetryMs)
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

  return {
    record,
    /** Writes what waits now and resolves when it is answered. */
    async flush(): Promise<void> {
      if (timer) {
        clearTimeout(timer);
        timer = null;
      }
      await drain();
    },
    /** Events admitted and not yet answered in this environment. */
    pendingEvents: (environmentId: string) => share.held(environmentId),
    /** Answers what waits (stored, or refused if storage fails) and refuses new events with 503. */
    async stop(): Promise<void> {
      stopped = true;
      if (timer) {
        clearTimeout(timer);
        timer = null;
      }
      await drain();
    },
  };
}
