import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  errorBodySchema,
  idParam,
  invitesInput,
  invitesResultSchema,
  teamMemberSchema,
  userUpdateInput,
} from '@vexil/core';
import { principalOf, sessionCookieName } from '../../plugins/auth';
import type { MembersService } from './members.service';

const errors = {
  400: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
};

/** Invitation requests one client address may make, on top of the per-recipient limit. */
const INVITES_RATE_LIMIT = { max: 30, timeWindow: '15 minutes' };

export function membersRoutes(deps: { members: MembersService }): FastifyPluginAsyncZod {
  const { members } = deps;
  return async (app) => {
    app.get(
      '/api/v1/users',
      {
        schema: {
          tags: ['team'],
          summary: 'Members and pending invitations (not activated), with their role (organisation admins)',
          response: { 200: z.array(teamMemberSchema), ...errors },
        },
      },
      async (request) => members.list(principalOf(request)),
    );

    app.put(
      '/api/v1/users',
      {
        schema: {
          tags: ['team'],
          summary:
            "Change an active member's names and role (organisation admins); not one's own role, and the last organisation admin stays one",
          body: userUpdateInput,
          response: { 200: teamMemberSchema, ...errors },
        },
      },
      async (request) => members.update(principalOf(request), request.body),
    );

    app.delete(
      '/api/v1/users/:id',
      {
        schema: {
          tags: ['team'],
          summary:
            'Remove a member or cancel a pending invitation (organisation admins); their sessions and access tokens stop working at once',
          params: idParam,
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        await members.remove(principalOf(request), request.params.id);
        return reply.code(204).send(null);
      },
    );

    app.post(
      '/api/v1/invites',
      {
        schema: {
          tags: ['team'],
          summary:
            'Invite people by e-mail (organisation admins): each gets a single-use link valid 7 days; inviting a pending address again resends; without a mail server the links are returned',
          body: invitesInput,
          response: { 201: invitesResultSchema, ...errors, 429: errorBodySchema },
        },
        config: { rateLimit: INVITES_RATE_LIMIT },
      },
      async (request, reply) =>
        reply.code(201).send(await members.invite(principalOf(request), request.body)),
    );

    app.post(
      '/api/v1/account/sessions/revoke-all',
      {
        schema: {
          tags: ['account'],
          summary:
            "Sign out everywhere: end every session of the caller's, this one included (a signed-in session only, not an access token)",
          response: { 204: z.null(), 401: errorBodySchema, 403: errorBodySchema },
        },
        // A leaked access token must not be able to sign its owner out of every browser.
        // Ending one's own sessions changes nothing of the organisation's: allowed while inactive.
        config: { sessionOnly: true, whileInactive: true },
      },
      async (request, reply) => {
        await members.signOutEverywhere(principalOf(request));
        reply.clearCookie(sessionCookieName(request), {
          path: '/',
          httpOnly: true,
          sameSite: 'lax',
          secure: request.protocol === 'https',
        });
        return reply.code(204).send(null);
      },
    );
  };
}
