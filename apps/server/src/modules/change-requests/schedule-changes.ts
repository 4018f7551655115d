import { randomUUID } from 'node:crypto';
import { scheduleInputSchema, type ChangeInput, type ScheduleSpec } from '@vexil/core';
import type { Executor } from '../../db/client';
import { ValidationError } from '../../errors';
import type { Principal } from '../auth/auth.service';
import type { SchedulesService } from '../schedules/schedules.service';
import { scheduleSummary } from '../schedules/schedule-writes';
import type { ChangeKind } from './change-plan';

/*
 * Schedules a request makes (kind `schedule`, docs/adr/0025-scheduler.md): in an environment that asks
 * for change requests, a one-off change, a recurring change or a ramp goes through one. Adding it checks
 * it as its own `POST …/schedules` would; applying the request makes it, approved by the request, with
 * the request's author as its author. Each is a resource of its own (the schedule it will be, by id),
 * so a request may hold several, beside a change of the same control.
 */
export function createScheduleChanges(deps: {
  schedules: () => SchedulesService['forChangeRequests'];
}): ChangeKind<Extract<ChangeInput, { kind: 'schedule' }>> {
  return {
    async resolve(tx: Executor, principal: Principal, found, input) {
      const spec = input.schedule as ScheduleSpec;
      if (spec.environmentKey !== found.environment.key)
        throw new ValidationError(
          'schedule.environmentKey',
          'This schedule is not in the environment of this change request.',
        );
      const checked = await deps.schedules().check(tx, principal, found.project.key, spec);
      return {
        kind: 'schedule',
        resourceType: 'feature_control',
        // The id of the schedule applying the request will make.
        resourceId: randomUUID(),
        featureId: checked.featureId,
        baseVersion: null,
        restoredFrom: null,
        comment: spec.comment || null,
        proposed: { schedule: spec, featureName: checked.featureName, projectKey: found.project.key },
        label: `Schedule: ${scheduleSummary(spec)}`,
      };
    },

    async plan(_executor, _organisationId, change) {
      const spec = scheduleInputSchema.parse((change.proposed as { schedule: unknown }).schedule);
      const stored = change.proposed as { featureName?: string; projectKey?: string };
      const featureName = stored.featureName ?? spec.featureKey;
      const summary = scheduleSummary(spec);
      return {
        change,
        resourceName: featureName,
        featureKey: spec.featureKey,
        base: {},
        live: {},
        proposed: change.proposed,
        merged: change.proposed,
        conflicts: [],
        liveVersion: null,
        liveAuthor: null,
        describe: (from, to) => (Object.keys(to).length === 0 ? [] : [`Schedules: ${summary}`]),
        // Applying always makes the schedule: it is never already live.
        same: (a, b) => Object.keys(a).length > 0 && a === b,
        async write(tx, principal, request) {
          if (!request.authorId) throw new ValidationError('author', 'The author of this request has left.');
          return deps.schedules().create(tx, principal, stored.projectKey ?? '', spec, {
            id: change.resourceId,
            changeRequestId: request.id,
            author: { id: request.authorId, name: request.authorName },
          });
        },
      };
    },
  };
}
