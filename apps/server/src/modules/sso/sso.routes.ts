import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { errorBodySchema, ssoConnectionInput, ssoConnectionSchema, ssoSettingsSchema } from '@vexil/core';
import { principalOf } from '../../plugins/auth';
import { SSO_ATTEMPT_MS, SSO_CALLBACK_PATH, SSO_START_PATH, type SsoService } from './sso.service';

const errors = { 400: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };
/**
 * Per client address: each start may make a request to the identity provider and stores an attempt.
 * An office behind one address signs in together, hence more than password sign-in's limit.
 */
const SIGN_IN_RATE_LIMIT = { max: 60, timeWindow: '1 minute' };
const STATE_COOKIE = 'vexil-sso-state';

/**
 * The cookie that ties a sign-in to the browser that started it: `__Host-` prefixed over https, like
 * the session cookie (plugins/auth.ts). SameSite=Lax, so the provider's redirect back brings it.
 */
function stateCookieName(request: FastifyRequest): string {
  return request.protocol === 'https' ? `__Host-${STATE_COOKIE}` : STATE_COOKIE;
}

function stateCookieOptions(request: FastifyRequest) {
  return { path: '/', httpOnly: true, sameSite: 'lax' as const, secure: request.protocol === 'https' };
}

function redirect(reply: FastifyReply, location: string) {
  return reply.header('cache-control', 'no-store').redirect(location, 302);
}

const startQuery = z.object({
  domain: z
    .string()
    .max(63)
    .regex(/^[a-z0-9-]*$/i)
    .optional(),
  rememberMe: z.enum(['true', 'false']).optional(),
  via: z.enum(['sub-domain']).optional(),
});

/** The provider's answer: its other parameters (`iss`, `session_state`…) are read by the client library. */
const callbackQuery = z.object({
  code: z.string().max(8192).optional(),
  state: z.string().max(512).optional(),
  error: z.string().max(256).optional(),
});

export function ssoRoutes(deps: { sso: SsoService }): FastifyPluginAsyncZod {
  const { sso } = deps;
  return async (app) => {
    app.get(
      '/api/v1/sso',
      {
        schema: {
          tags: ['sso'],
          summary:
            'The organisation’s single sign-on connection (its secret never) and the redirect URI to register (organisation admins)',
          response: { 200: ssoSettingsSchema, ...errors },
        },
      },
      async (request) => sso.settings(principalOf(request)),
    );

    app.put(
      '/api/v1/sso',
      {
        // Who controls the identity provider controls sign-in: a leaked access token may not change it.
        config: { sessionOnly: true },
        schema: {
          tags: ['sso'],
          summary:
            'Set up or change single sign-on with OpenID Connect; the issuer’s discovery document is read first (organisation admins, signed in)',
          body: ssoConnectionInput,
          response: { 200: ssoConnectionSchema, ...errors },
        },
      },
      async (request) => sso.save(principalOf(request), request.body),
    );

    app.delete(
      '/api/v1/sso',
      {
        config: { sessionOnly: true },
        schema: {
          tags: ['sso'],
          summary: 'Remove single sign-on; members sign in with passwords (organisation admins, signed in)',
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        await sso.remove(principalOf(request));
        return reply.code(204).send(null);
      },
    );

    app.get(
      SSO_START_PATH,
      {
        exposeHeadRoute: false,
        config: { public: true, rateLimit: SIGN_IN_RATE_LIMIT },
        schema: {
          tags: ['sso'],
          summary:
            'Start signing in with the organisation’s identity provider (the address’s organisation, else `domain`): redirects there',
          querystring: startQuery,
          response: { 400: errorBodySchema },
        },
      },
      async (request, reply) => {
        const started = await sso.start({
          hostOrganisation: request.hostOrganisation,
          domain: request.query.domain,
          rememberMe: request.query.rememberMe === 'true',
          hostname: request.hostname,
          via: request.query.via,
        });
        if (started.state)
          reply.setCookie(stateCookieName(request), started.state, {
            ...stateCookieOptions(request),
            maxAge: SSO_ATTEMPT_MS / 1000,
          });
        return redirect(reply, started.location);
      },
    );

    app.get(
      SSO_CALLBACK_PATH,
      {
        // A HEAD request (a link checker's) must not spend the state.
        exposeHeadRoute: false,
        config: { public: true, rateLimit: SIGN_IN_RATE_LIMIT },
        schema: {
          tags: ['sso'],
          summary:
            'Where the identity provider sends the browser back: signs in through a one-time login link, or back to the sign-in page with the reason',
          querystring: callbackQuery,
          response: { 400: errorBodySchema },
        },
      },
      async (request, reply) => {
        const cookie = stateCookieName(request);
        const search = request.url.indexOf('?');
        const result = await sso.callback({
          state: request.query.state,
          error: request.query.error,
          query: search < 0 ? '' : request.url.slice(search + 1),
          stateCookie: request.cookies[cookie],
        });
        reply.clearCookie(cookie, stateCookieOptions(request));
        return redirect(reply, result.location);
      },
    );
  };
}
