import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyInstance, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import type { Evaluator } from '@vexil/core';
import cookie from '@fastify/cookie';
import rateLimit from '@fastify/rate-limit';
import websocket from '@fastify/websocket';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { BadRequestError } from './errors';
import { RequestLogController } from './lib/request-log';
import { findUnstorableText } from './lib/storable-text';
import type { DatabaseHandle } from './db/client';
import { createSharedCounters } from './db/counters';
import { loggerOptions } from './logger';
import { registerAuth, rewriteOrganisationPath } from './plugins/auth';
import { registerErrorHandler } from './plugins/error-handler';
import { registerOpenApi } from './plugins/openapi';
import { registerSecurityHeaders } from './plugins/security';
import { registerSubscriptionGuard } from './plugins/subscription-guard';
import { registerWeb } from './plugins/web';
import { sharedRateLimitStore } from './plugins/rate-limit-store';
import { createHealthService } from './modules/health/health.service';
import { registerDashboardRoutes } from './composition/routes';
import { createServices, type AppServices, type ServiceOptions } from './composition/services';
import { startPgChangeRelay } from './lib/pg-change-relay';
import { serverEvaluator } from './lib/sha1';
import { createIngestion, type IngestionOptions } from './sdk/ingestion';
import { sdkFastPath } from './sdk/fast-path';
import { createSdkStore } from './sdk/sdk-store';
import { sdkSurface } from './sdk/surface';

export type BuildAppOptions = ServiceOptions & {
  /** Tests pass false; production logs JSON. */
  logger?: FastifyServerOptions['logger'];
  /** Tests shorten the ingestion's retry and stall timings; production keeps the defaults. */
  ingestion?: IngestionOptions;
};

export type { AppServices };

/** Every route as registered: the invariant tests walk this table so no route escapes them. */
export type RouteEntry = { method: string; url: string; isPublic: boolean; bodySchema: unknown };

/**
 * A write that takes no body refuses one that says something, but an empty JSON object says nothing,
 * as an empty body does: clients that always send JSON send `{}`.
 */
function refuseBody(request: FastifyRequest) {
  const body = request.body;
  const empty =
    body === undefined ||
    (typeof body === 'object' && body !== null && !Array.isArray(body) && Object.keys(body).length === 0);
  if (!empty) {
    throw new BadRequestError('This request takes no body', [
      { field: '(body)', message: 'This request takes no body' },
    ]);
  }
}

/**
 * An empty body sent with a JSON content type is no body: without the header the JSON parser, which
 * refuses an empty text, is not asked to read it.
 */
function forgetEmptyBodyType(request: FastifyRequest) {
  const length = request.headers['content-length'];
  if (request.headers['transfer-encoding'] === undefined && (length === '0' || length === undefined))
    delete request.headers['content-type'];
}

/**
 * PostgreSQL cannot store a NUL or a lone surrogate; a dashboard request carrying one is refused with
 * 400 naming the field, before validation, so no route can let one through to a 500.
 */
function refuseUnstorableText(request: FastifyRequest) {
  const found =
    findUnstorableText(request.body) ??
    findUnstorableText(request.query, 'querystring') ??
    findUnstorableText(request.params, 'params');
  if (found) throw new BadRequestError(found.message, [found], 'The request is not valid.');
}

const defaultWebDist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/dist');

/** Builds the whole application; main.ts only listens and closes. */
export async function buildApp(
  options: BuildAppOptions,
): Promise<
  FastifyInstance & { services: AppServices; routeTable: RouteEntry[]; sdk: ReturnType<typeof createSdk> }
> {
  const { config, database } = options;
  // Bucketing hashes with WebAssembly on the server (core's pure SHA-1 stays for the browser).
  const evaluator = await serverEvaluator();
  // The SDK poll's fast path, set once the SDK store exists (below); until then every request goes to Fastify.
  let fastPath: ((request: IncomingMessage, response: ServerResponse) => boolean) | null = null;
  const app = Fastify({
    // Fastify's own HTTP/1 server, with the SDK poll answered ahead of it (sdk/fast-path.ts).
    serverFactory: (handler, factoryOptions) => {
      // Fastify's settings, with its defaults filled in, applied as its own factory applies them.
      const settings = factoryOptions as {
        http?: http.ServerOptions;
        keepAliveTimeout?: number;
        requestTimeout?: number;
        connectionTimeout?: number;
        maxRequestsPerSocket?: number;
      };
      const server = http.createServer(settings.http ?? {}, (request, response) => {
        if (!fastPath?.(request, response)) handler(request, response);
      });
      if (settings.keepAliveTimeout !== undefined) server.keepAliveTimeout = settings.keepAliveTimeout;
      if (settings.requestTimeout !== undefined) server.requestTimeout = settings.requestTimeout;
      server.setTimeout(settings.connectionTimeout ?? 0);
      if (settings.maxRequestsPerSocket) server.maxRequestsPerSocket = settings.maxRequestsPerSocket;
      return server;
    },
    logger: options.logger ?? loggerOptions(config.logLevel),
    logController: new RequestLogController(),
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    rewriteUrl: (req) =>
      rewriteOrganisationPath(req as unknown as { url?: string; headers: Record<string, unknown> }),
    routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true, caseSensitive: false },
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // Readiness says 503 at once when a write finds the database's disk full or read-only.
  const health = createHealthService({
    ping: () => database.ping(),
    probeWrite: () => database.probeWrite(),
  });
  registerErrorHandler(app, { storageFailed: () => health.storageFailed() });

  const services = createServices(
    options,
    (error) => app.log.error({ err: error }, 'A change-event listener failed'),
    app.log,
  );
  const routeTable: RouteEntry[] = [];
  app.addHook('onRoute', (route) => {
    const writes = [route.method].flat().some((m) => ['POST', 'PUT', 'PATCH', 'DELETE'].includes(m));
    const schema = route.schema as { body?: unknown } | undefined;
    const sdkSurface = /^\/api\/(sdk|js)\//i.test(route.url);
    const dashboardApi = route.url.toLowerCase().startsWith('/api/') && !sdkSurface;
    if (writes && !schema?.body && dashboardApi) {
      // A write that takes no body refuses one, rather than acting on it while ignoring it.
      const existing = route.preValidation ? [route.preValidation].flat() : [];
      route.preValidation = [...existing, async (request) => refuseBody(request)];
      const early = route.onRequest ? [route.onRequest].flat() : [];
      route.onRequest = [...early, async (request) => forgetEmptyBodyType(request)];
    }
    if (dashboardApi) {
      const existing = route.preValidation ? [route.preValidation].flat() : [];
      route.preValidation = [async (request) => refuseUnstorableText(request), ...existing];
    }
    for (const method of [route.method].flat()) {
      if (method === 'HEAD' || method === 'OPTIONS') continue;
      routeTable.push({
        method,
        url: route.url ?? route.path,
        isPublic: route.config?.public === true,
        bodySchema: (route.schema as { body?: unknown } | undefined)?.body,
      });
    }
  });

  const now = options.now ?? (() => new Date());
  const sdk = createSdk(app, services, database, evaluator, now, options.ingestion);
  fastPath = sdkFastPath(sdk);
  // Two sibling contexts (docs/architecture.md "Scale"): the SDK surface first, with none of the
  // dashboard's hooks, then the dashboard with its headers, cookies, sessions, docs and pages.
  await app.register(sdkSurface({ sdk, register: services.sdkRegistration }));
  await app.register(async (dashboard) => {
    await registerSecurityHeaders(dashboard, { https: config.publicUrl.startsWith('https://') });
    await dashboard.register(cookie);
    await dashboard.register(rateLimit, {
      global: false,
      store: sharedRateLimitStore(createSharedCounters(database.db, options.now)),
    });
    // The live dashboard's socket; a browser sends it nothing worth more than a few bytes.
    await dashboard.register(websocket, { options: { maxPayload: 1024 } });
    registerAuth(dashboard, { auth: services.auth, tokens: services.tokens, roles: services.roles, config });
    registerSubscriptionGuard(dashboard, { db: database.db, billing: services.billing });
    await registerOpenApi(dashboard);
    await registerDashboardRoutes(dashboard, services, health);
    await registerWeb(dashboard, config.webDist ? path.resolve(config.webDist) : defaultWebDist);
  });

  app.addHook('onReady', async () => {
    // The catalogue tables follow the provider's plans; a provider out of reach does not stop the start.
    await services.billingAccount.syncCatalogue().catch((err: unknown) => {
      app.log.warn({ err }, 'The billing plans could not be read from the billing provider');
    });
    await sdk.start();
    if (config.integrations.secretsKeyPrevious) {
      // A SECRETS_KEY rotation: what the previous key encrypted is encrypted again with the new one.
      const count =
        (await services.sso.reencryptSecrets()) + (await services.integrations.reencryptSecrets());
      app.log.info({ count }, 'Stored secrets encrypted with the new SECRETS_KEY');
    }
    services.integrations.start();
    // Every module has registered its kinds of job by now.
    services.queue.start();
  });
  services.live.start();
  app.addHook('onClose', async () => {
    services.live.stop();
    await services.integrations.stop();
    await services.queue.stop();
    // Accepted SDK events are flushed before the database closes.
    await sdk.stop();
    services.mailer.close();
    await services.outgoingFetch.close();
    await database.close();
  });

  return Object.assign(app, { services, routeTable, sdk });
}

/** The SDK API's memory and event ingestion, and the change relay between instances on PostgreSQL. */
function createSdk(
  app: FastifyInstance,
  services: AppServices,
  database: DatabaseHandle,
  evaluator: Evaluator,
  now: () => Date,
  ingestionOptions: IngestionOptions = {},
) {
  const store = createSdkStore({ db: database.db, events: services.events, logger: app.log });
  const ingestion = createIngestion({
    ...ingestionOptions,
    db: database.db,
    logger: app.log,
    onFirstSeen: ({ organisationId, ...where }, at) =>
      services.events.publish({
        type: 'dashboard',
        organisationId,
        change: { kind: 'feature.seen', ...where, at: at.toISOString() },
      }),
  });
  let relay: ReturnType<typeof startPgChangeRelay> | null = null;
  return {
    store,
    evaluator,
    ingestion,
    now,
    async start() {
      await store.start();
      if (database.kind === 'postgres' && database.url) {
        relay = startPgChangeRelay({
          url: database.url,
          ...(database.timeouts ? { timeouts: database.timeouts } : {}),
          events: services.events,
          logger: app.log,
          // Notifications were missed meanwhile: SDK payloads and open dashboards' access both.
          onResync: () => Promise.all([store.refreshAll(), services.live.recheckAll()]).then(() => undefined),
        });
        await relay.ready;
      }
    },
    async stop() {
      store.stop();
      // Rebuilds under way finish before the database closes under them.
      await store.settled();
      await relay?.stop();
      await ingestion.stop();
    },
  };
}
