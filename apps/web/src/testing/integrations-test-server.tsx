import type { RouteObject } from 'react-router';
import { notifications } from '@mantine/notifications';
import type {
  InitialPayload,
  Integration,
  IntegrationFilters,
  JiraConnection,
  Webhook,
  WebhookDelivery,
  WebhookInput,
} from '@vexil/core';
import { closeAllModals } from '../lib/modals';
import { initialPayload, jsonResponse, renderRoute, stubApi } from './test-utils';

/*
 * Stands in for the integrations and webhooks API in the Integrations tab's, the Jira pages' and the
 * project Webhooks section's tests: everything in memory. Handlers given replace the default ones.
 */

export type ApiHandler = Parameters<typeof stubApi>[0][string];

export const INTEGRATIONS_PATH = '/api/v1/integrations';
export const SLACK_AUTHORISE_URL =
  'https://slack.example.test/oauth/v2/authorize?client_id=1&scope=incoming-webhook';

let ids = 0;
const uuid = () => {
  ids += 1;
  return `00000000-0000-4000-8000-${String(9000 + ids).padStart(12, '0')}`;
};

const NO_FILTERS: IntegrationFilters = { projectKeys: [], environmentKeys: [], events: [] };

const CREATED = '2026-03-03T16:05:00.000Z';

export function slackFixture(channel = '#releases', filters: IntegrationFilters = NO_FILTERS): Integration {
  return {
    id: uuid(),
    type: 'slack',
    member: { name: 'Demo Admin' },
    configuration: { incomingWebhook: { channel }, teamName: 'Acme' },
    filters,
    createdDate: CREATED,
  };
}

export function jiraFixture(baseUrl = 'https://acme.atlassian.net', id = uuid()): Integration {
  return {
    id,
    type: 'jira',
    member: { name: 'Ada Lovelace' },
    configuration: { baseUrl },
    createdDate: CREATED,
  };
}

export function jiraConnectionFixture(overrides: Partial<JiraConnection> = {}): JiraConnection {
  return {
    id: uuid(),
    baseUrl: 'https://acme.atlassian.net',
    email: 'vexil@acme.example',
    hasApiToken: true,
    member: { name: 'Ada Lovelace' },
    createdDate: CREATED,
    lastModifiedDate: CREATED,
    ...overrides,
  };
}

export const JIRA_CONNECT_TOKEN = 'jct_0123456789abcdef';

export function serveIntegrations(
  options: {
    integrations?: Integration[];
    jira?: JiraConnection[];
    handlers?: Record<string, ApiHandler>;
  } = {},
) {
  let integrations = [...(options.integrations ?? [])];
  const connections = new Map((options.jira ?? []).map((connection) => [connection.id, connection]));
  const handlers: Record<string, ApiHandler> = {
    [`GET ${INTEGRATIONS_PATH}`]: () => jsonResponse(200, integrations),
    [`GET ${INTEGRATIONS_PATH}/available`]: () =>
      jsonResponse(200, {
        slack: { configured: true },
        jira: { enabled: true, connectedId: integrations.find((i) => i.type === 'jira')?.id ?? null },
      }),
    [`GET ${INTEGRATIONS_PATH}/slack/install`]: () => jsonResponse(200, { url: SLACK_AUTHORISE_URL }),
    [`GET ${INTEGRATIONS_PATH}/jira/connect-token`]: () =>
      jsonResponse(200, { token: JIRA_CONNECT_TOKEN, expiresDate: '2030-01-01T00:00:00.000Z' }),
    [`POST ${INTEGRATIONS_PATH}/jira/connect`]: ({ body }) => {
      const input = body as { baseUrl: string; email: string; apiToken: string };
      const connection = jiraConnectionFixture({
        baseUrl: input.baseUrl,
        email: input.email,
        member: { name: 'Demo Admin' },
      });
      connections.set(connection.id, connection);
      integrations = [...integrations, jiraFixture(input.baseUrl, connection.id)];
      connectionRoutes(connection.id);
      return jsonResponse(201, connection);
    },
    ...options.handlers,
  };
  const route = (method: string, path: string, handler: ApiHandler) => {
    handlers[`${method} ${path}`] ??= handler;
  };
  for (const integration of integrations) {
    const path = `${INTEGRATIONS_PATH}/${integration.id}`;
    route('DELETE', path, () => {
      integrations = integrations.filter((i) => i.id !== integration.id);
      return new Response(null, { status: 204 });
    });
    route('PUT', `${path}/filters`, ({ body }) => {
      const filters = body as IntegrationFilters;
      integrations = integrations.map((i) =>
        i.id === integration.id && i.type === 'slack' ? { ...i, filters } : i,
      );
      return jsonResponse(
        200,
        integrations.find((i) => i.id === integration.id),
      );
    });
  }
  function connectionRoutes(id: string) {
    const path = `${INTEGRATIONS_PATH}/jira/${id}`;
    route('GET', path, () => jsonResponse(200, connections.get(id)));
    route('PUT', path, ({ body }) => {
      const input = body as { baseUrl: string; email: string; apiToken?: string };
      const saved = { ...connections.get(id)!, baseUrl: input.baseUrl, email: input.email };
      connections.set(id, saved);
      return jsonResponse(200, saved);
    });
    route('DELETE', `${INTEGRATIONS_PATH}/${id}`, () => {
      connections.delete(id);
      integrations = integrations.filter((i) => i.id !== id);
      return new Response(null, { status: 204 });
    });
  }
  for (const id of connections.keys()) connectionRoutes(id);
  const calls = stubApi(handlers);
  return { calls, integrations: () => integrations };
}

const WEBHOOK_SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

export function webhookFixture(overrides: Partial<Webhook> = {}): Webhook {
  return {
    id: uuid(),
    projectKey: 'web',
    url: 'https://hooks.example.com/vexil',
    description: 'Deploy bot',
    events: ['feature.toggled', 'feature.created'],
    environmentKeys: [],
    enabled: true,
    createdDate: '2026-03-03T16:05:00.000Z',
    lastDelivery: null,
    ...overrides,
  };
}

export function deliveryFixture(overrides: Partial<WebhookDelivery> = {}): WebhookDelivery {
  return {
    id: uuid(),
    messageId: `msg_${ids}`,
    eventType: 'feature.toggled',
    status: 'succeeded',
    attempts: 1,
    responseCode: 200,
    durationMs: 42,
    error: null,
    createdDate: new Date(Date.now() - 5 * 60 * 1000).toISOString(),
    nextAttemptDate: null,
    ...overrides,
  };
}

export const webhooksPath = (projectKey = 'web') => `/api/v1/projects/${projectKey}/webhooks`;

/** The webhooks of project `web`, their deliveries, and the calls that change them. */
export function serveWebhooks(
  options: {
    webhooks?: Webhook[];
    deliveries?: Record<string, WebhookDelivery[]>;
    handlers?: Record<string, ApiHandler>;
  } = {},
) {
  let webhooks = [...(options.webhooks ?? [])];
  const deliveries = new Map(Object.entries(options.deliveries ?? {}));
  const base = webhooksPath();
  const handlers: Record<string, ApiHandler> = {};
  const routesOf = (id: string) => {
    const path = `${base}/${id}`;
    const add = (method: string, suffix: string, handler: ApiHandler) => {
      handlers[`${method} ${path}${suffix}`] = options.handlers?.[`${method} ${path}${suffix}`] ?? handler;
    };
    add('PUT', '', ({ body }) => {
      const input = body as WebhookInput;
      webhooks = webhooks.map((w) => (w.id === id ? { ...w, ...input } : w));
      return jsonResponse(
        200,
        webhooks.find((w) => w.id === id),
      );
    });
    add('DELETE', '', () => {
      webhooks = webhooks.filter((w) => w.id !== id);
      return new Response(null, { status: 204 });
    });
    add('POST', '/secret', () =>
      jsonResponse(200, { ...webhooks.find((w) => w.id === id), secret: `${WEBHOOK_SECRET}rotated` }),
    );
    add('POST', '/test', () => {
      const delivery = deliveryFixture({ eventType: 'webhook.test', createdDate: new Date().toISOString() });
      deliveries.set(id, [delivery, ...(deliveries.get(id) ?? [])]);
      return jsonResponse(200, delivery);
    });
    add('GET', '/deliveries', () => jsonResponse(200, deliveries.get(id) ?? []));
    for (const delivery of deliveries.get(id) ?? []) {
      const resend = `POST ${base}/deliveries/${delivery.id}/resend`;
      handlers[resend] =
        options.handlers?.[resend] ??
        (() => {
          // Queued: pending, no attempt yet; the receiver answers once the worker sends it.
          const queued = deliveryFixture({
            eventType: delivery.eventType,
            messageId: delivery.messageId,
            status: 'pending',
            attempts: 0,
            responseCode: null,
            durationMs: null,
            createdDate: new Date().toISOString(),
            nextAttemptDate: new Date().toISOString(),
          });
          deliveries.set(id, [
            {
              ...queued,
              status: 'succeeded',
              attempts: 1,
              responseCode: 200,
              durationMs: 42,
              nextAttemptDate: null,
            },
            ...(deliveries.get(id) ?? []),
          ]);
          return jsonResponse(202, queued);
        });
    }
  };
  Object.assign(handlers, {
    [`GET ${base}`]: () => jsonResponse(200, webhooks),
    [`POST ${base}`]: ({ body }: { body: unknown }) => {
      const input = body as WebhookInput;
      const webhook = webhookFixture({ ...input, description: input.description });
      webhooks = [...webhooks, webhook];
      routesOf(webhook.id);
      return jsonResponse(201, { ...webhook, secret: WEBHOOK_SECRET });
    },
    ...options.handlers,
  });
  for (const webhook of webhooks) routesOf(webhook.id);
  const calls = stubApi(handlers);
  return { calls, secret: WEBHOOK_SECRET, webhooks: () => webhooks };
}

/** Renders `element` at `path` (matched by `route`) for the signed-in `session`, with modals and toasts. */
export function renderScreen(
  route: Omit<RouteObject, 'children' | 'index'> & { path: string },
  path: string,
  session: InitialPayload = initialPayload(),
) {
  return renderRoute(route as RouteObject, path, { session });
}

export function resetOverlays(): void {
  notifications.clean();
  closeAllModals();
}
