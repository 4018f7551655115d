import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import {
  INTEGRATIONS_ADMINS_ONLY,
  MAX_WEBHOOKS_PER_PROJECT,
  type Feature,
  type Webhook,
  type WebhookDelivery,
} from '@vexil/core';
import { webhookDeliveries, webhooks } from '../../db/schema/index';
import { auditTrail, callerFor, createTeam, type Caller, type Team } from '../../../test/api';
import { createHarness, type Harness } from '../../../test/helpers';
import { FAST_INTEGRATIONS, integrationsEnv, testClock } from '../../../test/integrations';
import { sdkFixture } from '../../../test/sdk';
import * as repo from './webhooks.repository';
import { WEBHOOK_RETRY_DELAYS_S } from './webhooks.service';

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

let h: Harness;
let team: Team;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let sink: Awaited<ReturnType<typeof startSink>>;
let redirector: Server;
let redirectorUrl: string;
const clock = testClock();

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

const worker = () => h.app.services.integrations.webhooks;
/** Sends what is due now, and waits for it. */
async function deliverDue() {
  worker().wake();
  await h.app.services.integrations.settled();
}

async function create(body: Record<string, unknown> = {}, call: Caller = team.admin.call): Promise<Webhook> {
  const res = await call('POST', '/api/v1/projects/web/webhooks', {
    url: receiver.url,
    description: 'Deploy bot',
    events: ['feature.toggled'],
    ...body,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<Webhook>();
}

async function deliveries(webhook: Webhook): Promise<WebhookDelivery[]> {
  const res = await team.admin.call('GET', `/api/v1/projects/web/webhooks/${webhook.id}/deliveries`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<WebhookDelivery[]>();
}

async function toggle(environmentKey: string, enabled: boolean) {
  const feature = (await team.admin.call('GET', '/api/v1/projects/web/features/checkout')).json<Feature>();
  const res = await team.admin.call(
    'PUT',
    `/api/v1/feature-controls/${feature.controls[environmentKey]!.id}/enabled`,
    { enabled },
  );
  expect(res.statusCode, res.body).toBe(200);
}

function headersOf(received: Received): Record<string, string> {
  return {
    'webhook-id': String(received.headers['webhook-id']),
    'webhook-timestamp': String(received.headers['webhook-timestamp']),
    'webhook-signature': String(received.headers['webhook-signature']),
  };
}

describe('managing webhooks', () => {
  it('creates a webhook showing its secret once; lists, changes, rotates and removes it, audited', async () => {
    const created = await create({ environmentKeys: ['production', 'production'] });
    expect(created).toEqual({
      id: expect.any(String),
      projectKey: 'web',
      url: receiver.url,
      description: 'Deploy bot',
      events: ['feature.toggled'],
      environmentKeys: ['production'],
      enabled: true,
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{32}$/),
      createdDate: expect.any(String),
      lastDelivery: null,
    });
    const [row] = await h.database.db.select().from(webhooks).where(eq(webhooks.id, created.id));
    expect(JSON.stringify(row)).not.toContain(created.secret!.slice(6));

    const listed = (await team.admin.call('GET', '/api/v1/projects/web/webhooks')).json<Webhook[]>();
    expect(listed).toEqual([{ ...created, secret: undefined }].map(({ secret: _secret, ...rest }) => rest));

    const updated = await team.admin.call('PUT', `/api/v1/projects/web/webhooks/${created.id}`, {
      url: `${receiver.url}?v=2`,
      events: ['feature.created', 'feature.deleted'],
      enabled: false,
    });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json<Webhook>()).toMatchObject({
      url: `${receiver.url}?v=2`,
      events: ['feature.created', 'feature.deleted'],
      environmentKeys: [],
      description: '',
      enabled: false,
    });
    expect(updated.json<Webhook>().secret).toBeUndefined();

    const rotated = await team.admin.call('POST', `/api/v1/projects/web/webhooks/${created.id}/secret`);
    expect(rotated.statusCode, rotated.body).toBe(200);
    expect(rotated.json<Webhook>().secret).toMatch(/^whsec_/);
    expect(rotated.json<Webhook>().secret).not.toBe(created.secret);

    const removed = await team.admin.call('DELETE', `/api/v1/projects/web/webhooks/${created.id}`);
    expect(removed.statusCode).toBe(204);
    expect((await team.admin.call('GET', '/api/v1/projects/web/webhooks')).json()).toEqual([]);
    expect((await auditTrail(team.admin.call)).slice(0, 4).map((item) => item.title)).toEqual([
      'Webhook removed from Web shop',
      'Webhook secret of Web shop replaced',
      'Webhook of Web shop changed',
      'Webhook added to Web shop',
    ]);
  });

  it('is for organisation admins of the organisation only', async () => {
    const created = await create();
    for (const member of [team.productionEditor, team.editor, team.readOnly]) {
      for (const [method, url] of [
        ['GET', '/api/v1/projects/web/webhooks'],
        ['POST', '/api/v1/projects/web/webhooks'],
        ['PUT', `/api/v1/projects/web/webhooks/${created.id}`],
        ['DELETE', `/api/v1/projects/web/webhooks/${created.id}`],
        ['POST', `/api/v1/projects/web/webhooks/${created.id}/test`],
        ['GET', `/api/v1/projects/web/webhooks/${created.id}/deliveries`],
      ] as const) {
        const body =
          method === 'POST' && url.endsWith('webhooks')
            ? { url: receiver.url, events: ['feature.toggled'] }
            : undefined;
        const res = await member.call(
          method,
          url,
          method === 'PUT' ? { url: receiver.url, events: ['feature.toggled'] } : body,
        );
        expect(res.statusCode, `${method} ${url}`).toBe(403);
        expect(res.json<{ title: string }>().title).toBe(INTEGRATIONS_ADMINS_ONLY);
      }
    }
    await team.outsider.call('POST', '/api/v1/projects/', { name: 'Web', key: 'web' });
    expect((await team.outsider.call('GET', '/api/v1/projects/web/webhooks')).json()).toEqual([]);
    for (const [method, url] of [
      ['DELETE', `/api/v1/projects/web/webhooks/${created.id}`],
      ['POST', `/api/v1/projects/web/webhooks/${created.id}/test`],
      ['GET', `/api/v1/projects/web/webhooks/${created.id}/deliveries`],
    ] as const)
      expect((await team.outsider.call(method, url)).statusCode, `${method} ${url}`).toBe(404);
    expect(receiver.received).toEqual([]);
  });

  it('refuses bad input with the field’s message, and more than the project’s limit', async () => {
    const post = (body: Record<string, unknown>) =>
      team.admin.call('POST', '/api/v1/projects/web/webhooks', body);
    expect((await post({ url: receiver.url, events: [] })).json()).toMatchObject({
      errors: [{ field: 'events', message: 'Choose at least one event.' }],
    });
    expect((await post({ url: 'ftp://example.com/', events: ['feature.toggled'] })).json()).toMatchObject({
      errors: [{ field: 'url', message: 'Must be a valid http(s) URL.' }],
    });
    expect((await post({ url: receiver.url, events: ['feature.renamed'] })).statusCode).toBe(400);
    for (let n = 0; n < MAX_WEBHOOKS_PER_PROJECT; n++) await create();
    const over = await post({ url: receiver.url, events: ['feature.toggled'] });
    expect(over.statusCode).toBe(400);
    expect(over.json<{ title: string }>().title).toBe('A project may have at most 20 webhooks.');
  });
});

describe('the request-forgery guard', () => {
  it('refuses loopback, private, link-local and CGNAT addresses when saved, however written', async () => {
    const refused = [
      `http://127.0.0.1:${sink.port}/`,
      `http://[::1]:${sink.port}/`,
      `http://[::ffff:127.0.0.1]:${sink.port}/`,
      `http://2130706433:${sink.port}/`,
      `http://0x7f.1:${sink.port}/`,
      `http://10.0.0.1:${sink.port}/`,
      `http://169.254.169.254:${sink.port}/latest/meta-data/`,
      `http://100.64.0.1:${sink.port}/`,
      // IPv6 addresses that carry 127.0.0.1: IPv4-compatible, NAT64, 6to4, Teredo.
      `http://[::7f00:1]:${sink.port}/`,
      `http://[::127.0.0.1]:${sink.port}/`,
      `http://[64:ff9b::7f00:1]:${sink.port}/`,
      `http://[2002:7f00:1::1]:${sink.port}/`,
      `http://[2001:0:7f00:1::1]:${sink.port}/`,
    ];
    for (const url of refused) {
      const res = await team.admin.call('POST', '/api/v1/projects/web/webhooks', {
        url,
        events: ['feature.toggled'],
      });
      expect(res.statusCode, url).toBe(400);
      expect(res.json<{ errors: { field: string; message: string }[] }>().errors).toEqual([
        {
          field: 'url',
          message:
            'Vexil may not send requests to this address: the address is not a public internet address.',
        },
      ]);
    }
    expect(sink.hits).toBe(0);
  });

  it('refuses a host name that resolves to loopback when it is not allowed by OUTGOING_ALLOWED_HOSTS', async () => {
    const noneAllowed = await createHarness(
      { ...integrationsEnv(), OUTGOING_ALLOWED_HOSTS: '' },
      { integrations: FAST_INTEGRATIONS },
    );
    try {
      const admin = await noneAllowed.createOrganisation();
      const call = callerFor(noneAllowed.app, await noneAllowed.login(admin));
      expect((await call('POST', '/api/v1/projects/', { name: 'Web', key: 'web' })).statusCode).toBe(201);
      const res = await call('POST', '/api/v1/projects/web/webhooks', {
        url: `http://localhost:${sink.port}/`,
        events: ['feature.toggled'],
      });
      expect(res.statusCode).toBe(400);
      expect(res.json<{ errors: { message: string }[] }>().errors[0]!.message).toBe(
        'Vexil may not send requests to this address: its host name points to an address that is not public.',
      );
      expect(sink.hits).toBe(0);
    } finally {
      await noneAllowed.close();
    }
  });

  it('checks the address again at each delivery, and follows no redirect: the listener records zero hits', async () => {
    const created = await create();
    // The address changed since it was saved (here, in the database): the delivery is refused.
    await h.database.db
      .update(webhooks)
      .set({ url: `http://127.0.0.1:${sink.port}/` })
      .where(eq(webhooks.id, created.id));
    const test = await team.admin.call('POST', `/api/v1/projects/web/webhooks/${created.id}/test`);
    expect(test.json<WebhookDelivery>()).toMatchObject({
      status: 'failed',
      responseCode: null,
      error: 'Refused: the address is not a public internet address.',
    });
    await toggle('development', true);
    await deliverDue();
    expect((await deliveries(created))[0]).toMatchObject({
      eventType: 'feature.toggled',
      status: 'pending',
      attempts: 1,
      error: 'Refused: the address is not a public internet address.',
    });
    // The same for an IPv4-compatible IPv6 address of loopback.
    await h.database.db
      .update(webhooks)
      .set({ url: `http://[::7f00:1]:${sink.port}/` })
      .where(eq(webhooks.id, created.id));
    const compatible = await team.admin.call('POST', `/api/v1/projects/web/webhooks/${created.id}/test`);
    expect(compatible.json<WebhookDelivery>()).toMatchObject({
      status: 'failed',
      responseCode: null,
      error: 'Refused: the address is not a public internet address.',
    });

    const redirected = await create({ url: redirectorUrl });
    const answer = await team.admin.call('POST', `/api/v1/projects/web/webhooks/${redirected.id}/test`);
    expect(answer.json<WebhookDelivery>()).toMatchObject({
      status: 'failed',
      responseCode: 302,
      error: 'HTTP 302: redirects are not followed.',
    });
    expect(sink.hits).toBe(0);
  });
});

describe('deliveries', () => {
  it('sends the chosen changes, signed per Standard Webhooks (verified by the reference library)', async () => {
    const created = await create({
      events: ['feature.toggled', 'feature.created'],
      environmentKeys: ['production'],
    });
    await toggle('development', true);
    await toggle('production', true);
    const feature = await team.admin.call('POST', '/api/v1/projects/web/features', {
      name: 'Search',
      key: 'search',
    });
    expect(feature.statusCode).toBe(201);
    await h.app.services.integrations.settled();

    expect(receiver.received).toHaveLength(2);
    const verifier = new StandardWebhook(created.secret!.slice('whsec_'.length));
    const verified = receiver.received.map((received) => {
      expect(received.headers['content-type']).toBe('application/json');
      return verifier.verify(received.body, headersOf(received)) as {
        type: string;
        data: Record<string, unknown>;
      };
    });
    // Deliveries are sent side by side: their order is not promised.
    const toggled = verified.find((payload) => payload.type === 'feature.toggled');
    const createdEvent = verified.find((payload) => payload.type === 'feature.created');
    expect(toggled).toEqual({
      type: 'feature.toggled',
      timestamp: expect.any(String),
      data: {
        organisation: { domain: team.admin.domain },
        project: { key: 'web', name: 'Web shop' },
        environment: { key: 'production', name: 'Production' },
        feature: { key: 'checkout', name: 'Checkout' },
        experiment: null,
        enabled: true,
        actor: { id: team.admin.id, email: team.admin.email },
        summary: `${team.admin.email} turned on Checkout in Production (Web shop).`,
        url: `http://${team.admin.domain}.vexil.test/projects/web/environments/production/features/checkout`,
      },
    });
    expect(createdEvent).toMatchObject({
      type: 'feature.created',
      data: { environment: null, feature: { key: 'search' } },
    });

    // A forged or altered body does not verify.
    const first = receiver.received.find((received) => received.body.includes('"enabled":true'));
    expect(() =>
      verifier.verify(first!.body.replace('"enabled":true', '"enabled":false'), headersOf(first!)),
    ).toThrow();
    expect(() =>
      new StandardWebhook('c2VjcmV0LW5vdC10aGlzLW9uZQ==').verify(first!.body, headersOf(first!)),
    ).toThrow();

    const log = await deliveries(created);
    expect(log.map((d) => [d.eventType, d.status, d.attempts, d.responseCode]).sort()).toEqual([
      ['feature.created', 'succeeded', 1, 200],
      ['feature.toggled', 'succeeded', 1, 200],
    ]);
    expect(log[0]).toMatchObject({ error: null, nextAttemptDate: null, durationMs: expect.any(Number) });
    expect(
      (await team.admin.call('GET', '/api/v1/projects/web/webhooks')).json<Webhook[]>()[0]!.lastDelivery,
    ).toEqual({
      status: 'succeeded',
      at: expect.any(String),
    });
  });

  it('retries with backoff (10 s, then 1 min), the same webhook-id every time, until it succeeds', async () => {
    const created = await create();
    receiver.answer(500, 503);
    await toggle('development', true);
    await h.app.services.integrations.settled();
    let [delivery] = await deliveries(created);
    expect(delivery).toMatchObject({ status: 'pending', attempts: 1, responseCode: 500, error: 'HTTP 500.' });
    const firstTry = Date.parse(delivery!.createdDate);
    expect(Date.parse(delivery!.nextAttemptDate!) - clock.now().getTime()).toBeGreaterThan(9_000);

    // Not due yet: nothing is sent.
    await deliverDue();
    expect(receiver.received).toHaveLength(1);

    clock.advance(WEBHOOK_RETRY_DELAYS_S[0]! * 1000);
    await deliverDue();
    [delivery] = await deliveries(created);
    expect(delivery).toMatchObject({ status: 'pending', attempts: 2, responseCode: 503 });
    expect(Date.parse(delivery!.nextAttemptDate!) - firstTry).toBeGreaterThanOrEqual(70_000);

    clock.advance(WEBHOOK_RETRY_DELAYS_S[1]! * 1000);
    await deliverDue();
    [delivery] = await deliveries(created);
    expect(delivery).toMatchObject({
      status: 'succeeded',
      attempts: 3,
      responseCode: 200,
      error: null,
      nextAttemptDate: null,
    });
    expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(1);
    expect(new Set(receiver.received.map((r) => r.headers['webhook-timestamp'])).size).toBe(3);
    const verifier = new StandardWebhook(created.secret!.slice('whsec_'.length));
    for (const received of receiver.received)
      expect(() => verifier.verify(received.body, headersOf(received))).not.toThrow();
  });

  it('gives up 24 hours after the event, and says so in the log', async () => {
    const created = await create();
    receiver.alwaysAnswer(500);
    await toggle('development', true);
    await h.app.services.integrations.settled();
    const [first] = await h.database.db.select().from(webhookDeliveries);
    for (let round = 0; round < 20; round++) {
      const [row] = await h.database.db
        .select()
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.id, first!.id));
      if (row!.status !== 'pending') break;
      clock.advance(row!.nextAttemptAt!.getTime() - clock.now().getTime());
      await deliverDue();
    }
    const [row] = await h.database.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.id, first!.id));
    expect(row).toMatchObject({ status: 'failed', attempts: 8, responseCode: 500, nextAttemptAt: null });
    expect(row!.lastAttemptAt!.getTime() - row!.createdAt.getTime()).toBeLessThanOrEqual(24 * 60 * 60 * 1000);
    expect(receiver.received).toHaveLength(8);
    expect((await deliveries(created))[0]!.status).toBe('failed');
  });

  it('resends a delivery as a new one with the same body and webhook-id', async () => {
    const created = await create();
    receiver.alwaysAnswer(410);
    await toggle('development', true);
    await h.app.services.integrations.settled();
    const [failed] = await deliveries(created);
    receiver.alwaysAnswer(null);
    const res = await team.admin.call(
      'POST',
      `/api/v1/projects/web/webhooks/deliveries/${failed!.id}/resend`,
    );
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json<WebhookDelivery>()).toMatchObject({
      status: 'pending',
      attempts: 0,
      messageId: failed!.messageId,
    });
    await h.app.services.integrations.settled();
    const log = await deliveries(created);
    expect(log.map((d) => [d.status, d.messageId])).toEqual([
      ['succeeded', failed!.messageId],
      ['pending', failed!.messageId],
    ]);
    expect(receiver.received.at(-1)!.body).toBe(receiver.received[0]!.body);
    expect(
      (await team.outsider.call('POST', `/api/v1/projects/web/webhooks/deliveries/${failed!.id}/resend`))
        .statusCode,
    ).toBe(404);
  });

  it('sends a test delivery at once and answers its outcome', async () => {
    const created = await create();
    const res = await team.admin.call('POST', `/api/v1/projects/web/webhooks/${created.id}/test`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<WebhookDelivery>()).toMatchObject({
      eventType: 'webhook.test',
      status: 'succeeded',
      attempts: 1,
      responseCode: 200,
      error: null,
    });
    const [received] = receiver.received;
    const payload = new StandardWebhook(created.secret!.slice('whsec_'.length)).verify(
      received!.body,
      headersOf(received!),
    );
    expect(payload).toMatchObject({
      type: 'webhook.test',
      data: { webhook: { id: created.id, projectKey: 'web' } },
    });

    receiver.answer(404);
    const failed = await team.admin.call('POST', `/api/v1/projects/web/webhooks/${created.id}/test`);
    expect(failed.json<WebhookDelivery>()).toMatchObject({
      status: 'failed',
      attempts: 1,
      responseCode: 404,
      error: 'HTTP 404.',
      nextAttemptDate: null,
    });
  });

  it('sends nothing for a turned-off webhook or for changes it did not choose', async () => {
    await create({ enabled: false });
    await create({ events: ['feature.deleted'] });
    await toggle('development', true);
    await h.app.services.integrations.settled();
    expect(receiver.received).toEqual([]);
  });

  it('lets instances share due deliveries without sending one twice (FOR UPDATE SKIP LOCKED)', async () => {
    const created = await create();
    const at = clock.now();
    await repo.insertDeliveries(
      h.database.db,
      Array.from({ length: 6 }, (_, n) => ({
        organisationId: team.admin.organisationId,
        webhookId: created.id,
        messageId: `msg_${n}`,
        eventType: 'feature.toggled',
        payload: '{}',
        createdAt: at,
        nextAttemptAt: at,
      })),
    );
    const lease = new Date(at.getTime() + 60_000);
    const [a, b] = await Promise.all([
      repo.claimDueDeliveries(h.database.db, at, lease, 4),
      repo.claimDueDeliveries(h.database.db, at, lease, 4),
    ]);
    const ids = [...a!, ...b!].map((d) => d.messageId);
    expect(ids).toHaveLength(6);
    expect(new Set(ids).size).toBe(6);
    expect(await repo.claimDueDeliveries(h.database.db, at, lease, 4)).toEqual([]);
  });
});
