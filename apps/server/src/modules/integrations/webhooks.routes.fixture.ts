/**
 * What the webhook route tests share: a receiver that answers as scripted, a loopback sink nothing may
 * reach and a redirector to it, a harness on a test clock, and a team with the project `web`.
 */
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Feature, Webhook, WebhookDelivery } from '@vexil/core';
import { createTeam, type Caller, type Team } from '../../../test/api';
import { createHarness, type Harness } from '../../../test/helpers';
import { FAST_INTEGRATIONS, integrationsEnv, testClock } from '../../../test/integrations';
import { sdkFixture } from '../../../test/sdk';

type Received = { headers: IncomingHttpHeaders; body: string };

/** A webhook receiver at http://localhost:{port} that answers the scripted statuses, then 200. */
async function startReceiver() {
  const received: Received[] = [];
  const statuses: number[] = [];
  let always: number | null = null;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(statuses.shift() ?? always ?? 200, { 'content-type': 'text/plain' });
      res.end('thanks');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://localhost:${port}/hooks/vexil`,
    received,
    answer: (...next: number[]) => statuses.push(...next),
    alwaysAnswer: (status: number | null) => {
      always = status;
    },
    server,
  };
}

/** A loopback listener nothing may reach: it counts the requests that did. */
async function startSink() {
  const sink = { hits: 0, port: 0, server: null as unknown as Server };
  sink.server = createServer((_req, res) => {
    sink.hits++;
    res.end('reached');
  });
  await new Promise<void>((resolve) => sink.server.listen(0, '127.0.0.1', resolve));
  sink.port = (sink.server.address() as AddressInfo).port;
  return sink;
}

async function close(server: Server) {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}

export let h: Harness;
export let team: Team;
export let receiver: Awaited<ReturnType<typeof startReceiver>>;
export let sink: Awaited<ReturnType<typeof startSink>>;
let redirector: Server;
export let redirectorUrl: string;
export const clock = testClock();

const worker = () => h.app.services.integrations.webhooks;
/** Sends what is due now, and waits for it. */
export async function deliverDue() {
  worker().wake();
  await h.app.services.integrations.settled();
}

export async function create(
  body: Record<string, unknown> = {},
  call: Caller = team.admin.call,
): Promise<Webhook> {
  const res = await call('POST', '/api/v1/projects/web/webhooks', {
    url: receiver.url,
    description: 'Deploy bot',
    events: ['feature.toggled'],
    ...body,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<Webhook>();
}

export async function deliveries(webhook: Webhook): Promise<WebhookDelivery[]> {
  const res = await team.admin.call('GET', `/api/v1/projects/web/webhooks/${webhook.id}/deliveries`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<WebhookDelivery[]>();
}

export async function toggle(environmentKey: string, enabled: boolean) {
  const feature = (await team.admin.call('GET', '/api/v1/projects/web/features/checkout')).json<Feature>();
  const res = await team.admin.call(
    'PUT',
    `/api/v1/feature-controls/${feature.controls[environmentKey]!.id}/enabled`,
    { enabled },
  );
  expect(res.statusCode, res.body).toBe(200);
}

export function headersOf(received: Received): Record<string, string> {
  return {
    'webhook-id': String(received.headers['webhook-id']),
    'webhook-timestamp': String(received.headers['webhook-timestamp']),
    'webhook-signature': String(received.headers['webhook-signature']),
  };
}

/**
 * Starts the receiver, sink, redirector and harness for the calling test file, and starts each of its tests
 * from a fresh team, project and clock with nothing received.
 */
export function setUpWebhookRoutes(): void {
  beforeAll(async () => {
    receiver = await startReceiver();
    sink = await startSink();
    redirector = createServer((_req, res) => {
      res.writeHead(302, { location: `http://127.0.0.1:${sink.port}/` });
      res.end();
    });
    await new Promise<void>((resolve) => redirector.listen(0, '127.0.0.1', resolve));
    redirectorUrl = `http://localhost:${(redirector.address() as AddressInfo).port}/`;
    h = await createHarness(integrationsEnv(), { now: clock.now, integrations: FAST_INTEGRATIONS });
  });
  afterAll(async () => {
    await h?.close();
    for (const server of [receiver?.server, sink?.server, redirector]) if (server) await close(server);
  });
  beforeEach(async () => {
    await h.app.services.integrations.settled();
    await h.database.reset();
    clock.reset();
    receiver.received.length = 0;
    receiver.alwaysAnswer(null);
    sink.hits = 0;
    team = await createTeam(h);
    // A project `web` (Development, Production) with the feature `checkout`.
    await sdkFixture(team.admin.call);
    // The fixture's own changes are passed on before the test adds a webhook.
    await h.app.services.integrations.settled();
  });
}
