import type { FastifyInstance, FastifyRequest } from 'fastify';
import helmet from 'helmet';

const DASHBOARD_API = /^\/+api(\/|$)/i;
/** The SDK routes set their own caching; the API docs are the same for everyone. */
const OWN_CACHING = /^\/+api\/+(sdk|js|docs)(\/|$)/i;

function isDashboardApi(request: FastifyRequest): boolean {
  const path = request.routeOptions.url ?? request.url;
  return DASHBOARD_API.test(path) && !OWN_CACHING.test(path);
}

/**
 * Security headers for the dashboard and API; the SPA needs inline styles (Mantine) but no inline
 * scripts. Helmet builds its header values once, here: the Fastify plugin built them again for every
 * request, a twentieth of the SDK path's CPU under load.
 */
export async function registerSecurityHeaders(app: FastifyInstance, options: { https: boolean }) {
  const setHeaders = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        ...(options.https ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    frameguard: { action: 'deny' },
    crossOriginEmbedderPolicy: false,
    hsts: options.https,
  });
  app.addHook('onRequest', (request, reply, done) =>
    setHeaders(request.raw, reply.raw, (error?: unknown) => done(error as Error | undefined)),
  );
  // Dashboard answers carry one user's data: no browser or proxy cache may keep them.
  app.addHook('onSend', async (request, reply, payload) => {
    if (isDashboardApi(request)) reply.header('cache-control', 'no-store');
    return payload;
  });
}
