// Over 400 lines: the composition root builds every service and registers every route in one place; moving route registration and service construction into their own files is the structure issue's (#30) next step.
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyInstance, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import cookie from '@fastify/cookie';
import rateLimit from '@fastify/rate-limit';
import websocket from '@fastify/websocket';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config';
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
import { accountRoutes } from './modules/account/account.routes';
import { createAccountService } from './modules/account/account.service';
import { authRoutes } from './modules/auth/auth.routes';
import { createAuthService } from './modules/auth/auth.service';
import { auditRoutes } from './modules/audit/audit.routes';
import { createAuditService } from './modules/audit/audit.service';
import { createBillingAccountService } from './modules/billing/billing-account.service';
import type { BillingProvider } from './modules/billing/billing-provider';
import { createBillingPlanService } from './modules/billing/billing-plan.service';
import { billingRoutes } from './modules/billing/billing.routes';
import { createBillingService } from './modules/billing/billing.service';
import { createBillingProvider } from './modules/billing/providers/index';
import { createSubscriptionsService } from './modules/subscriptions/subscriptions.service';
import { environmentsRoutes } from './modules/environments/environments.routes';
import { createEnvironmentsService } from './modules/environments/environments.service';
import { controlsRoutes } from './modules/controls/controls.routes';
import { createControlsService } from './modules/controls/controls.service';
import { createFeatureReadModel } from './modules/features/feature-read-model';
import { featuresRoutes } from './modules/features/features.routes';
import { createFeaturesService } from './modules/features/features.service';
import { createSdkRegistration } from './modules/features/sdk-registration';
import { healthRoutes } from './modules/health/health.routes';
import { createHealthService, type HealthService } from './modules/health/health.service';
import { createImpressionsService } from './modules/impressions/impressions.service';
import {
  createIntegrationsModule,
  type IntegrationsOptions,
} from './modules/integrations/integrations.module';
import { integrationsRoutes } from './modules/integrations/integrations.routes';
import { webhooksRoutes } from './modules/integrations/webhooks.routes';
import { projectsRoutes } from './modules/projects/projects.routes';
import { rolesRoutes } from './modules/roles/roles.routes';
import { createRolesService } from './modules/roles/roles.service';
import { createScope } from './modules/scope/scope.service';
import { experimentsRoutes } from './modules/experiments/experiments.routes';
import { createExperimentsService } from './modules/experiments/experiments.service';
import { createLiveHub } from './modules/live/live.hub';
import { registerLiveRoutes } from './modules/live/live.routes';
import { segmentsRoutes } from './modules/segments/segments.routes';
import { createSegmentsService, segmentKeysOf } from './modules/segments/segments.service';
import { signupRoutes } from './modules/signup/signup.routes';
import { createOidcClient } from './modules/sso/oidc-client';
import { ssoRoutes } from './modules/sso/sso.routes';
import { createSsoService } from './modules/sso/sso.service';
import { createSignupService } from './modules/signup/signup.service';
import { membersRoutes } from './modules/team/members.routes';
import { createMembersService, type MembersLogger } from './modules/team/members.service';
import { teamRoutes } from './modules/team/team.routes';
import { createTeamService } from './modules/team/team.service';
import { targetUsersRoutes } from './modules/target-users/target-users.routes';
import { createTargetUsersService } from './modules/target-users/target-users.service';
import { targetsRoutes } from './modules/targets/targets.routes';
import { createTargetsService } from './modules/targets/targets.service';
import { tokensRoutes } from './modules/tokens/tokens.routes';
import { createTokensService } from './modules/tokens/tokens.service';
import { createProjectsService } from './modules/projects/projects.service';
import { createChangeEvents } from './lib/change-events';
import { createMailer } from './lib/mailer';
import { createOutgoingFetch } from './lib/outgoing-url';
import { createSecretBox } from './lib/secret-box';
import { startPgChangeRelay } from './lib/pg-change-relay';
import { useServerSha1 } from './lib/sha1';
import { createIngestion, type IngestionOptions } from './sdk/ingestion';
import { sdkFastPath } from './sdk/fast-path';
import { createSdkStore } from './sdk/sdk-store';
import { sdkSurface } from './sdk/surface';

export type BuildAppOptions = {
  config: Config;
  database: DatabaseHandle;
  /** Tests pass false; production logs JSON. */
  logger?: FastifyServerOptions['logger'];
  now?: () => Date;
  /** Tests shorten the ingestion's retry and stall timings; production keeps the defaults. */
  ingestion?: IngestionOptions;
  /** Tests stand a provider of their own in for the one BILLING_PROVIDER names. */
  billingProvider?: BillingProvider;
  /** Tests shorten the integrations' retry waits and worker polling. */
  integrations?: IntegrationsOptions;
};

export type AppServices = ReturnType<typeof createServices>;

/** Every route as registered: the invariant tests walk this table so no route escapes them. */
export type RouteEntry = { method: string; url: string; isPublic: boolean; bodySchema: unknown };

/**
 * The composition root: every service built once, each from the ones below it, so the dependencies
 * form a tree (scope, team, audit and billing at the bottom; features, projects and account on top).
 */
function createServices(
  options: BuildAppOptions,
  onListenerError: (error: unknown) => void,
  logger: MembersLogger,
) {
  const { config, database } = options;
  const db = database.db;
  const clock = options.now ? { now: options.now } : {};
  const uiFlags = config.uiFlags;
  const events = createChangeEvents(onListenerError);
  const auth = createAuthService({
    db,
    events,
    hashCost: config.passwordHashCost,
    // Single sign-on (built below, asked at sign-in time) says who may still use a password.
    passwordSignInRule: (member) => sso.passwordSignInRule(member),
    // Sign-ins are audited (built below, used at sign-in time).
    audit: { record: (executor, actor, entry) => audit.record(executor, actor, entry) },
    ...clock,
  });
  // Open dashboards are checked against the sessions again when access changes (modules/live).
  const live = createLiveHub({
    events,
    check: (ids) => auth.liveSessions(ids),
    onCheckError: (error) => logger.warn({ err: error }, 'Open dashboards could not be checked again'),
  });
  const subscriptions = createSubscriptionsService({ db });
  const billing = createBillingService({
    db,
    subscriptions,
    uiFlags,
    catalogue: config.billing.catalogue,
    trialDays: config.billing.trialDays,
    ...clock,
  });
  const team = createTeamService({ db });
  const audit = createAuditService({ db, billing, team, ...clock });
  const scope = createScope({ db });
  const impressions = createImpressionsService({ db, ...clock });
  const targets = createTargetsService({ db, audit, billing, scope, ...clock });
  const billingProvider = options.billingProvider ?? createBillingProvider(config.billing);
  const billingAccount = createBillingAccountService({
    db,
    audit,
    billing,
    subscriptions,
    provider: billingProvider,
    catalogue: config.billing.catalogue,
    uiFlags,
    publicUrl: config.publicUrl,
    baseDomain: config.baseDomain,
    logger,
    ...clock,
  });
  const billingPlan = createBillingPlanService({
    db,
    billing,
    catalogue: config.billing.catalogue,
    uiFlags,
    salesContact: config.billing.salesContact,
    provider: billingProvider.kind,
  });
  const controls = createControlsService({
    db,
    audit,
    billing,
    events,
    impressions,
    scope,
    // Rules are checked against the project's target types and the environment's segment keys.
    ruleContext: async (executor, organisationId, where) => ({
      targetTypes: await targets.typesOf(executor, organisationId, where.projectId),
      segmentKeys: await segmentKeysOf(executor, organisationId, where.environmentId),
    }),
    ...clock,
  });
  const segments = createSegmentsService({ db, audit, billing, scope, controls, ...clock });
  const environments = createEnvironmentsService({ db, audit, billing, controls, events, scope, ...clock });
  const projects = createProjectsService({ db, audit, billing, environments, events, ...clock });
  const featureReads = createFeatureReadModel({
    db,
    scope,
    controls,
    team,
    // The issue tracker (built below, asked at read time) resolves issue keys to titles and links.
    issues: { describeIssues: (...args) => integrations.jira.describeIssues(...args) },
  });
  const features = createFeaturesService({
    db,
    audit,
    billing,
    controls,
    scope,
    team,
    events,
    read: featureReads,
    issues: { issuesLinked: (linked) => integrations.jira.issuesLinked(linked) },
    ...clock,
  });
  const sdkRegistration = createSdkRegistration({ db, audit, billing, controls, scope, events, ...clock });
  const targetUsers = createTargetUsersService({ db, audit, scope });
  const experiments = createExperimentsService({ db, audit, billing, scope, events, ...clock });
  const mailer = createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom });
  const members = createMembersService({
    db,
    audit,
    auth,
    billing,
    mailer,
    publicUrl: config.publicUrl,
    logger,
    ...clock,
  });
  const secrets = createSecretBox({
    key: config.secretsKey,
    keyFile: path.join(config.dataDir, 'secrets.key'),
    previousKey: config.integrations.secretsKeyPrevious,
  });
  const outgoingPolicy = {
    allowPrivate: config.outgoingAllowPrivate,
    allowedHosts: config.integrations.outgoingAllowedHosts,
  };
  const outgoingFetch = createOutgoingFetch(outgoingPolicy);
  const sso = createSsoService({
    db,
    audit,
    auth,
    members,
    secrets,
    oidc: createOidcClient({ fetch: outgoingFetch, allowHttp: config.outgoingAllowPrivate, ...clock }),
    publicUrl: config.publicUrl,
    baseDomain: config.baseDomain,
    allowHttpIssuer: config.outgoingAllowPrivate,
    logger,
    ...clock,
  });
  const integrations = createIntegrationsModule({
    db,
    audit,
    scope,
    team,
    events,
    secrets,
    fetch: outgoingFetch,
    policy: outgoingPolicy,
    uiFlags,
    slack: {
      app: config.integrations.slack,
      apiUrl: config.integrations.slackApiUrl,
      oauthUrl: config.integrations.slackOAuthUrl,
    },
    publicUrl: config.publicUrl,
    baseDomain: config.baseDomain,
    logger,
    options: options.integrations,
    ...clock,
  });
  const account = createAccountService({
    db,
    auth,
    uiFlags,
    billing,
    projects,
    sso,
    baseDomain: config.baseDomain,
    ...clock,
  });
  const tokens = createTokensService({ db, audit, enabled: uiFlags['access-tokens'], ...clock });
  const { publicUrl, passwordHashCost: hashCost } = config;
  const signup = createSignupService({
    db,
    audit,
    auth,
    billing,
    projects,
    mailer,
    publicUrl,
    hashCost,
    logger,
    ...clock,
  });
  const roles = createRolesService({ db, audit, enabled: uiFlags['roles-admin'], ...clock });
  return {
    events,
    live,
    auth,
    billing,
    billingAccount,
    billingPlan,
    account,
    audit,
    scope,
    team,
    impressions,
    targets,
    segments,
    experiments,
    controls,
    environments,
    projects,
    featureReads,
    features,
    sdkRegistration,
    targetUsers,
    mailer,
    members,
    tokens,
    roles,
    signup,
    secrets,
    outgoingFetch,
    sso,
    integrations,
  };
}

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
  await useServerSha1();
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

  const sdk = createSdk(app, services, database, options.now ?? (() => new Date()), options.ingestion);
  fastPath = sdkFastPath(sdk.store, sdk.now);
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
    registerSubscriptionGuard(dashboard, { billing: services.billing });
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
  });
  services.live.start();
  app.addHook('onClose', async () => {
    services.live.stop();
    await services.integrations.stop();
    // Accepted SDK events are flushed before the database closes.
    await sdk.stop();
    services.mailer.close();
    await services.outgoingFetch.close();
    await database.close();
  });

  return Object.assign(app, { services, routeTable, sdk });
}

/** The dashboard API's routes, each module's plugin over its service. */
async function registerDashboardRoutes(app: FastifyInstance, services: AppServices, health: HealthService) {
  await app.register(healthRoutes({ health }));
  await app.register(authRoutes({ auth: services.auth }));
  await app.register(accountRoutes({ account: services.account }));
  await app.register(auditRoutes({ audit: services.audit }));
  await app.register(projectsRoutes({ projects: services.projects }));
  await app.register(environmentsRoutes({ environments: services.environments }));
  await app.register(featuresRoutes({ features: services.features, read: services.featureReads }));
  await app.register(controlsRoutes({ controls: services.controls }));
  await app.register(teamRoutes({ team: services.team }));
  await app.register(membersRoutes({ members: services.members }));
  await app.register(targetsRoutes({ targets: services.targets }));
  await app.register(segmentsRoutes({ segments: services.segments }));
  await app.register(experimentsRoutes({ experiments: services.experiments }));
  registerLiveRoutes(app, { hub: services.live });
  await app.register(targetUsersRoutes({ targetUsers: services.targetUsers }));
  await app.register(tokensRoutes({ tokens: services.tokens }));
  await app.register(rolesRoutes({ roles: services.roles }));
  await app.register(signupRoutes({ signup: services.signup }));
  await app.register(ssoRoutes({ sso: services.sso }));
  await app.register(
    integrationsRoutes({
      integrations: services.integrations.integrations,
      jira: services.integrations.jira,
    }),
  );
  await app.register(webhooksRoutes({ webhooks: services.integrations.webhooks }));
  await app.register(billingRoutes({ billing: services.billingAccount, plans: services.billingPlan }));
}

/** The SDK API's memory and event ingestion, and the change relay between instances on PostgreSQL. */
function createSdk(
  app: FastifyInstance,
  services: AppServices,
  database: DatabaseHandle,
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
