import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  errorBodySchema,
  idParam,
  restoreVersionInput,
  searchQuery,
  segmentInput,
  segmentSchema,
  segmentsParams,
  segmentVersionDiffParams,
  segmentVersionNumberParams,
  versionDiffSchema,
  versionedSegmentParams,
  versionListQuery,
  versionPageSchema,
  versionSchema,
} from '@vexil/core';
import { principalOf } from '../../plugins/auth';
import type { SegmentsService } from './segments.service';

const errors = { 400: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };
const withConflict = { ...errors, 409: errorBodySchema };

export function segmentsRoutes(deps: { segments: SegmentsService }): FastifyPluginAsyncZod {
  const { segments } = deps;
  const { history } = segments;
  const versions = '/api/v2/segments/:projectKey/:environmentKey/:segmentKey/versions';
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
          response: { 200: segmentSchema, ...withConflict },
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

    // The segment's history (docs/adr/0022-versions.md).
    app.get(
      versions,
      {
        schema: {
          tags: ['segments'],
          summary: 'Versions of a segment, newest first, without their snapshots',
          params: versionedSegmentParams,
          querystring: versionListQuery,
          response: { 200: versionPageSchema, ...errors },
        },
      },
      async (request) => history.page(principalOf(request), request.params, request.query),
    );

    app.get(
      `${versions}/:number`,
      {
        schema: {
          tags: ['segments'],
          summary: 'One version of a segment with its snapshot',
          params: segmentVersionNumberParams,
          response: { 200: versionSchema, ...errors },
        },
      },
      async (request) => {
        const { number, ...segment } = request.params;
        return history.get(principalOf(request), segment, number);
      },
    );

    app.get(
      `${versions}/:a/diff/:b`,
      {
        schema: {
          tags: ['segments'],
          summary: 'What turns version a of a segment into version b, as a JSON Patch and sentences',
          params: segmentVersionDiffParams,
          response: { 200: versionDiffSchema, ...errors },
        },
      },
      async (request) => {
        const { a, b, ...segment } = request.params;
        return history.diff(principalOf(request), segment, a, b);
      },
    );

    app.post(
      `${versions}/:number/restore`,
      {
        schema: {
          tags: ['segments'],
          summary:
            'Bring a version of a segment forward as a new version, with the rights a segment save needs (production rights in production); answers the segment',
          params: segmentVersionNumberParams,
          body: restoreVersionInput,
          response: { 200: segmentSchema, ...withConflict },
        },
      },
      async (request) => {
        const { number, ...segment } = request.params;
        return history.restore(principalOf(request), segment, number, request.body);
      },
    );
  };
}
