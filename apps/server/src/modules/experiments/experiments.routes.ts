import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  errorBodySchema,
  experimentInput,
  experimentSchema,
  experimentStatisticsSchema,
  experimentsQuery,
  goalSchema,
  goalsQuery,
  idParam,
} from '@vexil/core';
import { principalOf } from '../../plugins/auth';
import type { ExperimentsService } from './experiments.service';

const errors = { 400: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };

export function experimentsRoutes(deps: { experiments: ExperimentsService }): FastifyPluginAsyncZod {
  const { experiments } = deps;
  return async (app) => {
    app.get(
      '/api/v1/experiments',
      {
        schema: {
          tags: ['experiments'],
          summary: "An environment's experiments that are not archived, newest first",
          querystring: experimentsQuery,
          response: { 200: z.array(experimentSchema), ...errors },
        },
      },
      async (request) =>
        experiments.list(principalOf(request), request.query.projectKey, request.query.environmentKey),
    );

    app.get(
      '/api/v1/experiments/:id',
      {
        schema: {
          tags: ['experiments'],
          summary: 'One experiment',
          params: idParam,
          response: { 200: experimentSchema, ...errors },
        },
      },
      async (request) => experiments.get(principalOf(request), request.params.id),
    );

    app.post(
      '/api/v1/experiments',
      {
        schema: {
          tags: ['experiments'],
          summary:
            'Create an experiment: a feature, its control and alternate variants and a goal; enabled starts it',
          body: experimentInput,
          response: { 201: experimentSchema, ...errors },
        },
      },
      async (request, reply) =>
        reply.code(201).send(await experiments.create(principalOf(request), request.body)),
    );

    app.put(
      '/api/v1/experiments',
      {
        schema: {
          tags: ['experiments'],
          summary:
            'Update an experiment; enabling starts it (or runs a finished one again), disabling finishes it. Its feature, variants, goal and mode are fixed once started',
          body: experimentInput,
          response: { 200: experimentSchema, ...errors },
        },
      },
      async (request) => experiments.update(principalOf(request), request.body),
    );

    app.delete(
      '/api/v1/experiments/:id',
      {
        schema: {
          tags: ['experiments'],
          summary: 'Archive an experiment: it stops counting and leaves the list',
          params: idParam,
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        await experiments.archive(principalOf(request), request.params.id);
        return reply.code(204).send(null);
      },
    );

    app.get(
      '/api/v1/goals',
      {
        schema: {
          tags: ['experiments'],
          summary: "A project's goal keys (reported by SDKs or named by experiments) containing the query",
          querystring: goalsQuery,
          response: { 200: z.array(goalSchema), ...errors },
        },
      },
      async (request) =>
        experiments.goals(principalOf(request), request.query.projectKey, request.query.query),
    );

    app.get(
      '/api/v1/experiment-statistics/:id',
      {
        schema: {
          tags: ['experiments'],
          summary:
            'Statistics of an experiment: exposed and converted users per variant, the z-test (or the always-valid p-value in sequential mode), intervals, the sample-ratio check and the cumulative daily figures',
          params: idParam,
          response: { 200: experimentStatisticsSchema, ...errors },
        },
      },
      async (request) => experiments.statistics(principalOf(request), request.params.id),
    );
  };
}
