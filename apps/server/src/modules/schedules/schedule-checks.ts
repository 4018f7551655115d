import { SCHEDULE_MESSAGES, isRequestChange, rampProblem, type ScheduleSpec } from '@vexil/core';
import type { Executor } from '../../db/client';
import { AppError, BadRequestError, NotFoundError, ValidationError, assertAllowed } from '../../errors';
import type { Principal } from '../auth/auth.service';
import type { EnvironmentProtection } from '../controls/controls.service';
import { checkCron, nextOccurrence } from './occurrences';
import type { SchedulePorts } from './schedule-ports';
import type { ScheduleInScope } from './schedules.repository';

/** Whether the member may change targeting where the schedule writes (production rights in production); 403 otherwise. */
export function rightsIn(principal: Principal, found: Pick<ScheduleInScope, 'environment' | 'project'>) {
  const { environment, project } = found;
  assertAllowed(principal, 'update', {
    type: 'featureControl',
    environment: { production: environment.production, tags: environment.tags, projectId: project.id },
  });
}

/** What a schedule is checked against when it is made or changed (docs/adr/0025-scheduler.md). */
export function createScheduleChecks(
  deps: Pick<SchedulePorts, 'controls' | 'requests'> & { protection: EnvironmentProtection },
) {
  const { controls } = deps;

  /**
   * Checks a schedule's spec against its control as it is now; the control, whether its author
   * bypasses the environment's change requests, and when it first falls due.
   */
  async function check(
    tx: Executor,
    principal: Principal,
    projectKey: string,
    spec: ScheduleSpec,
    at: Date,
    /** Drafted into a change request: its approval stands for the environment's protection. */
    options: { viaRequest?: boolean } = {},
  ) {
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
    if (options.viaRequest && spec.kind === 'once' && isRequestChange(spec.change))
      throw new ValidationError(
        'schedule.change',
        'A change request cannot schedule another change request.',
      );
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
    } else if (!options.viaRequest) {
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
        throw new ValidationError('at', SCHEDULE_MESSAGES.atBeforeNow);
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

  return { check };
}
