import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { auditPageSchema, auditQuery, errorBodySchema } from '@vexil/core';
import { principalOf } from '../../plugins/auth';
import type { AuditService } from './audit.service';

export function auditRoutes(deps: { audit: AuditService }): FastifyPluginAsyncZod {
  const { audit } = deps;
  return async (app) => {
    app.get(
      '/api/v1/audit-items',
      {
        schema: {
          tags: ['audit'],
          summary: 'The audit log, newest first, 50 a page; optionally of one resource, project or feature',
          querystring: auditQuery,
          response: { 200: auditPageSchema, 400: errorBodySchema, 403: errorBodySchema },
        },
      },
      async (request) => audit.list(principalOf(request), request.query),
    );
  };
}
