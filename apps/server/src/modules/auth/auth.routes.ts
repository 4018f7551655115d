import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authenticateInput, authenticateResponse, tokenLoginInput } from '@vexil/core';
import { bearerToken, clientOf, sessionCookieName, setSessionCookie } from '../../plugins/auth';
import type { AuthService } from './auth.service';

const LOGIN_RATE_LIMIT = { max: 20, timeWindow: '1 minute' };

export function authRoutes(deps: { auth: AuthService }): FastifyPluginAsyncZod {
  const { auth } = deps;
  return async (app) => {
    app.post(
      '/api/authenticate',
      {
        config: { public: true, rateLimit: LOGIN_RATE_LIMIT },
        schema: {
          tags: ['auth'],
          summary: 'Sign in with e-mail and password',
          body: authenticateInput,
          response: { 200: authenticateResponse },
        },
      },
      async (request, reply) => {
        const session = await auth.login(
          { ...request.body, hostOrganisation: request.hostOrganisation },
          clientOf(request),
        );
        setSessionCookie(request, reply, session);
        return { id_token: session.token };
      },
    );

    app.post(
      '/api/authenticate/token',
      {
        config: { public: true, rateLimit: LOGIN_RATE_LIMIT },
        schema: {
          tags: ['auth'],
          summary: 'Exchange a one-time login token for a session',
          body: tokenLoginInput,
          response: { 200: authenticateResponse },
        },
      },
      async (request, reply) => {
        const session = await auth.loginWithToken(
          { ...request.body, hostOrganisation: request.hostOrganisation },
          clientOf(request),
        );
        setSessionCookie(request, reply, session);
        return { id_token: session.token };
      },
    );

    app.post(
      '/api/logout',
      {
        config: { public: true },
        schema: {
          tags: ['auth'],
          summary: 'Revoke the current session and clear its cookie',
          response: { 204: z.null() },
        },
      },
      async (request, reply) => {
        // Public so that a stale cookie can always be cleared; a live session is revoked on the server.
        const cookie = sessionCookieName(request);
        const token = bearerToken(request.headers.authorization) ?? request.cookies[cookie];
        if (token) await auth.logout(token);
        reply.clearCookie(cookie, {
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
