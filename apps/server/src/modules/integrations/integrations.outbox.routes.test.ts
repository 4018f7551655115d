/**
 * Changes pass their side effects on through the durable queue (docs/adr/0023-durable-queue.md): one
 * change job written with the change, whose fan-out queues the webhook deliveries and one job per Slack
 * post, retried in the queue with their attempts recorded.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Webhook, WebhookDelivery } from '@vexil/core';
import { createFeature } from '../../../test/features';
import { installSlack } from '../../../test/integrations';
import * as queue from '../queue/queue.repository';
import { CHANGE_JOB, SLACK_POST_JOB } from './change-jobs';
import { JIRA_COMMENT_JOB } from './jira-issues';
import {
  fixture,
  h,
  setUpIntegrationRoutes,
  settled,
  slack,
  team,
  texts,
  toggle,
} from './integrations.routes.fixture';

setUpIntegrationRoutes();

/** A webhook receiver that answers 200 and keeps what it was sent. */
const received: { headers: IncomingHttpHeaders; body: string }[] = [];
const receiver = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
    res.end('thanks');
  });
});
let receiverUrl = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://localhost:${(receiver.address() as AddressInfo).port}/hooks`;
});
afterAll(async () => {
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
});

async function createWebhook(events: string[]): Promise<Webhook> {
  const res = await team.admin.call('POST', '/api/v1/projects/web/webhooks', {
    url: receiverUrl,
    description: 'Outbox',
    events,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<Webhook>();
}

/** The jobs of one kind of this test's organisation. */
async function jobsOf(kind: string) {
  return (await queue.listJobs(h.database.db, kind)).filter(
    (job) => job.organisationId === team.admin.organisationId,
  );
}

describe('side effects of a change, through the durable queue', () => {
  it('delivers a toggle’s webhook once, with its webhook-id, from one change job', async () => {
    received.length = 0;
    const webhook = await createWebhook(['feature.toggled']);
    await toggle(fixture.checkout, 'development', true);
    await settled();

    // The fixture's features were created before: their change jobs are there too.
    const toggles = (await jobsOf(CHANGE_JOB)).filter(
      (job) => (job.payload as { change: { kind: string } }).change.kind === 'feature.toggled',
    );
    expect(toggles).toMatchObject([{ state: 'done', attempts: 1 }]);
    const res = await team.admin.call('GET', `/api/v1/projects/web/webhooks/${webhook.id}/deliveries`);
    const deliveries = res.json<WebhookDelivery[]>();
    expect(deliveries).toMatchObject([{ eventType: 'feature.toggled', status: 'succeeded', attempts: 1 }]);
    expect(received).toHaveLength(1);
    expect(received[0]!.headers['webhook-id']).toBe(deliveries[0]!.messageId);
  });

  it('retries a Slack post that failed with 503 from the queue, and records its attempts', async () => {
    await installSlack(h, team.admin.call);
    slack.failNext({ status: 503 });
    await toggle(fixture.checkout, 'development', true);
    await settled();

    expect(texts()).toEqual([`${team.admin.email} turned on Checkout in Development (Web shop).`]);
    const [post] = await jobsOf(SLACK_POST_JOB);
    expect(post).toMatchObject({ state: 'done', attempts: 2 });
    const attempts = await queue.listAttempts(h.database.db, post!.id);
    expect(attempts.map((attempt) => attempt.outcome)).toEqual(['retry', 'done']);
    expect(attempts[0]!.error).toContain('HTTP 503');
    // The message is stored, the channel's webhook URL (a credential) is not.
    expect(JSON.stringify(post!.payload)).not.toContain('/services/');
  });

  it('marks a Slack post failed after its last retry, with every attempt recorded', async () => {
    await installSlack(h, team.admin.call);
    slack.failNext({ status: 500 }, { status: 502 }, { status: 503 }, { status: 500 });
    await toggle(fixture.checkout, 'development', true);
    await settled();

    expect(slack.posts).toEqual([]);
    const [post] = await jobsOf(SLACK_POST_JOB);
    expect(post).toMatchObject({ state: 'failed', attempts: 4 });
    expect(post!.lastError).toContain('HTTP 500');
    expect((await queue.listAttempts(h.database.db, post!.id)).map((attempt) => attempt.outcome)).toEqual([
      'retry',
      'retry',
      'retry',
      'failed',
    ]);
  });

  it('writes a change job with a change, and none for a change refused', async () => {
    const before = await jobsOf(CHANGE_JOB);
    const taken = await team.admin.call('POST', '/api/v1/projects/web/features', {
      name: 'Again',
      key: 'checkout',
    });
    expect(taken.statusCode).toBe(400);
    await settled();
    expect(await jobsOf(CHANGE_JOB)).toHaveLength(before.length);

    await createFeature(team.admin.call, 'web', { name: 'Search', key: 'search' });
    await settled();
    const after = await jobsOf(CHANGE_JOB);
    expect(after).toHaveLength(before.length + 1);
    expect(after.at(-1)).toMatchObject({
      state: 'done',
      payload: { change: { kind: 'feature.created', featureKey: 'search' } },
    });
    // A feature linked to no issue comments on none.
    expect(await jobsOf(JIRA_COMMENT_JOB)).toEqual([]);
  });
});
