import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  authorityOptionSchema,
  errorBodySchema,
  idParam,
  roleInput,
  roleMembersInput,
  roleSchema,
} from '@vexil/core';
import { principalOf } from '../../plugins/auth';
import type { RolesService } from './roles.service';

const errors = { 400: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema };

export function rolesRoutes(deps: { roles: RolesService }): FastifyPluginAsyncZod {
  const { roles } = deps;
  return async (app) => {
    app.get(
      '/api/v1/iam/authorities',
      {
        schema: {
          tags: ['roles'],
          summary: 'The four built-in authorities and what each may do (organisation admins)',
          response: { 200: z.array(authorityOptionSchema), ...errors },
        },
      },
      async (request) => roles.authorities(principalOf(request)),
    );

    app.get(
      '/api/v1/roles',
      {
        schema: {
          tags: ['roles'],
          summary: 'The custom roles, by name, with their grants and members (organisation admins)',
          response: { 200: z.array(roleSchema), ...errors },
        },
      },
      async (request) => roles.list(principalOf(request)),
    );

    app.put(
      '/api/v1/roles',
      {
        schema: {
          tags: ['roles'],
          summary:
            'Create a custom role (without id, 201) or change one (with id); the name is unique in the organisation (organisation admins)',
          body: roleInput,
          response: { 200: roleSchema, 201: roleSchema, ...errors },
        },
      },
      async (request, reply) => {
        const { role, created } = await roles.save(principalOf(request), request.body);
        return reply.code(created ? 201 : 200).send(role);
      },
    );

    app.delete(
      '/api/v1/roles/:id',
      {
        schema: {
          tags: ['roles'],
          summary: 'Delete a custom role; refused (409) while members hold it (organisation admins)',
          params: idParam,
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        await roles.remove(principalOf(request), request.params.id);
        return reply.code(204).send(null);
      },
    );

    app.put(
      '/api/v1/roles/:id/members',
      {
        schema: {
          tags: ['roles'],
          summary:
            'Set who holds a custom role: activated members of the organisation; it applies from their next request (organisation admins)',
          params: idParam,
          body: roleMembersInput,
          response: { 200: roleSchema, ...errors },
        },
      },
      async (request) => roles.setMembers(principalOf(request), request.params.id, request.body),
    );
  };
}
