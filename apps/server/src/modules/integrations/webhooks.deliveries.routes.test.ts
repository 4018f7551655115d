import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import type { Webhook, WebhookDelivery } from '@vexil/core';
import { webhookDeliveries } from '../../db/schema/index';
import * as repo from './webhooks.repository';
import { WEBHOOK_RETRY_DELAYS_S } from './webhooks.service';
import {
  setUpWebhookRoutes,
  h,
  team,
  receiver,
  clock,
  deliverDue,
  create,
  deliveries,
  toggle,
  headersOf,
} from './webhooks.routes.fixture';

setUpWebhookRoutes();

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
