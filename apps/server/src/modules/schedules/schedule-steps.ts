import {
  MAX_SCHEDULE_ATTEMPTS,
  SCHEDULE_RETRY_DELAYS_MS,
  isRequestChange,
  sameJson,
  type ControlPatch,
  type ControlSnapshot,
  type ScheduleSpec,
} from '@vexil/core';
import type { Executor } from '../../db/client';
import { AppError } from '../../errors';
import { nextOccurrence } from './occurrences';
import type { SchedulePorts } from './schedule-ports';
import { createScheduleRamp } from './schedule-ramp';
import { Suspension, createScheduleWrites, patchLabel, snapshotOf, type Move } from './schedule-writes';
import type { ScheduleInScope } from './schedules.repository';

/*
 * What a schedule does when it falls due, or when someone moves it on (docs/adr/0025-scheduler.md):
 * each function reads the locked schedule and its control and answers a `Move`. A suspension (what it
 * writes was changed since, its author left) and a refusal of the write (a failure, retried with
 * backoff, then paused) are the schedule's to record; anything else is the queue's to retry.
 */

/** An occurrence of a recurring schedule more than this late was missed (no instance ran). */
export const MISSED_AFTER_MS = 60_000;

export type ScheduleSteps = ReturnType<typeof createScheduleSteps>;

export function createScheduleSteps(ports: SchedulePorts) {
  const writes = createScheduleWrites(ports);
  const { authorOf, controlOf, changedBy, write } = writes;
  const ramp = createScheduleRamp(ports, writes);
  const { startRamp, goOn, rampDue, gateOf, exposuresOf } = ramp;

  /** Suspends when the parts of the control a patch writes changed since the schedule's base. */
  async function checkPatchBase(
    tx: Executor,
    found: ScheduleInScope,
    live: ControlSnapshot,
    patch: ControlPatch,
  ) {
    const base = found.schedule.baseState;
    if (!base) return;
    const rulesMoved = patch.rules !== undefined && !sameJson(base.rules, live.rules);
    const offMoved = patch.offVariantKey !== undefined && base.offVariantKey !== live.offVariantKey;
    if (rulesMoved || offMoved)
      throw new Suspension(
        `The targeting was changed by ${await changedBy(tx, found)} since this change was scheduled.`,
      );
  }

  /** Applies a patch (or a change request) now. */
  async function applyChange(
    tx: Executor,
    found: ScheduleInScope,
    change: Extract<ScheduleSpec, { kind: 'once' | 'recurring' }>['change'],
    label: string,
    move: Move,
  ): Promise<void> {
    const principal = await authorOf(tx, found);
    if (isRequestChange(change)) {
      const applied = await ports.requests
        .applyWithin(tx, principal, found.project.key, change.changeRequestId)
        .catch((error: unknown) => {
          // Refused by the request's own rules (not approved, rejected, cancelled): it falls due once.
          if (error instanceof AppError && error.status < 500)
            throw new Suspension(`The change request was not applied: ${error.message}`);
          throw error;
        });
      move.after.push(...applied.after);
      if (applied.state !== 'applied')
        throw new Suspension(applied.reason ?? 'The change request was not applied.');
      move.events.push({
        kind: 'applied',
        step: null,
        actorName: null,
        message: `${label}: change request applied`,
        version: null,
      });
      return;
    }
    const control = await controlOf(tx, found);
    const live = snapshotOf(control.control);
    await checkPatchBase(tx, found, live, change);
    const version = await write(tx, found, principal, label, (before) => ({ ...before, ...change }), move);
    move.events.push({ kind: 'applied', step: null, actorName: null, message: label, version });
  }

  /** A recurring schedule's occurrence falls due: run it (or skip it when missed and so asked), then the next. */
  async function recurringDue(tx: Executor, found: ScheduleInScope, at: Date, move: Move) {
    const { schedule } = found;
    const spec = schedule.spec as Extract<ScheduleSpec, { kind: 'recurring' }>;
    const occurrence = schedule.nextDueAt ?? at;
    const until = spec.until ? new Date(spec.until) : null;
    if (until && occurrence > until) {
      Object.assign(move.changes, { state: 'completed', nextDueAt: null });
      move.events.push({
        kind: 'completed',
        step: null,
        actorName: null,
        message: 'Its end passed.',
        version: null,
      });
      return;
    }
    const missed = at.getTime() - occurrence.getTime() > MISSED_AFTER_MS;
    if (missed && spec.catchUp === 'skip')
      move.events.push({
        kind: 'skipped',
        step: null,
        actorName: null,
        message: `The occurrence of ${occurrence.toISOString()} was missed and skipped.`,
        version: null,
      });
    else {
      await applyChange(tx, found, spec.change, patchLabel(spec.change), move);
      move.changes.step = schedule.step + 1;
    }
    // Missed occurrences in between run at most once: the next is the first after now.
    const next = nextOccurrence(
      spec.cron,
      spec.timeZone,
      new Date(Math.max(at.getTime(), occurrence.getTime())),
    );
    const done = !next || (until !== null && next > until);
    Object.assign(move.changes, {
      state: done ? 'completed' : 'running',
      lastOccurrenceAt: occurrence,
      nextDueAt: done ? null : next,
      failures: 0,
      reason: null,
    });
    if (done)
      move.events.push({
        kind: 'completed',
        step: null,
        actorName: null,
        message: 'No occurrence is left.',
        version: null,
      });
  }

  /** A one-off change falls due. */
  async function onceDue(tx: Executor, found: ScheduleInScope, move: Move) {
    const spec = found.schedule.spec as Extract<ScheduleSpec, { kind: 'once' }>;
    const label = isRequestChange(spec.change) ? 'Scheduled change request' : patchLabel(spec.change);
    await applyChange(tx, found, spec.change, label, move);
    Object.assign(move.changes, { state: 'completed', nextDueAt: null, failures: 0, reason: null, step: 0 });
  }

  /**
   * Runs `body` in a savepoint: a suspension or a refusal (bad state for the control, a lapsed
   * subscription) is the schedule's to report rather than the transaction's; anything else (the
   * database) is thrown for the queue to retry the whole job.
   */
  async function guarded(
    tx: Executor,
    found: ScheduleInScope,
    at: Date,
    body: (sp: Executor, move: Move) => Promise<void>,
  ): Promise<Move> {
    const move: Move = { changes: {}, events: [], after: [] };
    try {
      await tx.transaction((sp) => body(sp, move));
      return move;
    } catch (error) {
      if (error instanceof Suspension) return suspended(found, error.message);
      if (error instanceof AppError && error.status < 500) return failed(found, error.message, at);
      throw error;
    }
  }

  function suspended(found: ScheduleInScope, reason: string): Move {
    return {
      changes: { state: 'suspended', nextDueAt: null, reason, failures: 0 },
      events: [
        {
          kind: 'suspended',
          step: found.schedule.step >= 0 ? found.schedule.step : null,
          actorName: null,
          message: reason,
          version: null,
        },
      ],
      after: [],
      notify: { subject: 'Schedule suspended', sentence: `was suspended: ${reason}` },
    };
  }

  /** A failed attempt: retried after the next wait, or the schedule paused after the last. */
  function failed(found: ScheduleInScope, reason: string, at: Date): Move {
    const failures = found.schedule.failures + 1;
    const step = found.schedule.step >= 0 ? found.schedule.step : null;
    if (failures >= MAX_SCHEDULE_ATTEMPTS) {
      const why = `Paused after ${failures} failed attempts: ${reason}`;
      return {
        changes: { state: 'paused', nextDueAt: null, reason: why, failures },
        events: [{ kind: 'paused', step, actorName: null, message: why, version: null }],
        after: [],
        notify: {
          subject: 'Schedule paused',
          sentence: `was paused after ${failures} failed attempts: ${reason}`,
        },
      };
    }
    const wait = SCHEDULE_RETRY_DELAYS_MS[failures - 1]!;
    return {
      changes: {
        failures,
        reason: `Attempt ${failures} failed: ${reason}`,
        nextDueAt: new Date(at.getTime() + wait),
      },
      events: [
        {
          kind: 'failed',
          step,
          actorName: null,
          message: `Attempt ${failures} failed: ${reason}`,
          version: null,
        },
      ],
      after: [],
    };
  }

  return {
    /** The schedule falls due now (the scheduler's job). */
    due(tx: Executor, found: ScheduleInScope, at: Date): Promise<Move> {
      return guarded(tx, found, at, async (sp, move) => {
        if (found.schedule.kind === 'once') return onceDue(sp, found, move);
        if (found.schedule.kind === 'recurring') return recurringDue(sp, found, at, move);
        return rampDue(sp, found, at, move);
      });
    },

    /** A person moves the ramp on now (advance, approve), or starts it early; `move` as the scheduler's. */
    goOnNow(tx: Executor, found: ScheduleInScope, at: Date): Promise<Move> {
      return guarded(tx, found, at, async (sp, move) => {
        if (found.schedule.kind === 'once') return onceDue(sp, found, move);
        if (found.schedule.state === 'ready') return startRamp(sp, found, at, move);
        return goOn(sp, found, at, move);
      });
    },

    gateOf,
    exposuresOf,
    authorOf,
    controlOf,
    write,
  };
}
