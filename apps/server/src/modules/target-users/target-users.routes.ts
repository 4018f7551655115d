import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  MAX_LENGTH,
  attributeValueSchema,
  environmentParams,
  errorBodySchema,
  pageOf,
  pageQuery,
  text,
} from '@vexil/core';
import { principalOf } from '../../plugins/auth';
import type { TargetUsersService } from './target-users.service';

const errors = { 400: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };
const targetUserView = z.object({
  id: z.string(),
  attributes: z.record(z.string(), attributeValueSchema.nullable()),
  lastSeenDate: z.string(),
});

export function targetUsersRoutes(deps: { targetUsers: TargetUsersService }): FastifyPluginAsyncZod {
  const { targetUsers } = deps;
  return async (app) => {
    app.get(
      '/api/v1/projects/:projectKey/environments/:environmentKey/users',
      {
        schema: {
          tags: ['users'],
          summary: 'Users SDKs reported in the environment, most recently seen first',
          params: environmentParams,
          querystring: pageQuery.extend({ query: text({ max: MAX_LENGTH.query }).optional() }),
          response: { 200: pageOf(targetUserView), ...errors },
        },
      },
      async (request) =>
        targetUsers.page(
          principalOf(request),
          request.params.projectKey,
          request.params.environmentKey,
          request.query,
        ),
    );

    app.delete(
      '/api/v1/projects/:projectKey/environments/:environmentKey/users/:userKey',
      {
        schema: {
          tags: ['users'],
          summary: 'Forget an SDK user and their attributes in the environment',
          params: environmentParams.extend({ userKey: z.string().min(1).max(500) }),
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        await targetUsers.remove(
          principalOf(request),
          request.params.projectKey,
          request.params.environmentKey,
          request.params.userKey,
        );
        return reply.code(204).send(null);
      },
    );
  };
}
