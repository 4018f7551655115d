import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { errorBodySchema, initialPayloadSchema, publicSsoSchema, uiFlagsSchema } from '@vexil/core';
import { UnauthorizedError } from '../../errors';
import { principalOf } from '../../plugins/auth';
import type { AccountService } from './account.service';

const publicContextSchema = z.object({
  organisation: z.object({ id: z.string(), name: z.string(), domain: z.string() }).nullable(),
  flags: uiFlagsSchema,
  sso: publicSsoSchema.nullable(),
  /** Organisations live on `{domain}.{baseDomain}` (the BASE_DOMAIN setting). */
  baseDomain: z.string(),
});

export function accountRoutes(deps: { account: AccountService }): FastifyPluginAsyncZod {
  const { account } = deps;
  return async (app) => {
    app.get(
      '/api/v1/public/context',
      {
        config: { public: true },
        schema: {
          tags: ['account'],
          summary:
            'The organisation this address belongs to, its single sign-on and the UI flags, before sign-in',
          querystring: z.object({
            domain: z
              .string()
              .max(63)
              .regex(/^[a-z0-9-]*$/i)
              .optional(),
          }),
          response: { 200: publicContextSchema },
        },
      },
      async (request) =>
        account.publicContext(request.query.domain?.toLowerCase() || request.hostOrganisation),
    );

    app.get(
      '/api/v1/initial',
      {
        schema: {
          tags: ['account'],
          summary: 'Initial dashboard payload',
          response: { 200: initialPayloadSchema },
        },
      },
      async (request) => account.initial(principalOf(request)),
    );

    app.put(
      '/api/v1/users/:id/settings/intro/read',
      {
        schema: {
          tags: ['account'],
          summary: 'Mark the welcome walkthrough as read',
          params: z.object({ id: z.uuid() }),
          response: { 200: z.object({ introReadDate: z.string().nullable() }) },
        },
        // Closing the walkthrough must not stand between an admin and the billing page.
        config: { whileInactive: true },
      },
      async (request) => account.markIntroRead(principalOf(request), request.params.id),
    );

    app.get(
      '/api/v1/401',
      {
        schema: {
          tags: ['account'],
          summary: 'Test call: answers 401 after 10 seconds (dashboard route /test/401)',
          response: { 401: errorBodySchema },
        },
      },
      async () => {
        await sleep(10_000);
        throw new UnauthorizedError('Test 401');
      },
    );
  };
}
