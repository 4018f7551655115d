import {
  FINAL_SCHEDULE_STATES,
  MAX_CALENDAR_DAYS,
  SCHEDULE_MESSAGES,
  SCHEDULE_RETRY_DELAYS_MS,
  can,
  changeRequestsIn,
  isRequestChange,
  rampProblem,
  sameJson,
  scheduleInputSchema,
  withRule,
  type Schedule,
  type ScheduleAction,
  type ScheduleList,
  type ScheduleListQuery,
  type ScheduleSpec,
} from '@vexil/core';
import type { Database, Executor } from '../../db/client';
import {
  AppError,
  BadRequestError,
  ConflictError,
  NotFoundError,
  ValidationError,
  assertAllowed,
} from '../../errors';
import { actorOf, type ChangeEvents } from '../../lib/change-events';
import type { Principal } from '../auth/auth.service';
import type { EnvironmentProtection } from '../controls/controls.service';
import type { JobQueue } from '../queue/queue.service';
import type { Scope } from '../scope/scope.service';
import { checkCron, nextOccurrence } from './occurrences';
import { listOccurrences } from './schedule-calendar';
import type { ScheduleNotices } from './schedule-notices';
import type { SchedulePorts } from './schedule-ports';
import { createScheduleSteps, type Move } from './schedule-steps';
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
  const { db, scope, queue, events, notices, controls } = deps;
  const now = deps.now ?? (() => new Date());
  const steps = createScheduleSteps(deps);

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
    return toScheduleView(found, {
      awaitingApproval: gate?.gate === 'approval',
      exposures,
      ...(history
        ? { history: await repo.eventsOf(executor, found.schedule.organisationId, found.schedule.id) }
        : {}),
    });
  }

  function rightsIn(principal: Principal, found: Pick<ScheduleInScope, 'environment' | 'project'>) {
    const { environment, project } = found;
    assertAllowed(principal, 'update', {
      type: 'featureControl',
      environment: { production: environment.production, tags: environment.tags, projectId: project.id },
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

  /**
   * Checks a schedule's spec against its control as it is now; the control, whether its author
   * bypasses the environment's change requests, and when it first falls due.
   */
  async function check(tx: Executor, principal: Principal, projectKey: string, spec: ScheduleSpec, at: Date) {
    const organisationId = principal.organisationId;
    const found = await controls.findByKeys(tx, organisationId, {
      projectKey,
      featureKey: spec.featureKey,
      environmentKey: spec.environmentKey,
    });
    if (!found) throw new NotFoundError('feature', `${spec.featureKey} in ${spec.environmentKey}`);
    const { environment, project, control } = found;
    rightsIn(principal, { environment, project });
    const variants = await controls.variantKeys(tx, organisationId, found.feature.id);
    const where = { ...environment, projectId: project.id };
    let bypass = false;
    let dueAt: Date;
    if (spec.kind === 'once' && isRequestChange(spec.change)) {
      const request = await deps.requests.find(tx, principal, projectKey, spec.change.changeRequestId);
      if (request.environmentId !== environment.id)
        throw new ValidationError('change.changeRequestId', 'The change request is of another environment.');
      if (request.state !== 'approved' && request.state !== 'in-review')
        throw new ValidationError(
          'change.changeRequestId',
          'Only a submitted or approved change request can be scheduled.',
        );
      if (request.authorId !== principal.userId && !request.mayApprove)
        throw new AppError(
          403,
          'Only its author or a reviewer of the environment may schedule this change request.',
          undefined,
          undefined,
          'forbidden',
        );
    } else {
      ({ bypass } = await deps.protection(tx, principal, where, { type: 'feature_control', id: control.id }));
    }
    if (spec.kind !== 'ramp' && !isRequestChange(spec.change)) {
      const patch = spec.change;
      const state = {
        enabled: control.enabled,
        offVariantKey: control.offVariantKey,
        rules: control.rules,
        ...patch,
      };
      const problems = await controls.problems(
        tx,
        organisationId,
        { projectId: project.id, environmentId: environment.id, featureId: found.feature.id },
        state,
      );
      if (problems.length > 0) throw new BadRequestError(problems[0]!.message, problems);
    }
    if (spec.kind === 'once') {
      dueAt = new Date(spec.at);
      if (dueAt.getTime() < at.getTime() - 60_000)
        throw new ValidationError('at', 'The time must be in the future.');
    } else if (spec.kind === 'recurring') {
      checkCron(spec.cron);
      if (spec.until && new Date(spec.until) <= at)
        throw new ValidationError('until', SCHEDULE_MESSAGES.untilBeforeNow);
      const first = nextOccurrence(spec.cron, spec.timeZone, at);
      if (!first || (spec.until && first > new Date(spec.until)))
        throw new ValidationError('cron', 'The expression has no occurrence before the end.');
      dueAt = first;
    } else {
      const rule = control.rules[spec.ruleIndex];
      if (!rule) throw new ValidationError('ruleIndex', `There is no rule ${spec.ruleIndex + 1}.`);
      if (!variants.includes(spec.variantKey))
        throw new ValidationError('variantKey', `The feature has no variant ${spec.variantKey}.`);
      const problem = rampProblem(rule, spec.variantKey);
      if (problem) throw new ValidationError('variantKey', problem);
      const start = spec.startAt ? new Date(spec.startAt) : at;
      if (spec.cutoffAt && new Date(spec.cutoffAt) <= start)
        throw new ValidationError('cutoffAt', SCHEDULE_MESSAGES.cutoffBeforeStart);
      dueAt = start < at ? at : start;
    }
    return { found, bypass, dueAt: dueAt < at ? at : dueAt };
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
      const found = await db.transaction(async (tx) => {
        const at = now();
        const checked = await check(tx, principal, projectKey, spec, at);
        const { found: control, bypass, dueAt } = checked;
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
        const row = await repo.insertSchedule(
          tx,
          {
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
            authorId: principal.userId,
            authorName: principal.email,
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
          message: 'Created.',
          version: null,
        };
        return commit(tx, inScope, { changes: {}, events: [created], after: [] }, at, principal, (task) =>
          after.push(task),
        );
      });
      for (const task of after) task();
      return viewOf(db, found, true);
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
