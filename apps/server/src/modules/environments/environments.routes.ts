import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  environmentVersionDiffParams,
  environmentVersionNumberParams,
  restoreVersionInput,
  versionDiffSchema,
  versionedEnvironmentParams,
  versionListQuery,
  versionPageSchema,
  versionSchema,
  environmentInput,
  environmentUpdateInput,
  environmentParams,
  environmentSchema,
  errorBodySchema,
  idParam,
} from '@vexil/core';
import { principalOf } from '../../plugins/auth';
import type { EnvironmentsService } from './environments.service';

const errors = { 400: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };
const withConflict = { ...errors, 409: errorBodySchema };

export function environmentsRoutes(deps: { environments: EnvironmentsService }): FastifyPluginAsyncZod {
  const { environments } = deps;
  const { history } = environments;
  const versions = '/api/v1/environments/:projectKey/:environmentKey/versions';
  return async (app) => {
    app.get(
      '/api/v1/environments/:projectKey/:environmentKey',
      {
        schema: {
          tags: ['environments'],
          summary:
            'One environment with its SDK keys, by key or id; the server key is masked unless the caller may change the environment',
          params: environmentParams,
          response: { 200: environmentSchema, ...errors },
        },
      },
      async (request) =>
        environments.get(principalOf(request), request.params.projectKey, request.params.environmentKey),
    );

    app.post(
      '/api/v1/environments',
      {
        schema: {
          tags: ['environments'],
          summary: 'Create an environment (organisation admins), with new SDK keys and a control per feature',
          body: environmentInput,
          response: { 201: environmentSchema, ...errors },
        },
      },
      async (request, reply) =>
        reply.code(201).send(await environments.create(principalOf(request), request.body)),
    );

    app.put(
      '/api/v1/environments',
      {
        schema: {
          tags: ['environments'],
          summary:
            'Update an environment (organisation admins); the key and project cannot change, and a field left out keeps its value',
          body: environmentUpdateInput,
          response: { 200: environmentSchema, ...withConflict },
        },
      },
      async (request) => environments.update(principalOf(request), request.body),
    );

    app.delete(
      '/api/v1/environments/:id',
      {
        schema: {
          tags: ['environments'],
          summary: 'Delete an environment (organisation admins); its SDK keys stop working at once',
          params: idParam,
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        await environments.remove(principalOf(request), request.params.id);
        return reply.code(204).send(null);
      },
    );

    app.post(
      '/api/v1/environments/:id/keys/:kind/rotate',
      {
        schema: {
          tags: ['environments'],
          summary: 'Replace the server or JS client SDK key (organisation admins); the old key stops working',
          params: idParam.extend({ kind: z.enum(['server', 'js']) }),
          response: { 200: environmentSchema, ...errors },
        },
      },
      async (request) => environments.rotateKey(principalOf(request), request.params.id, request.params.kind),
    );

    // The history of the environment's settings (docs/adr/0022-versions.md).
    app.get(
      versions,
      {
        schema: {
          tags: ['environments'],
          summary: 'Versions of an environment’s settings, newest first, without their snapshots',
          params: versionedEnvironmentParams,
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
          tags: ['environments'],
          summary: 'One version of an environment’s settings with its snapshot (never its SDK keys)',
          params: environmentVersionNumberParams,
          response: { 200: versionSchema, ...errors },
        },
      },
      async (request) => {
        const { number, ...environment } = request.params;
        return history.get(principalOf(request), environment, number);
      },
    );

    app.get(
      `${versions}/:a/diff/:b`,
      {
        schema: {
          tags: ['environments'],
          summary:
            'What turns version a of an environment’s settings into version b, as a JSON Patch and sentences',
          params: environmentVersionDiffParams,
          response: { 200: versionDiffSchema, ...errors },
        },
      },
      async (request) => {
        const { a, b, ...environment } = request.params;
        return history.diff(principalOf(request), environment, a, b);
      },
    );

    app.post(
      `${versions}/:number/restore`,
      {
        schema: {
          tags: ['environments'],
          summary:
            'Bring a version of an environment’s settings forward as a new version (organisation admins); answers the environment',
          params: environmentVersionNumberParams,
          body: restoreVersionInput,
          response: { 200: environmentSchema, ...withConflict },
        },
      },
      async (request) => {
        const { number, ...environment } = request.params;
        return history.restore(principalOf(request), environment, number, request.body);
      },
    );
  };
}
