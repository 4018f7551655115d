import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { authenticateInput, authenticateResponse, tokenLoginInput } from '@vexil/core';
import { BadRequestError } from '../../errors';
import { bearerToken, SESSION_COOKIE } from '../../plugins/auth';
import type { AuthService, NewSession } from './auth.service';

const LOGIN_RATE_LIMIT = { max: 20, timeWindow: '1 minute' };

function clientOf(request: FastifyRequest) {
  const agent = request.headers['user-agent'];
  return { userAgent: typeof agent === 'string' ? agent : null, ip: request.ip };
}

function setSessionCookie(request: FastifyRequest, reply: FastifyReply, session: NewSession) {
  reply.setCookie(SESSION_COOKIE, session.token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: request.protocol === 'https',
    ...(session.maxAgeSeconds ? { maxAge: session.maxAgeSeconds } : {}),
  });
}

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
        const domain = request.body.domain ?? request.hostOrganisation ?? undefined;
        if (!domain)
          throw new BadRequestError('Which organisation? Sign in from your organisation address.', [
            { field: 'domain', message: 'Organisation domain is required' },
          ]);
        const session = await auth.login({ ...request.body, domain }, clientOf(request));
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
        const domain = request.body.domain ?? request.hostOrganisation ?? undefined;
        const session = await auth.loginWithToken({ ...request.body, domain }, clientOf(request));
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
        const token = bearerToken(request.headers.authorization) ?? request.cookies[SESSION_COOKIE];
        if (token) await auth.logout(token);
        reply.clearCookie(SESSION_COOKIE, { path: '/' });
        return reply.code(204).send(null);
      },
    );
  };
}
