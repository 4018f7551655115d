import {
  FINAL_SCHEDULE_STATES,
  MAX_CALENDAR_DAYS,
  SCHEDULE_RETRY_DELAYS_MS,
  sameJson,
  scheduleInputSchema,
  type Schedule,
  type ScheduleAction,
  type ScheduleList,
  type ScheduleListQuery,
  type ScheduleSpec,
} from '@vexil/core';
import type { Database, Executor } from '../../db/client';
import { BadRequestError, ConflictError, NotFoundError, ValidationError } from '../../errors';
import { actorOf, type ChangeEvents } from '../../lib/change-events';
import type { Principal } from '../auth/auth.service';
import type { EnvironmentProtection } from '../controls/controls.service';
import type { JobQueue } from '../queue/queue.service';
import type { Scope } from '../scope/scope.service';
import { listOccurrences } from './schedule-calendar';
import type { ScheduleNotices } from './schedule-notices';
import type { SchedulePorts } from './schedule-ports';
import { createScheduleActions } from './schedule-actions';
import { createScheduleChecks, rightsIn } from './schedule-checks';
import { createScheduleGuardPort } from './schedule-guard-port';
import { createScheduleSteps } from './schedule-steps';
import type { Move } from './schedule-writes';
import { toScheduleView } from './schedule-view';
import * as repo from './schedules.repository';
import type { ScheduleInScope } from './schedules.repository';

/** The queue's job that wakes a schedule when it falls due. */
export const SCHEDULE_JOB = 'schedules.due';

type DuePayload = { scheduleId: string; generation: number };

export type SchedulesService = ReturnType<typeof createSchedulesService>;

/**
 * Release automation (docs/adr/0025-scheduler.md): one-off changes, recurring changes and ramps of a
 * control, made by the server when they fall due. Each schedule has at most one job due in the durable
 * queue at a time, for its current generation; the job's transactional handler locks the schedule's
 * row, makes the step (a version of the control with source `schedule`) and arms the next job in the
 * same transaction, so a step is applied exactly once across instances and after a crash.
 */
export function createSchedulesService(
  deps: SchedulePorts & {
    db: Database;
    scope: Scope;
    queue: JobQueue;
    events: ChangeEvents;
    notices: ScheduleNotices;
    protection: EnvironmentProtection;
    now?: () => Date;
  },
) {
  const { db, scope, queue, events, notices } = deps;
  const now = deps.now ?? (() => new Date());
  const steps = createScheduleSteps(deps);
  const { check } = createScheduleChecks(deps);
  const { actionMove } = createScheduleActions({ versions: deps.versions, steps });

  /** Writes a move: the schedule's fields and a new generation, its next job, its history, its notices. */
  async function commit(
    tx: Executor,
    found: ScheduleInScope,
    move: Move,
    at: Date,
    actor: Principal | null,
    afterCommit: (task: () => void) => void,
  ): Promise<ScheduleInScope> {
    const { schedule } = found;
    const generation = schedule.generation + 1;
    const row = await repo.updateSchedule(tx, schedule.id, { ...move.changes, generation }, at);
    if ((row.state === 'ready' || row.state === 'running') && row.nextDueAt) {
      const payload: DuePayload = { scheduleId: schedule.id, generation };
      await queue.enqueue(tx, {
        kind: SCHEDULE_JOB,
        organisationId: schedule.organisationId,
        payload,
        dedupeKey: `schedule:${schedule.id}:${generation}`,
        dueAt: row.nextDueAt,
      });
    }
    await repo.insertEvents(
      tx,
      move.events.map((event) => ({
        ...event,
        organisationId: schedule.organisationId,
        scheduleId: schedule.id,
        actorName: event.actorName ?? actor?.email ?? null,
      })),
      at,
    );
    const moved = { ...found, schedule: row };
    if (move.notify) await notices.tellAuthor(tx, moved, move.notify);
    for (const task of move.after) afterCommit(task);
    const change = notices.live(moved, row.state, actor ? actorOf(actor) : undefined, at);
    afterCommit(() => events.publish({ type: 'dashboard', organisationId: schedule.organisationId, change }));
    return moved;
  }

  /** The schedule's view with its gate (awaiting approval, exposures) and, when asked, its history. */
  async function viewOf(executor: Executor, found: ScheduleInScope, history: boolean): Promise<Schedule> {
    const running = found.schedule.kind === 'ramp' && found.schedule.state === 'running';
    const gate = running ? await steps.gateOf(executor, found, now()) : null;
    const exposures = running ? await steps.exposuresOf(executor, found) : null;
    const { schedule } = found;
    const arms =
      schedule.kind === 'ramp' && schedule.step >= 0
        ? await repo.armsOf(executor, schedule.organisationId, schedule.id, schedule.step)
        : null;
    return toScheduleView(found, {
      awaitingApproval: gate?.gate === 'approval',
      exposures,
      arms,
      ...(history
        ? { history: await repo.eventsOf(executor, found.schedule.organisationId, found.schedule.id) }
        : {}),
    });
  }

  /** A project's schedule by id, locked when asked; 404 when it is another project's. */
  async function locate(
    executor: Executor,
    principal: Principal,
    projectKey: string,
    id: string,
    lock: boolean,
  ) {
    const project = await scope.project(executor, principal.organisationId, projectKey);
    const found = await repo.findSchedule(executor, principal.organisationId, id, { forUpdate: lock });
    if (!found || found.project.id !== project.id) throw new NotFoundError('schedule', id);
    return found;
  }

  /** The spec as checked, or a 400 with its field errors. */
  function parse(input: unknown): ScheduleSpec {
    const parsed = scheduleInputSchema.safeParse(input);
    if (!parsed.success) throw parsed.error;
    return parsed.data;
  }

  async function act(
    principal: Principal,
    projectKey: string,
    id: string,
    body: (tx: Executor, found: ScheduleInScope, at: Date) => Promise<Move>,
  ): Promise<Schedule> {
    const after: (() => void)[] = [];
    const found = await db.transaction(async (tx) => {
      const locked = await locate(tx, principal, projectKey, id, true);
      rightsIn(principal, locked);
      const at = now();
      const move = await body(tx, locked, at);
      return commit(tx, locked, move, at, principal, (task) => after.push(task));
    });
    for (const task of after) task();
    return viewOf(db, found, true);
  }

  /**
   * Makes a schedule in `tx`: checked, one unfinished ramp per control, armed for its first due time.
   * `made` names it and its author when a change request's apply makes it (approved by the request).
   */
  async function insert(
    tx: Executor,
    principal: Principal,
    projectKey: string,
    spec: ScheduleSpec,
    made: { id?: string; changeRequestId?: string; author?: { id: string; name: string } },
    afterCommit: (task: () => void) => void,
  ): Promise<ScheduleInScope> {
    const at = now();
    const viaRequest = made.changeRequestId !== undefined;
    const {
      found: control,
      bypass,
      dueAt,
    } = await check(tx, principal, projectKey, spec, at, { viaRequest });
    if (spec.kind === 'ramp') {
      const open = await repo.openSchedulesOf(tx, principal.organisationId, control.control.id);
      if (open.some((other) => other.kind === 'ramp'))
        throw new ConflictError(
          `A ramp of ${control.feature.name} in ${control.environment.name} is already under way.`,
        );
    }
    const latest = await deps.versions.latest(tx, {
      organisationId: principal.organisationId,
      resourceType: 'feature_control',
      resourceId: control.control.id,
    });
    const live = {
      enabled: control.control.enabled,
      offVariantKey: control.control.offVariantKey,
      rules: control.control.rules,
    };
    const author = made.author ?? { id: principal.userId, name: principal.email };
    const row = await repo.insertSchedule(
      tx,
      {
        ...(made.id ? { id: made.id } : {}),
        organisationId: principal.organisationId,
        projectId: control.project.id,
        featureId: control.feature.id,
        environmentId: control.environment.id,
        controlId: control.control.id,
        kind: spec.kind,
        state: 'ready',
        spec,
        nextDueAt: dueAt,
        baseVersion: spec.kind === 'ramp' ? null : (latest?.number ?? null),
        baseState: spec.kind === 'ramp' ? null : live,
        bypass,
        changeRequestId: made.changeRequestId ?? null,
        authorId: author.id,
        authorName: author.name,
      },
      at,
    );
    const inScope: ScheduleInScope = {
      schedule: { ...row, generation: -1 },
      project: { id: control.project.id, key: control.project.key },
      feature: control.feature,
      environment: control.environment,
    };
    const created = {
      kind: 'created' as const,
      step: null,
      actorName: principal.email,
      message: viaRequest ? 'Created by applying its change request.' : 'Created.',
      version: null,
    };
    return commit(tx, inScope, { changes: {}, events: [created], after: [] }, at, principal, afterCommit);
  }

  // The scheduler's job: the schedule's step, in one transaction with the job's completion.
  queue.handle<DuePayload>(SCHEDULE_JOB, {
    transactional: true,
    retryDelaysMs: SCHEDULE_RETRY_DELAYS_MS,
    async run(tx, job, context) {
      const found = await repo.lockSchedule(tx, job.payload.scheduleId);
      if (!found) return;
      const { schedule } = found;
      // A job of an older generation: the schedule moved since it was armed (paused, advanced…).
      if (schedule.generation !== job.payload.generation) return;
      if (schedule.state !== 'ready' && schedule.state !== 'running') return;
      const at = now();
      if (!schedule.nextDueAt || schedule.nextDueAt > at) return;
      const move = await steps.due(tx, found, at);
      await commit(tx, found, move, at, null, context.afterCommit);
    },
  });

  return {
    /** POST …/schedules. */
    async create(principal: Principal, projectKey: string, input: unknown): Promise<Schedule> {
      const spec = parse(input);
      const after: (() => void)[] = [];
      const found = await db.transaction((tx) =>
        insert(tx, principal, projectKey, spec, {}, (task) => after.push(task)),
      );
      for (const task of after) task();
      return viewOf(db, found, true);
    },

    /** What guards ask of schedules (docs/adr/0026-guarded-rollouts.md). */
    forGuards: createScheduleGuardPort({ db, steps, actionMove, commit, locate, now }),

    /** What change requests ask of schedules (kind `schedule`, docs/adr/0025-scheduler.md). */
    forChangeRequests: {
      /** Checks a schedule drafted into a request as its own `POST` would, but for the environment's protection. */
      async check(tx: Executor, principal: Principal, projectKey: string, spec: ScheduleSpec) {
        const { found: control } = await check(tx, principal, projectKey, spec, now(), { viaRequest: true });
        return {
          controlId: control.control.id,
          featureId: control.feature.id,
          featureName: control.feature.name,
        };
      },
      /**
       * Makes the schedule of an applied request, in its transaction `tx`, approved by it, its author
       * the request's; answers what to announce once `tx` commits.
       */
      async create(
        tx: Executor,
        principal: Principal,
        projectKey: string,
        spec: ScheduleSpec,
        made: { id: string; changeRequestId: string; author: { id: string; name: string } },
      ): Promise<() => void> {
        const after: (() => void)[] = [];
        await insert(tx, principal, projectKey, spec, made, (task) => after.push(task));
        return () => {
          for (const task of after) task();
        };
      },
    },

    /** PUT …/schedules/{id}: the same kind, feature and environment, while it is not running. */
    update(principal: Principal, projectKey: string, id: string, input: unknown): Promise<Schedule> {
      const spec = parse(input);
      return act(principal, projectKey, id, async (tx, found, at) => {
        const { schedule } = found;
        const was = schedule.spec;
        if (FINAL_SCHEDULE_STATES.includes(schedule.state) || schedule.state === 'running')
          throw new ConflictError(
            `A ${schedule.state.replace('-', ' ')} schedule cannot be changed; pause it first.`,
          );
        if (
          spec.kind !== was.kind ||
          spec.featureKey !== was.featureKey ||
          spec.environmentKey !== was.environmentKey
        )
          throw new BadRequestError(
            'A schedule keeps its kind, feature and environment; make a new one instead.',
          );
        const { dueAt, bypass } = await check(tx, principal, projectKey, spec, at);
        if (spec.kind === 'ramp' && was.kind === 'ramp' && schedule.step >= 0) {
          const kept =
            spec.ruleIndex === was.ruleIndex &&
            spec.variantKey === was.variantKey &&
            sameJson(spec.steps.slice(0, schedule.step + 1), was.steps.slice(0, schedule.step + 1));
          if (!kept)
            throw new ConflictError('The steps the ramp has taken cannot change; change only those to come.');
        }
        const control = await steps.controlOf(tx, found);
        const live = {
          enabled: control.control.enabled,
          offVariantKey: control.control.offVariantKey,
          rules: control.control.rules,
        };
        return {
          changes: {
            spec,
            bypass,
            ...(schedule.state === 'ready' ? { nextDueAt: dueAt } : {}),
            ...(spec.kind === 'ramp' ? {} : { baseState: live }),
          },
          events: [
            { kind: 'updated', step: null, actorName: principal.email, message: 'Changed.', version: null },
          ],
          after: [],
        };
      });
    },

    /** POST …/schedules/{id}/{action}. */
    action(
      principal: Principal,
      projectKey: string,
      id: string,
      action: ScheduleAction,
      comment: string | null,
    ) {
      return act(principal, projectKey, id, (tx, found, at) =>
        actionMove(tx, principal, found, action, comment, at),
      );
    },

    /** GET …/schedules/{id}. */
    async get(principal: Principal, projectKey: string, id: string): Promise<Schedule> {
      const found = await locate(db, principal, projectKey, id, false);
      return viewOf(db, found, true);
    },

    /** GET …/schedules: every pending occurrence in the window, and the schedules. */
    async list(principal: Principal, projectKey: string, query: ScheduleListQuery): Promise<ScheduleList> {
      const project = await scope.project(db, principal.organisationId, projectKey);
      const at = now();
      const from = query.from ? new Date(query.from) : at;
      const to = query.to ? new Date(query.to) : new Date(from.getTime() + 14 * 86_400_000);
      if (to <= from) throw new ValidationError('to', 'The end of the window must come after its start.');
      if (to.getTime() - from.getTime() > MAX_CALENDAR_DAYS * 86_400_000)
        throw new ValidationError('to', `The window may span at most ${MAX_CALENDAR_DAYS} days.`);
      const found = await repo.listSchedules(db, principal.organisationId, project.id, {
        featureKey: query.featureKey,
        environmentKey: query.environmentKey,
        finished: query.finished === 'true',
      });
      const schedules = await Promise.all(found.map((one) => viewOf(db, one, false)));
      return {
        from: from.toISOString(),
        to: to.toISOString(),
        occurrences: listOccurrences(found, from, to, at),
        schedules,
      };
    },
  };
}
