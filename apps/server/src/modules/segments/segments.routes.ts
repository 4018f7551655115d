import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  errorBodySchema,
  idParam,
  searchQuery,
  segmentInput,
  segmentSchema,
  segmentsParams,
} from '@vexil/core';
import { principalOf } from '../../plugins/auth';
import type { SegmentsService } from './segments.service';

const errors = { 400: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };

export function segmentsRoutes(deps: { segments: SegmentsService }): FastifyPluginAsyncZod {
  const { segments } = deps;
  return async (app) => {
    app.get(
      '/api/v2/segments/:projectKey/:environmentKey',
      {
        schema: {
          tags: ['segments'],
          summary: 'Segments of an environment whose name, key or description contains the query',
          params: segmentsParams,
          querystring: searchQuery,
          response: { 200: z.array(segmentSchema), ...errors },
        },
      },
      async (request) =>
        segments.list(
          principalOf(request),
          request.params.projectKey,
          request.params.environmentKey,
          request.query.query,
        ),
    );

    app.post(
      '/api/v2/segments',
      {
        schema: {
          tags: ['segments'],
          summary: 'Create a segment in an environment',
          body: segmentInput,
          response: { 201: segmentSchema, ...errors },
        },
      },
      async (request, reply) =>
        reply.code(201).send(await segments.create(principalOf(request), request.body)),
    );

    app.put(
      '/api/v2/segments',
      {
        schema: {
          tags: ['segments'],
          summary: 'Rename or describe a segment; its key stays',
          body: segmentInput,
          response: { 200: segmentSchema, ...errors },
        },
      },
      async (request) => segments.update(principalOf(request), request.body),
    );

    app.delete(
      '/api/v2/segments/:id',
      {
        schema: {
          tags: ['segments'],
          summary: 'Delete a segment no rule uses',
          params: idParam,
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        await segments.remove(principalOf(request), request.params.id);
        return reply.code(204).send(null);
      },
    );
  };
}
