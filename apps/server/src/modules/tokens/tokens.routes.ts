import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema, idParam, tokenInput, tokenSchema } from '@vexil/core';
import { principalOf } from '../../plugins/auth';
import type { TokensService } from './tokens.service';

const errors = { 400: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };

export function tokensRoutes(deps: { tokens: TokensService }): FastifyPluginAsyncZod {
  const { tokens } = deps;
  return async (app) => {
    app.get(
      '/api/internal/v1/tokens',
      {
        schema: {
          tags: ['tokens'],
          summary: 'The caller’s personal access tokens, masked, newest first',
          response: { 200: z.array(tokenSchema), ...errors },
        },
      },
      async (request) => tokens.list(principalOf(request)),
    );

    app.post(
      '/api/internal/v1/tokens',
      {
        // A token cannot mint tokens: a leaked one must not be able to outlive its own deletion.
        config: { sessionOnly: true },
        schema: {
          tags: ['tokens'],
          summary:
            'Create a personal access token (organisation admins, signed in); the answer holds the whole token, shown this once',
          body: tokenInput,
          response: { 201: tokenSchema, ...errors },
        },
      },
      async (request, reply) => reply.code(201).send(await tokens.create(principalOf(request), request.body)),
    );

    app.delete(
      '/api/internal/v1/tokens/:id',
      {
        schema: {
          tags: ['tokens'],
          summary: 'Delete one of the caller’s personal access tokens; it stops working at once',
          params: idParam,
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        await tokens.remove(principalOf(request), request.params.id);
        return reply.code(204).send(null);
      },
    );
  };
}
