import {
  FINAL_SCHEDULE_STATES,
  can,
  changeRequestsIn,
  sameJson,
  withRule,
  type ScheduleAction,
} from '@vexil/core';
import type { Executor } from '../../db/client';
import { AppError, BadRequestError, ConflictError } from '../../errors';
import type { Principal } from '../auth/auth.service';
import { nextOccurrence } from './occurrences';
import type { SchedulePorts } from './schedule-ports';
import type { ScheduleSteps } from './schedule-steps';
import type { Move } from './schedule-writes';
import type { ScheduleInScope } from './schedules.repository';

/*
 * What members do to a schedule (docs/adr/0025-scheduler.md): pause, resume (from what is live now),
 * cancel, advance, approve the step waiting for it, roll a ramp back. Each answers the `Move` the
 * service writes, or refuses.
 */

export function createScheduleActions(deps: { versions: SchedulePorts['versions']; steps: ScheduleSteps }) {
  const { steps } = deps;

  /** The move of an action, or the refusal. */
  async function actionMove(
    tx: Executor,
    principal: Principal,
    found: ScheduleInScope,
    action: ScheduleAction,
    comment: string | null,
    at: Date,
  ): Promise<Move> {
    const { schedule } = found;
    const spec = schedule.spec;
    const note = comment ? ` ${comment}` : '';
    const event = (kind: Move['events'][number]['kind'], message: string) => ({
      kind,
      step: schedule.step >= 0 ? schedule.step : null,
      actorName: principal.email,
      message: `${message}${note}`,
      version: null,
    });
    if (FINAL_SCHEDULE_STATES.includes(schedule.state))
      throw new ConflictError(
        `This schedule is ${schedule.state.replace('-', ' ')}; it can no longer change.`,
      );
    switch (action) {
      case 'pause':
        if (schedule.state !== 'ready' && schedule.state !== 'running')
          throw new ConflictError(
            `Only a ready or running schedule can be paused; this one is ${schedule.state}.`,
          );
        return {
          changes: { state: 'paused', nextDueAt: null },
          events: [event('paused', 'Paused.')],
          after: [],
        };
      case 'resume':
        return resumeMove(tx, found, at, event('resumed', 'Resumed.'));
      case 'cancel':
        return {
          changes: { state: 'cancelled', nextDueAt: null },
          events: [event('cancelled', 'Cancelled.')],
          after: [],
        };
      case 'rollback':
        return rollbackMove(tx, principal, found, at, event('rolled-back', 'Rolled back.'));
      case 'advance': {
        if (schedule.state !== 'ready' && schedule.state !== 'running')
          throw new ConflictError(`Resume the schedule before advancing it; it is ${schedule.state}.`);
        if (spec.kind === 'recurring')
          throw new BadRequestError(
            'A recurring schedule has no steps to advance; its next occurrence runs on time.',
          );
        if (spec.kind === 'ramp' && schedule.state === 'running') {
          const step = spec.steps[schedule.step]!;
          const mayBypass = can(principal, 'bypass', changeRequestsIn(found.environment, found.project.id));
          if (step.approval && schedule.approvedStep !== schedule.step && !mayBypass)
            throw new AppError(
              409,
              `Step ${schedule.step + 1} needs an approval before the ramp goes on; approve it instead.`,
              undefined,
              undefined,
              'conflict',
            );
        }
        const move = await steps.goOnNow(tx, found, at);
        move.events.unshift(event('advanced', 'Advanced by hand.'));
        return move;
      }
      case 'approve': {
        if (spec.kind !== 'ramp' || schedule.state !== 'running')
          throw new BadRequestError('Nothing of this schedule waits for an approval.');
        const gate = await steps.gateOf(tx, found, at);
        if (gate.gate === 'hold')
          throw new BadRequestError(
            `Step ${schedule.step + 1} is held until ${gate.until.toISOString()}; approve it after its hold.`,
          );
        if (gate.gate === 'exposures')
          throw new BadRequestError(
            `Step ${schedule.step + 1} has seen ${gate.exposures.seen} of the ${gate.exposures.needed} exposures it waits for.`,
          );
        if (gate.gate !== 'approval')
          throw new BadRequestError('Nothing of this schedule waits for an approval.');
        const approved = { ...found, schedule: { ...schedule, approvedStep: schedule.step } };
        const move = await steps.goOnNow(tx, approved, at);
        move.changes = { approvedStep: schedule.step, ...move.changes };
        move.events.unshift(event('approved', `Step ${schedule.step + 1} approved.`));
        return move;
      }
    }
  }

  /** Resumes a paused or suspended schedule from what is live now; its next due time recomputed. */
  async function resumeMove(
    tx: Executor,
    found: ScheduleInScope,
    at: Date,
    entry: Move['events'][number],
  ): Promise<Move> {
    const { schedule } = found;
    if (schedule.state !== 'paused' && schedule.state !== 'suspended')
      throw new ConflictError(
        `Only a paused or suspended schedule can be resumed; this one is ${schedule.state}.`,
      );
    const spec = schedule.spec;
    const control = await steps.controlOf(tx, found).catch(() => {
      throw new ConflictError('The feature or the environment was archived or deleted.');
    });
    const live = {
      enabled: control.control.enabled,
      offVariantKey: control.control.offVariantKey,
      rules: control.control.rules,
    };
    const started =
      spec.kind === 'ramp' ? schedule.step >= 0 : spec.kind === 'recurring' ? schedule.step > 0 : false;
    let nextDueAt: Date;
    if (spec.kind === 'once') nextDueAt = new Date(Math.max(at.getTime(), new Date(spec.at).getTime()));
    else if (spec.kind === 'recurring') {
      const next = nextOccurrence(spec.cron, spec.timeZone, at);
      if (!next || (spec.until && next > new Date(spec.until)))
        throw new ConflictError('The schedule has no occurrence left; cancel it or change it.');
      nextDueAt = next;
    } else {
      if (spec.cutoffAt && new Date(spec.cutoffAt) <= at)
        throw new ConflictError('Its cut-off has passed; change the cut-off first.');
      nextDueAt = started
        ? at
        : new Date(Math.max(at.getTime(), spec.startAt ? Date.parse(spec.startAt) : 0));
    }
    const latest = await deps.versions.latest(tx, {
      organisationId: schedule.organisationId,
      resourceType: 'feature_control',
      resourceId: schedule.controlId,
    });
    return {
      changes: {
        state: started ? 'running' : 'ready',
        nextDueAt,
        failures: 0,
        reason: null,
        // What is live now is accepted: the next step starts from it.
        ...(spec.kind === 'ramp' && !started ? {} : { baseState: live, baseVersion: latest?.number ?? null }),
      },
      events: [entry],
      after: [],
    };
  }

  /** Puts the ramped rule back as it was before the ramp: the whole control when nothing else changed since. */
  async function rollbackMove(
    tx: Executor,
    principal: Principal,
    found: ScheduleInScope,
    at: Date,
    entry: Move['events'][number],
  ): Promise<Move> {
    const { schedule } = found;
    const spec = schedule.spec;
    if (spec.kind !== 'ramp') throw new BadRequestError('Only a ramp rolls back.');
    const prior = schedule.priorState;
    const base = schedule.baseState;
    if (!prior || !base || schedule.step < 0)
      return { changes: { state: 'rolled-back', nextDueAt: null }, events: [entry], after: [] };
    const control = await steps.controlOf(tx, found).catch(() => {
      throw new ConflictError('The feature or the environment was archived or deleted.');
    });
    const live = {
      enabled: control.control.enabled,
      offVariantKey: control.control.offVariantKey,
      rules: control.control.rules,
    };
    let next: typeof prior;
    if (sameJson(live, base)) next = prior;
    else if (
      live.rules.length === base.rules.length &&
      sameJson(live.rules[spec.ruleIndex], base.rules[spec.ruleIndex])
    )
      next = { ...live, rules: withRule(live.rules, spec.ruleIndex, prior.rules[spec.ruleIndex]!) };
    else
      throw new ConflictError(
        `Rule ${spec.ruleIndex + 1} was changed since the ramp's last step: restore an earlier version from History instead.`,
      );
    const move: Move = {
      changes: { state: 'rolled-back', nextDueAt: null, reason: null },
      events: [],
      after: [],
    };
    const version = await steps.write(tx, found, principal, 'Ramp rolled back', () => next, move);
    move.events.push({ ...entry, version });
    return move;
  }

  return { actionMove };
}

export type ScheduleActions = ReturnType<typeof createScheduleActions>;
