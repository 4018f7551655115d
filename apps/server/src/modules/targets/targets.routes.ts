import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  errorBodySchema,
  projectKeyParam,
  searchQuery,
  targetInput,
  targetKeySchema,
  targetSchema,
} from '@vexil/core';
import { principalOf } from '../../plugins/auth';
import type { TargetsService } from './targets.service';

const errors = { 400: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };

export function targetsRoutes(deps: { targets: TargetsService }): FastifyPluginAsyncZod {
  const { targets } = deps;
  return async (app) => {
    app.get(
      '/api/v1/projects/:projectKey/targets',
      {
        schema: {
          tags: ['targets'],
          summary: 'The targets (user attributes) declared in a project',
          params: projectKeyParam,
          response: { 200: z.array(targetSchema), ...errors },
        },
      },
      async (request) => targets.list(principalOf(request), request.params.projectKey),
    );

    app.post(
      '/api/v1/projects/:projectKey/targets',
      {
        schema: {
          tags: ['targets'],
          summary: 'Declare a target: a user attribute with its type (string, number, date or segment)',
          params: projectKeyParam,
          body: targetInput,
          response: { 201: targetSchema, ...errors },
        },
      },
      async (request, reply) =>
        reply
          .code(201)
          .send(await targets.create(principalOf(request), request.params.projectKey, request.body)),
    );

    app.get(
      '/api/v1/projects/:projectKey/targets/:target/values',
      {
        schema: {
          tags: ['targets'],
          summary: 'Values used in rules and seen from SDK users for one attribute, containing the query',
          params: projectKeyParam.extend({ target: targetKeySchema }),
          querystring: searchQuery,
          response: { 200: z.array(z.string()), ...errors },
        },
      },
      async (request) =>
        targets.values(
          principalOf(request),
          request.params.projectKey,
          request.params.target,
          request.query.query,
        ),
    );
  };
}
