import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/client';
import type { TargetUserAttributes } from '../db/schema/index';
import { isEvaluate, timeOf, userOf, type SdkEvent } from './events';
import { isForeignKeyViolation } from '../db/errors';
import * as repo from './ingestion.repository';

import type { EnvironmentSnapshot } from './sdk-store';

/** Attribute values longer than this are not kept as suggestions. */
const MAX_SUGGESTED_VALUE_LENGTH = 200;
/** Distinct values kept per flush; SDK traffic with unbounded values (ids, timestamps) stops here. */
const MAX_VALUES_PER_FLUSH = 5_000;

type Pending = {
  impressions: Map<
    string,
    { organisationId: string; featureControlId: string; variantKey: string; day: string; count: number }
  >;
  controls: Map<string, { controlId: string; lastImpressionAt: Date | null; seenAt: Date }>;
  users: Map<
    string,
    {
      organisationId: string;
      environmentId: string;
      userKey: string;
      attributes: TargetUserAttributes;
      lastSeenAt: Date;
    }
  >;
  values: Map<
    string,
    { organisationId: string; projectId: string; targetKey: string; value: string; lastSeenAt: Date }
  >;
  goals: Map<string, { organisationId: string; projectId: string; key: string; lastSeenAt: Date }>;
  size: number;
};

function emptyPending(): Pending {
  return {
    impressions: new Map(),
    controls: new Map(),
    users: new Map(),
    values: new Map(),
    goals: new Map(),
    size: 0,
  };
}

export type Ingestion = ReturnType<typeof createIngestion>;

/**
 * Event ingestion (architecture "Data"): rows are aggregated in memory into counters (control ×
 * variant × day), availability, last impressions, users and attribute values seen, and goals, and
 * flushed in batches. `stop()` flushes what was accepted. Past `maxPending` distinct entries new
 * batches are refused (the route answers 429) until a flush catches up.
 */
export function createIngestion(deps: {
  db: Database;
  logger: FastifyBaseLogger;
  flushIntervalMs?: number;
  maxPending?: number;
}) {
  const { db, logger } = deps;
  const maxPending = deps.maxPending ?? 200_000;
  let pending = emptyPending();
  let flushing: Promise<void> | null = null;
  const timer = setInterval(() => void flush(), deps.flushIntervalMs ?? 5_000);
  timer.unref();

  function add<K, V>(map: Map<K, V>, key: K, value: V, merge?: (existing: V) => void) {
    const existing = map.get(key);
    if (existing && merge) merge(existing);
    else if (!existing) {
      map.set(key, value);
      pending.size += 1;
    }
  }

  function recordUser(snapshot: EnvironmentSnapshot, id: string, attributes: TargetUserAttributes, at: Date) {
    const { organisationId, environmentId, projectId } = snapshot.keys;
    add(
      pending.users,
      `${environmentId}\u0000${id}`,
      { organisationId, environmentId, userKey: id, attributes, lastSeenAt: at },
      (existing) => {
        if (at >= existing.lastSeenAt) {
          existing.attributes = attributes;
          existing.lastSeenAt = at;
        }
      },
    );
    for (const [targetKey, raw] of Object.entries(attributes)) {
      if (targetKey.startsWith('featureflow.')) continue;
      for (const value of Array.isArray(raw) ? raw : [raw]) {
        if (value === null || value === undefined) continue;
        const text = String(value);
        if (
          text === '' ||
          text.length > MAX_SUGGESTED_VALUE_LENGTH ||
          pending.values.size >= MAX_VALUES_PER_FLUSH
        )
          continue;
        add(
          pending.values,
          `${projectId}\u0000${targetKey}\u0000${text}`,
          { organisationId, projectId, targetKey, value: text, lastSeenAt: at },
          (existing) => {
            if (at > existing.lastSeenAt) existing.lastSeenAt = at;
          },
        );
      }
    }
  }

  /** Accepts a batch of rows for an environment; false when overloaded (nothing was taken). */
  function record(snapshot: EnvironmentSnapshot, events: readonly SdkEvent[], receivedAt: Date): boolean {
    if (pending.size >= maxPending) return false;
    const { organisationId, projectId } = snapshot.keys;
    for (const event of events) {
      const at = timeOf(event, receivedAt);
      const user = userOf(event);
      if (user) recordUser(snapshot, user.id, user.attributes as TargetUserAttributes, at);
      if (isEvaluate(event)) {
        const entry = event.featureKey ? snapshot.controls.get(event.featureKey) : undefined;
        if (!entry) continue;
        const controlId = entry.controlId;
        const count = event.impressions ?? 1;
        const variantKey = event.evaluatedVariant;
        if (variantKey && count > 0) {
          const day = at.toISOString().slice(0, 10);
          add(
            pending.impressions,
            `${controlId}\u0000${variantKey}\u0000${day}`,
            { organisationId, featureControlId: controlId, variantKey, day, count },
            (existing) => {
              existing.count += count;
            },
          );
        }
        const impressionAt = variantKey && count > 0 ? at : null;
        add(
          pending.controls,
          controlId,
          { controlId, lastImpressionAt: impressionAt, seenAt: receivedAt },
          (existing) => {
            if (impressionAt && (!existing.lastImpressionAt || impressionAt > existing.lastImpressionAt)) {
              existing.lastImpressionAt = impressionAt;
            }
          },
        );
      } else if (event.type === 'goal' && event.goalKey) {
        add(
          pending.goals,
          `${projectId}\u0000${event.goalKey}`,
          { organisationId, projectId, key: event.goalKey, lastSeenAt: at },
          (existing) => {
            if (at > existing.lastSeenAt) existing.lastSeenAt = at;
          },
        );
      }
    }
    return true;
  }

  function mergeBack(batch: Pending) {
    // A failed flush keeps its rows: they are added again in front of what arrived since.
    const current = pending;
    pending = batch;
    for (const [key, value] of current.impressions)
      add(pending.impressions, key, value, (e) => (e.count += value.count));
    for (const [key, value] of current.controls)
      add(pending.controls, key, value, (e) => {
        if (value.lastImpressionAt && (!e.lastImpressionAt || value.lastImpressionAt > e.lastImpressionAt)) {
          e.lastImpressionAt = value.lastImpressionAt;
        }
      });
    for (const [key, value] of current.users) add(pending.users, key, value, (e) => Object.assign(e, value));
    for (const [key, value] of current.values) add(pending.values, key, value);
    for (const [key, value] of current.goals) add(pending.goals, key, value);
  }

  async function write(batch: Pending) {
    await db.transaction(async (tx) => {
      await repo.addImpressions(tx, [...batch.impressions.values()]);
      await repo.touchControls(tx, [...batch.controls.values()]);
      await repo.upsertUsers(tx, [...batch.users.values()]);
      await repo.upsertValues(tx, [...batch.values.values()]);
      await repo.upsertGoals(tx, [...batch.goals.values()]);
    });
  }

  async function flush(): Promise<void> {
    if (flushing) await flushing;
    if (pending.size === 0) return;
    const batch = pending;
    pending = emptyPending();
    flushing = write(batch)
      .catch(async (error: unknown) => {
        if (!isForeignKeyViolation(error)) throw error;
        // A control or environment vanished since the rows were taken: drop only its rows.
        const live = await repo.existing(
          db,
          [...batch.controls.keys()],
          [...new Set([...batch.users.values()].map((u) => u.environmentId))],
        );
        for (const [key, value] of batch.impressions) {
          if (!live.controls.has(value.featureControlId)) batch.impressions.delete(key);
        }
        for (const key of [...batch.controls.keys()]) if (!live.controls.has(key)) batch.controls.delete(key);
        for (const [key, value] of batch.users)
          if (!live.environments.has(value.environmentId)) batch.users.delete(key);
        logger.warn('Dropped SDK events of controls or environments that no longer exist');
        await write(batch);
      })
      .catch((error: unknown) => {
        logger.error(
          { err: error, entries: batch.size },
          'Could not flush SDK events; keeping them for the next flush',
        );
        mergeBack(batch);
      })
      .finally(() => {
        flushing = null;
      });
    await flushing;
  }

  return {
    record,
    flush,
    /** Entries waiting for the next flush. */
    pendingSize: () => pending.size,
    async stop(): Promise<void> {
      clearInterval(timer);
      await flush();
    },
  };
}
