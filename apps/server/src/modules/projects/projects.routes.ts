import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema, projectInput, projectKeyParam, projectSchema, searchQuery } from '@vexil/core';
import { principalOf } from '../../plugins/auth';
import type { ProjectsService } from './projects.service';

const errors = { 400: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };

export function projectsRoutes(deps: { projects: ProjectsService }): FastifyPluginAsyncZod {
  const { projects } = deps;
  return async (app) => {
    app.get(
      '/api/v1/projects',
      {
        schema: {
          tags: ['projects'],
          summary:
            'Projects with their environments and targets, by name; a server SDK key is masked unless the caller may change that environment',
          querystring: searchQuery,
          response: { 200: z.array(projectSchema) },
        },
      },
      async (request) => projects.list(principalOf(request), request.query.query),
    );

    app.get(
      '/api/v1/projects/:projectKey',
      {
        schema: {
          tags: ['projects'],
          summary: 'One project with its environments and targets',
          params: projectKeyParam,
          response: { 200: projectSchema, ...errors },
        },
      },
      async (request) => projects.get(principalOf(request), request.params.projectKey),
    );

    app.post(
      '/api/v1/projects',
      {
        schema: {
          tags: ['projects'],
          summary: 'Create a project (organisation admins); it starts with Production and Development',
          body: projectInput,
          response: { 201: projectSchema, ...errors },
        },
      },
      async (request, reply) =>
        reply.code(201).send(await projects.create(principalOf(request), request.body)),
    );

    app.put(
      '/api/v1/projects',
      {
        schema: {
          tags: ['projects'],
          summary: 'Rename a project (organisation admins); the key cannot change',
          body: projectInput,
          response: { 200: projectSchema, ...errors },
        },
      },
      async (request) => projects.update(principalOf(request), request.body),
    );

    app.delete(
      '/api/v1/projects/:id',
      {
        schema: {
          tags: ['projects'],
          summary: 'Delete a project by id or key (organisation admins); its SDK keys stop working',
          params: z.object({ id: z.string().trim().min(1).max(64) }),
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        await projects.remove(principalOf(request), request.params.id);
        return reply.code(204).send(null);
      },
    );
  };
}
