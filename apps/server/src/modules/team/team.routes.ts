import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema, idSchema, searchQuery } from '@vexil/core';
import { principalOf } from '../../plugins/auth';
import type { TeamService } from './team.service';

const errors = { 400: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };

export function teamRoutes(deps: { team: TeamService }): FastifyPluginAsyncZod {
  const { team } = deps;
  return async (app) => {
    app.get(
      '/api/v1/members',
      {
        schema: {
          tags: ['team'],
          summary: 'Activated members whose name or e-mail contains the query (maintainer picker)',
          querystring: searchQuery,
          response: {
            200: z.array(z.object({ id: idSchema, name: z.string(), email: z.string() })),
            ...errors,
          },
        },
      },
      async (request) => team.search(principalOf(request), request.query.query),
    );
  };
}
