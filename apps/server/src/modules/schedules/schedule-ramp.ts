import {
  EXPOSURE_CHECK_MS,
  rampProblem,
  rampSplits,
  sameJson,
  withRule,
  type ControlSnapshot,
} from '@vexil/core';
import type { Executor } from '../../db/client';
import type { SchedulePorts } from './schedule-ports';
import {
  Suspension,
  snapshotOf,
  stepLabel,
  type Move,
  type Ramp,
  type ScheduleWrites,
} from './schedule-writes';
import type { ScheduleInScope } from './schedules.repository';

/*
 * A ramp's steps (docs/adr/0025-scheduler.md): started from its control as it is (what a rollback
 * brings back), each step the variant's share of the rule (core's `rampSplits`), held, then waiting
 * for its minimum exposures, then for its approval, before the next.
 */

export type ScheduleRamp = ReturnType<typeof createScheduleRamp>;

export function createScheduleRamp(ports: SchedulePorts, writes: ScheduleWrites) {
  const { versions, impressions } = ports;
  const { authorOf, controlOf, changedBy, write } = writes;

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

  return { applyStep, startRamp, exposuresOf, gateOf, goOn, rampDue };
}
