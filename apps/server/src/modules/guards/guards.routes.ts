import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  alertAnswerSchema,
  alertBodySchema,
  errorBodySchema,
  idSchema,
  rampAlertInput,
  rampAlertSchema,
} from '@vexil/core';
import { z } from 'zod';
import { principalOf } from '../../plugins/auth';
import type { GuardsService } from './guards.service';

const errors = { 400: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };
const tags = ['guards'];
const alertPath = '/api/v1/projects/:projectKey/schedules/:id/alert';
const params = z.object({ projectKey: z.string(), id: idSchema });
/** An alerting tool may repeat a firing alert; a minute's worth of them is plenty. */
const ALERT_RATE_LIMIT = { max: 60, timeWindow: '1 minute' };

/** A ramp's alert URL, and the URL itself (docs/adr/0026-guarded-rollouts.md). */
export function guardsRoutes(deps: { guards: GuardsService }): FastifyPluginAsyncZod {
  const { guards } = deps;
  return async (app) => {
    app.post(
      alertPath,
      {
        schema: {
          tags,
          summary: "Make or replace a ramp's alert URL (shown once); the old one stops working",
          params,
          body: rampAlertInput.optional(),
          response: { 201: rampAlertSchema, ...errors },
        },
      },
      async (request, reply) => {
        const { projectKey, id } = request.params;
        const made = await guards.make(principalOf(request), projectKey, id, request.body);
        return reply.status(201).send(made);
      },
    );

    app.get(
      alertPath,
      {
        schema: {
          tags,
          summary: 'Whether a ramp has an alert URL, what an alert does and when one last came (not the URL)',
          params,
          response: { 200: rampAlertSchema, ...errors },
        },
      },
      async (request) => guards.get(principalOf(request), request.params.projectKey, request.params.id),
    );

    app.delete(
      alertPath,
      {
        schema: {
          tags,
          summary: "Remove a ramp's alert URL",
          params,
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        await guards.remove(principalOf(request), request.params.projectKey, request.params.id);
        return reply.status(204).send(null);
      },
    );

    app.post(
      '/api/v1/alerts/:token',
      {
        config: { public: true, rateLimit: ALERT_RATE_LIMIT },
        schema: {
          tags,
          summary:
            'An alert (Alertmanager webhook v4, or any body) rolls back or pauses the ramp the token belongs to; idempotent',
          params: z.object({ token: z.string() }),
          body: alertBodySchema.nullish(),
          response: { 200: alertAnswerSchema, 400: errorBodySchema, 404: errorBodySchema },
        },
      },
      async (request, reply) => {
        const answer = await guards.receive(request.params.token, request.body);
        if (!answer) return reply.status(404).send({ title: 'Not found', code: 'not_found' });
        return answer;
      },
    );
  };
}
