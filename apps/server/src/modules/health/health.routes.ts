import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { HealthService } from './health.service';

export function healthRoutes(deps: { health: HealthService }): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/healthz',
      {
        config: { public: true },
        schema: {
          tags: ['health'],
          summary: 'The process is up',
          response: { 200: z.object({ status: z.literal('ok') }) },
        },
      },
      async () => ({ status: 'ok' as const }),
    );
    app.get(
      '/readyz',
      {
        config: { public: true },
        schema: {
          tags: ['health'],
          summary: 'The database answers and can write',
          response: {
            200: z.object({ status: z.literal('ready') }),
            503: z.object({ status: z.literal('unavailable') }),
          },
        },
      },
      async (request, reply) => {
        try {
          await deps.health.ready();
          return { status: 'ready' as const };
        } catch (err) {
          request.log.warn({ err }, 'readiness check failed');
          return reply.code(503).send({ status: 'unavailable' as const });
        }
      },
    );
  };
}
