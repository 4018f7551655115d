import {
  EXPOSURE_CHECK_MS,
  SCHEDULE_RETRY_DELAYS_MS,
  MAX_SCHEDULE_ATTEMPTS,
  can,
  isRequestChange,
  rampProblem,
  rampSplits,
  sameJson,
  withRule,
  type ControlPatch,
  type ControlSnapshot,
  type ScheduleSpec,
} from '@vexil/core';
import type { Executor } from '../../db/client';
import { AppError } from '../../errors';
import type { Principal } from '../auth/auth.service';
import type { ScheduleChanges, ScheduleInScope, NewScheduleEvent } from './schedules.repository';
import { nextOccurrence } from './occurrences';
import type { SchedulePorts } from './schedule-ports';

/*
 * What a schedule does when it falls due, or when someone acts on it (docs/adr/0025-scheduler.md):
 * each function reads the locked schedule and its control and answers a `Move` — the schedule's new
 * fields, the history entries, and what to announce once the transaction commits. Writes of the
 * control go through the controls module's one write path (a version with source `schedule`).
 */

/** An occurrence of a recurring schedule more than this late was missed (no instance ran). */
export const MISSED_AFTER_MS = 60_000;

/** What one move of a schedule changes. */
export type Move = {
  changes: ScheduleChanges;
  events: Omit<NewScheduleEvent, 'organisationId' | 'scheduleId'>[];
  after: (() => void)[];
  /** Tell the author (suspended, paused by failures or its cut-off, waiting for approval). */
  notify?: { subject: string; sentence: string } | undefined;
};

/** A refusal that is the schedule's to report (suspended), not a failure to retry. */
class Suspension extends Error {}

const snapshotOf = (view: { enabled: boolean; offVariantKey: string; rules: ControlSnapshot['rules'] }) => ({
  enabled: view.enabled,
  offVariantKey: view.offVariantKey,
  rules: view.rules,
});

type Ramp = Extract<ScheduleSpec, { kind: 'ramp' }>;

/** "Step 2 of 3: blue to 50 %". */
export function stepLabel(spec: Ramp, index: number): string {
  return `Ramp step ${index + 1} of ${spec.steps.length}: ${spec.variantKey} to ${spec.steps[index]!.coverage} %`;
}

/** What a patch does, in words ("Turn on", "Turn off and change the rules"). */
export function patchLabel(patch: ControlPatch): string {
  const parts = [
    patch.enabled === undefined ? null : patch.enabled ? 'Turn on' : 'Turn off',
    patch.rules === undefined ? null : 'change the rules',
    patch.offVariantKey === undefined ? null : `serve ${patch.offVariantKey} when off`,
  ].filter((part): part is string => part !== null);
  const text = parts.join(' and ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export function createScheduleSteps(ports: SchedulePorts) {
  const { controls, versions, impressions } = ports;

  /** The schedule's author as a principal with their rights now; suspends when they left or lost them. */
  async function authorOf(tx: Executor, found: ScheduleInScope): Promise<Principal> {
    const { schedule, environment, project } = found;
    const author = schedule.authorId
      ? await ports.member(tx, schedule.organisationId, schedule.authorId)
      : null;
    if (!author)
      throw new Suspension(`${schedule.authorName}, who made this schedule, is no longer a member.`);
    const principal: Principal = {
      kind: 'session',
      sessionId: `schedule:${schedule.id}`,
      userId: author.id,
      organisationId: schedule.organisationId,
      organisationDomain: author.organisationDomain,
      email: author.email,
      authorities: author.authorities,
      grants: author.grants,
    };
    const where = { production: environment.production, tags: environment.tags, projectId: project.id };
    if (!can(principal, 'update', { type: 'featureControl', environment: where }))
      throw new Suspension(`${author.email} may no longer change targeting in ${environment.name}.`);
    if (!schedule.bypass && (await ports.isProtected(tx, schedule.organisationId, environment.id)))
      throw new Suspension(
        `${environment.name} now asks for change requests: schedule an approved change request instead.`,
      );
    return principal;
  }

  /** The control locked, or a suspension when its feature or environment is gone. */
  async function controlOf(tx: Executor, found: ScheduleInScope) {
    const control = await controls.find(tx, found.schedule.organisationId, found.schedule.controlId, {
      forUpdate: true,
    });
    if (!control) throw new Suspension('The feature or the environment was archived or deleted.');
    return control;
  }

  /** Who changed the control since the schedule's base, for a suspension's reason. */
  async function changedBy(tx: Executor, found: ScheduleInScope): Promise<string> {
    const latest = await versions.latest(tx, {
      organisationId: found.schedule.organisationId,
      resourceType: 'feature_control',
      resourceId: found.schedule.controlId,
    });
    const who = latest?.authorName ?? 'Someone';
    return latest ? `${who} (version ${latest.number})` : who;
  }

  /** A write of the control by the schedule: the new base, and the version it made. */
  async function write(
    tx: Executor,
    found: ScheduleInScope,
    principal: Principal,
    label: string,
    next: (before: ControlSnapshot) => ControlSnapshot,
    move: Move,
  ): Promise<number | null> {
    const { schedule } = found;
    const written = await controls.write(
      tx,
      principal,
      schedule.controlId,
      { id: schedule.id, label, bypass: schedule.bypass, comment: schedule.spec.comment ?? null },
      (before) => next(snapshotOf(before)),
    );
    move.after.push(written.afterCommit);
    const version =
      written.version ??
      (
        await versions.latest(tx, {
          organisationId: schedule.organisationId,
          resourceType: 'feature_control',
          resourceId: schedule.controlId,
        })
      )?.number ??
      null;
    Object.assign(move.changes, { baseVersion: version, baseState: snapshotOf(written.view) });
    return version;
  }

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
      const applied = await ports.requests.applyWithin(
        tx,
        principal,
        found.project.key,
        change.changeRequestId,
      );
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

  /** Applies step `index` of a ramp; the ramp's base rule must still be what it wrote last. */
  async function applyStep(tx: Executor, found: ScheduleInScope, index: number, at: Date, move: Move) {
    const { schedule } = found;
    const spec = schedule.spec as Ramp;
    const principal = await authorOf(tx, found);
    const control = await controlOf(tx, found);
    const live = snapshotOf(control.control);
    const prior = (schedule.priorState ?? live) as ControlSnapshot;
    const base = schedule.baseState;
    if (
      base &&
      (base.rules.length !== live.rules.length ||
        !sameJson(base.rules[spec.ruleIndex], live.rules[spec.ruleIndex]))
    )
      throw new Suspension(
        `Rule ${spec.ruleIndex + 1} was changed by ${await changedBy(tx, found)} since the ramp's last step.`,
      );
    const rule = live.rules[spec.ruleIndex];
    const problem = rampProblem(prior.rules[spec.ruleIndex], spec.variantKey);
    if (!rule || problem) throw new Suspension(problem ?? 'There is no such rule.');
    const label = stepLabel(spec, index);
    const splits = rampSplits(
      prior.rules[spec.ruleIndex]!.variantSplits,
      spec.variantKey,
      spec.steps[index]!.coverage,
    );
    const version = await write(
      tx,
      found,
      principal,
      label,
      (before) => ({
        ...before,
        rules: withRule(before.rules, spec.ruleIndex, { ...rule, variantSplits: splits }),
      }),
      move,
    );
    const keys = [
      spec.variantKey,
      ...prior.rules[spec.ruleIndex]!.variantSplits.map((split) => split.variantKey),
    ];
    Object.assign(move.changes, {
      state: 'running',
      step: index,
      stepStartedAt: at,
      approvedStep: null,
      exposureBaseline: await impressions.total(tx, schedule.organisationId, schedule.controlId, keys),
      nextDueAt: new Date(at.getTime() + spec.steps[index]!.holdSeconds * 1000),
      failures: 0,
      reason: null,
    });
    move.events.push({ kind: 'step', step: index, actorName: null, message: label, version });
  }

  /** Starts a ramp: its control as it is now is what a rollback brings back. */
  async function startRamp(tx: Executor, found: ScheduleInScope, at: Date, move: Move) {
    const control = await controlOf(tx, found);
    const live = snapshotOf(control.control);
    const version = await versions.latest(tx, {
      organisationId: found.schedule.organisationId,
      resourceType: 'feature_control',
      resourceId: found.schedule.controlId,
    });
    const started = { ...found, schedule: { ...found.schedule, priorState: live, baseState: live } };
    Object.assign(move.changes, { priorState: live, baseState: live, baseVersion: version?.number ?? null });
    move.events.push({
      kind: 'started',
      step: null,
      actorName: null,
      message: 'The ramp started.',
      version: null,
    });
    await applyStep(tx, started, 0, at, move);
  }

  /** Impressions of the ramped rule's variants since the current step began, and how many it needs. */
  async function exposuresOf(tx: Executor, found: ScheduleInScope) {
    const { schedule } = found;
    const spec = schedule.spec as Ramp;
    const step = spec.steps[schedule.step];
    if (!step?.minExposures || !schedule.priorState) return null;
    const keys = [
      spec.variantKey,
      ...schedule.priorState.rules[spec.ruleIndex]!.variantSplits.map((s) => s.variantKey),
    ];
    const total = await impressions.total(tx, schedule.organisationId, schedule.controlId, keys);
    return { seen: Math.max(0, total - (schedule.exposureBaseline ?? 0)), needed: step.minExposures };
  }

  /** Where a running ramp's current step stands: held, waiting for exposures or approval, or free to go on. */
  async function gateOf(tx: Executor, found: ScheduleInScope, at: Date) {
    const { schedule } = found;
    const spec = schedule.spec as Ramp;
    const step = spec.steps[schedule.step]!;
    const holdEnds = new Date((schedule.stepStartedAt ?? at).getTime() + step.holdSeconds * 1000);
    if (at < holdEnds) return { gate: 'hold' as const, until: holdEnds };
    const exposures = await exposuresOf(tx, found);
    if (exposures && exposures.seen < exposures.needed) return { gate: 'exposures' as const, exposures };
    if (step.approval && schedule.approvedStep !== schedule.step) return { gate: 'approval' as const };
    return { gate: 'open' as const };
  }

  /** Goes on from the ramp's current step: the next step, or completion after the last. */
  async function goOn(tx: Executor, found: ScheduleInScope, at: Date, move: Move) {
    const spec = found.schedule.spec as Ramp;
    const next = found.schedule.step + 1;
    if (next >= spec.steps.length) {
      Object.assign(move.changes, { state: 'completed', nextDueAt: null, reason: null, failures: 0 });
      move.events.push({
        kind: 'completed',
        step: found.schedule.step,
        actorName: null,
        message: 'The ramp completed.',
        version: null,
      });
      return;
    }
    await applyStep(tx, found, next, at, move);
  }

  /** A running ramp falls due: after its hold, its exposures, then its approval, it goes on. */
  async function rampDue(tx: Executor, found: ScheduleInScope, at: Date, move: Move) {
    const { schedule } = found;
    const spec = schedule.spec as Ramp;
    if (spec.cutoffAt && at >= new Date(spec.cutoffAt)) {
      Object.assign(move.changes, {
        state: 'paused',
        nextDueAt: null,
        reason: 'Its cut-off passed before it completed.',
      });
      move.events.push({
        kind: 'paused',
        step: schedule.step,
        actorName: null,
        message: 'Paused: its cut-off passed.',
        version: null,
      });
      move.notify = {
        subject: 'Ramp paused',
        sentence: 'was paused: its cut-off passed before it completed.',
      };
      return;
    }
    if (schedule.state === 'ready') return startRamp(tx, found, at, move);
    const gate = await gateOf(tx, found, at);
    if (gate.gate === 'hold') move.changes.nextDueAt = gate.until;
    else if (gate.gate === 'exposures') move.changes.nextDueAt = new Date(at.getTime() + EXPOSURE_CHECK_MS);
    else if (gate.gate === 'approval') {
      move.changes.nextDueAt = null;
      move.events.push({
        kind: 'waiting',
        step: schedule.step,
        actorName: null,
        message: `Step ${schedule.step + 1} waits for approval.`,
        version: null,
      });
      move.notify = {
        subject: 'Ramp awaiting approval',
        sentence: `waits for approval to go on from step ${schedule.step + 1}.`,
      };
    } else await goOn(tx, found, at, move);
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
    Suspension,
  };
}

export type ScheduleSteps = ReturnType<typeof createScheduleSteps>;
