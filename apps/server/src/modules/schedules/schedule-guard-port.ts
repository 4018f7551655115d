import { FINAL_SCHEDULE_STATES, type AlertAnswer } from '@vexil/core';
import type { Database, Executor } from '../../db/client';
import { AppError, BadRequestError } from '../../errors';
import type { Principal } from '../auth/auth.service';
import type { ScheduleActions } from './schedule-actions';
import { rightsIn } from './schedule-checks';
import type { ScheduleSteps } from './schedule-steps';
import { Suspension, type Move } from './schedule-writes';
import * as repo from './schedules.repository';
import type { ScheduleInScope } from './schedules.repository';

/*
 * What the guards module asks of schedules (docs/adr/0026-guarded-rollouts.md): which ramp a member
 * may guard, and stopping a ramp because something outside (an alert) or its guard says so.
 */

type Commit = (
  tx: Executor,
  found: ScheduleInScope,
  move: Move,
  at: Date,
  actor: Principal | null,
  afterCommit: (task: () => void) => void,
) => Promise<ScheduleInScope>;

export function createScheduleGuardPort(deps: {
  db: Database;
  steps: ScheduleSteps;
  actionMove: ScheduleActions['actionMove'];
  commit: Commit;
  locate: (
    executor: Executor,
    principal: Principal,
    projectKey: string,
    id: string,
    lock: boolean,
  ) => Promise<ScheduleInScope>;
  now: () => Date;
}) {
  const { db, steps, actionMove, commit, locate, now } = deps;
  return {
    /** A ramp of the project the member may change: 404 when it is not the project's, 403 without rights, 400 when not a ramp. */
    async ramp(executor: Executor, principal: Principal, projectKey: string, id: string) {
      const found = await locate(executor, principal, projectKey, id, false);
      rightsIn(principal, found);
      if (found.schedule.kind !== 'ramp')
        throw new BadRequestError('Only a ramp can be stopped by an alert.');
      return { id: found.schedule.id, organisationId: found.schedule.organisationId };
    },

    /** Adds a line to a ramp's history (its alert URL made, replaced or removed), by the member who did it. */
    async note(
      executor: Executor,
      ramp: { id: string; organisationId: string },
      actor: Principal,
      message: string,
    ) {
      await repo.insertEvents(
        executor,
        [
          {
            organisationId: ramp.organisationId,
            scheduleId: ramp.id,
            kind: 'updated',
            step: null,
            actorName: actor.email,
            message,
            version: null,
          },
        ],
        now(),
      );
    },

    /**
     * Rolls a ramp back or pauses it, as its author (with their rights now), saying why in its history.
     * Skipped, with the reason, when there is nothing to stop: the ramp has finished, is already
     * paused, or its author may no longer change it. Two alerts at once stop it once: the row is locked.
     */
    async stop(
      organisationId: string,
      id: string,
      action: 'pause' | 'rollback',
      why: string,
    ): Promise<AlertAnswer> {
      const after: (() => void)[] = [];
      const answer = await db.transaction(async (tx): Promise<AlertAnswer> => {
        const found = await repo.lockSchedule(tx, id);
        if (!found || found.schedule.organisationId !== organisationId)
          return { result: 'skipped', reason: 'The ramp no longer exists.' };
        const { state } = found.schedule;
        if (FINAL_SCHEDULE_STATES.includes(state))
          return { result: 'skipped', reason: `The ramp is already ${state.replace('-', ' ')}.` };
        if (action === 'pause' && state !== 'ready' && state !== 'running')
          return { result: 'skipped', reason: `The ramp is already ${state}.` };
        try {
          const author = await steps.authorOf(tx, found);
          const at = now();
          const move = await actionMove(tx, author, found, action, why, at);
          await commit(tx, found, move, at, author, (task) => after.push(task));
        } catch (error) {
          if (error instanceof Suspension || error instanceof AppError)
            return { result: 'skipped', reason: error.message };
          throw error;
        }
        return {
          result: 'applied',
          reason: action === 'rollback' ? 'The ramp was rolled back.' : 'The ramp was paused.',
        };
      });
      for (const task of after) task();
      return answer;
    },
  };
}

export type ScheduleGuardPort = ReturnType<typeof createScheduleGuardPort>;
