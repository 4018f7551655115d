import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  SCHEDULE_ACTIONS,
  errorBodySchema,
  idSchema,
  scheduleActionInput,
  scheduleInputSchema,
  scheduleListQuery,
  scheduleListSchema,
  scheduleSchema,
} from '@vexil/core';
import { z } from 'zod';
import { principalOf } from '../../plugins/auth';
import type { SchedulesService } from './schedules.service';

const errors = { 400: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema };
const tags = ['schedules'];
const base = '/api/v1/projects/:projectKey/schedules';
const projectParams = z.object({ projectKey: z.string() });
const scheduleParams = projectParams.extend({ id: idSchema });
const actionParams = scheduleParams.extend({
  action: z.enum(SCHEDULE_ACTIONS, {
    error: 'Action must be pause, resume, advance, approve, rollback or cancel.',
  }),
});

/** Scheduled changes, recurring schedules and ramps (docs/adr/0025-scheduler.md). */
export function schedulesRoutes(deps: { schedules: SchedulesService }): FastifyPluginAsyncZod {
  const { schedules } = deps;
  const one = { 200: scheduleSchema, ...errors };
  return async (app) => {
    app.get(
      base,
      {
        schema: {
          tags,
          summary: "A project's schedules and their occurrences in a window (default: the coming 14 days)",
          params: projectParams,
          querystring: scheduleListQuery,
          response: { 200: scheduleListSchema, ...errors },
        },
      },
      async (request) => schedules.list(principalOf(request), request.params.projectKey, request.query),
    );

    app.post(
      base,
      {
        schema: {
          tags,
          summary: 'Schedule a change, a recurring change or a ramp of a feature in an environment',
          params: projectParams,
          body: scheduleInputSchema,
          response: { 201: scheduleSchema, ...errors },
        },
      },
      async (request, reply) => {
        const created = await schedules.create(principalOf(request), request.params.projectKey, request.body);
        return reply.status(201).send(created);
      },
    );

    app.get(
      `${base}/:id`,
      {
        schema: {
          tags,
          summary: 'One schedule with its steps, state, history and next due time',
          params: scheduleParams,
          response: one,
        },
      },
      async (request) => schedules.get(principalOf(request), request.params.projectKey, request.params.id),
    );

    app.put(
      `${base}/:id`,
      {
        schema: {
          tags,
          summary: 'Change a schedule that is not running (same kind, feature and environment)',
          params: scheduleParams,
          body: scheduleInputSchema,
          response: one,
        },
      },
      async (request) =>
        schedules.update(principalOf(request), request.params.projectKey, request.params.id, request.body),
    );

    app.post(
      `${base}/:id/:action`,
      {
        schema: {
          tags,
          summary: 'Pause, resume, advance, approve, roll back or cancel a schedule',
          params: actionParams,
          body: scheduleActionInput.optional(),
          response: one,
        },
      },
      async (request) =>
        schedules.action(
          principalOf(request),
          request.params.projectKey,
          request.params.id,
          request.params.action,
          request.body?.comment ?? null,
        ),
    );
  };
}
