import { bearerTokenOf } from '@vexil/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config';
import { ForbiddenError, UnauthorizedError } from '../errors';
import type { AuthService, NewSession, Principal } from '../modules/auth/auth.service';
import type { RolesService } from '../modules/roles/roles.service';
import type { TokensService } from '../modules/tokens/tokens.service';

const SESSION_COOKIE = 'authenticationToken';

/**
 * The session cookie's name for this request: `__Host-` prefixed over https, where browsers then take
 * it only Secure, for the whole host and from the host itself, so a sibling sub-domain cannot plant
 * one (docs/adr/0002-sessions-in-httponly-cookie.md). Over plain http the prefix cannot be used.
 */
export function sessionCookieName(request: FastifyRequest): string {
  return request.protocol === 'https' ? `__Host-${SESSION_COOKIE}` : SESSION_COOKIE;
}

/** The browser and address a session is started from, kept with it. */
export function clientOf(request: FastifyRequest): { userAgent: string | null; ip: string } {
  const agent = request.headers['user-agent'];
  return { userAgent: typeof agent === 'string' ? agent : null, ip: request.ip };
}

/**
 * Sets the session cookie of a new session (sign-in, a one-time login link, an invited sign-up). Over
 * https it is `__Host-` prefixed, so it must be Secure, for Path=/ and with no Domain.
 */
export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, session: NewSession): void {
  reply.setCookie(sessionCookieName(request), session.token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: request.protocol === 'https',
    ...(session.maxAgeSeconds ? { maxAge: session.maxAgeSeconds } : {}),
  });
}

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
    /** How the request authenticated: the session cookie, a session token, or a personal access token. */
    authVia: 'cookie' | 'bearer' | 'access-token' | null;
    /** The organisation named by the Host (`{org}.{BASE_DOMAIN}`) or the `/{org}/api/…` path, if any. */
    hostOrganisation: string | null;
  }
  interface FastifyContextConfig {
    /** Routes are authenticated unless they say otherwise. */
    public?: boolean;
    /** Refused (403) to personal access tokens: the route needs the signed-in user (e.g. creating tokens). */
    sessionOnly?: boolean;
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const ORG_PATH = /^\/([a-z0-9][a-z0-9-]{1,62})(\/api\/.*)$/i;
const ORG_HEADER = 'x-vexil-path-organisation';

/** Routes whose URL is under /api and not part of the public or SDK surface require a session. */
export function requiresSession(url: string, isPublic: boolean | undefined): boolean {
  if (isPublic) return false;
  const path = url.toLowerCase();
  if (!path.startsWith('/api/')) return false;
  return !(path.startsWith('/api/docs') || path.startsWith('/api/sdk/') || path.startsWith('/api/js/'));
}

/**
 * `/{org}/api/...` is the path form of the organisation sub-domain: strip the prefix before routing and
 * remember the organisation. Used as Fastify's `rewriteUrl`.
 */
export function rewriteOrganisationPath(req: { url?: string; headers: Record<string, unknown> }): string {
  const url = req.url ?? '/';
  const match = ORG_PATH.exec(url);
  if (!match || match[1]!.toLowerCase() === 'api') {
    delete req.headers[ORG_HEADER];
    return url;
  }
  req.headers[ORG_HEADER] = match[1]!.toLowerCase();
  return match[2]!;
}

function organisationFromHost(host: string | undefined, baseDomain: string): string | null {
  if (!host) return null;
  const hostname = host.replace(/:\d+$/, '').toLowerCase();
  if (!hostname.endsWith(`.${baseDomain}`)) return null;
  const sub = hostname.slice(0, -baseDomain.length - 1);
  return /^[a-z0-9-]+$/.test(sub) ? sub : null;
}

/** The token of an `Authorization: Bearer <token>` header (a session or a personal access token), or null. */
export function bearerToken(header: string | undefined): string | null {
  return bearerTokenOf(header);
}

function requestOrigin(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}

/**
 * A cross-site page must not be able to write with the user's cookie. Browsers send Origin on every
 * non-GET fetch; a write that comes with the cookie must come from our own origin.
 */
function assertSameOrigin(request: FastifyRequest, config: Config, cookieAuthenticated: boolean) {
  // A WebSocket opens with a GET, yet what follows may act with the cookie: browsers always send
  // Origin on it, and another site's page must not open one (cross-site WebSocket hijacking).
  const upgrade = String(request.headers.upgrade ?? '').toLowerCase() === 'websocket';
  if (SAFE_METHODS.has(request.method) && !upgrade) return;
  const origin = request.headers.origin;
  const allowed = new Set([requestOrigin(request), new URL(config.publicUrl).origin]);
  if (origin !== undefined) {
    if (!allowed.has(origin)) throw new ForbiddenError('Cross-site request refused');
    return;
  }
  if (!cookieAuthenticated) return;
  const site = request.headers['sec-fetch-site'];
  if (site !== 'same-origin') throw new ForbiddenError('Cross-site request refused');
}

export const ACCESS_TOKEN_REFUSED =
  'This access token is not valid: it was deleted or has expired, or its owner may no longer sign in.';
export const SESSION_ONLY = 'An access token cannot do this: sign in to the dashboard to do it.';

export function registerAuth(
  app: FastifyInstance,
  deps: {
    auth: AuthService;
    tokens: Pick<TokensService, 'isAccessToken' | 'resolve'>;
    /** The grants of the custom roles a member holds, read at each request like their authorities. */
    roles: Pick<RolesService, 'grantsOf'>;
    config: Config;
  },
) {
  const { auth, tokens, roles, config } = deps;
  const withGrants = async <P extends Principal>(principal: P): Promise<P> => ({
    ...principal,
    grants: await roles.grantsOf(principal.organisationId, principal.userId),
  });
  app.decorateRequest('principal', null);
  app.decorateRequest('authVia', null);
  app.decorateRequest('hostOrganisation', null);

  app.addHook('onRequest', async (request) => {
    const fromPath = request.headers[ORG_HEADER];
    request.hostOrganisation =
      organisationFromHost(request.headers.host, config.baseDomain) ??
      (typeof fromPath === 'string' ? fromPath : null);
  });

  // Attach the session check to every /api route as it is registered, so no route can forget it.
  app.addHook('onRoute', (route) => {
    const url = route.url ?? route.path;
    if (!requiresSession(url, route.config?.public)) {
      if (
        url.toLowerCase().startsWith('/api/') &&
        !url.toLowerCase().startsWith('/api/sdk/') &&
        !url.toLowerCase().startsWith('/api/js/')
      ) {
        // public dashboard calls (login, context) still refuse cross-site writes
        const existing = route.onRequest ? [route.onRequest].flat() : [];
        route.onRequest = [
          ...existing,
          async (request: FastifyRequest) => assertSameOrigin(request, config, false),
        ];
      }
      return;
    }
    const existing = route.onRequest ? [route.onRequest].flat() : [];
    const sessionOnly = route.config?.sessionOnly === true;
    route.onRequest = [
      async (request: FastifyRequest, _reply: FastifyReply) => {
        const header = bearerToken(request.headers.authorization);
        if (header && tokens.isAccessToken(header)) {
          const principal = await tokens.resolve(header);
          // Also when the owner was removed or deactivated: the token says no more than that it is refused.
          if (!principal) throw new UnauthorizedError(ACCESS_TOKEN_REFUSED);
          if (request.hostOrganisation && request.hostOrganisation !== principal.organisationDomain) {
            throw new UnauthorizedError('This access token belongs to another organisation.');
          }
          if (sessionOnly) throw new ForbiddenError(SESSION_ONLY);
          request.principal = { ...(await withGrants(principal)), via: 'access-token' };
          request.authVia = 'access-token';
          // No Origin check: browsers never send a bearer token by themselves, so no other site can
          // make a request carry one (the check guards the ambient cookie).
          return;
        }
        const cookie = request.cookies[sessionCookieName(request)];
        const token = header ?? cookie ?? null;
        if (!token) throw new UnauthorizedError();
        const principal = await auth.resolveSession(token);
        if (!principal) throw new UnauthorizedError('Your session has expired, please sign in again.');
        if (request.hostOrganisation && request.hostOrganisation !== principal.organisationDomain) {
          throw new UnauthorizedError('This session belongs to another organisation.');
        }
        request.principal = await withGrants(principal);
        request.authVia = header ? 'bearer' : 'cookie';
        assertSameOrigin(request, config, !header);
      },
      ...existing,
    ];
  });
}

/** For handlers behind the session check: the principal is always there. */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new UnauthorizedError();
  return request.principal;
}
