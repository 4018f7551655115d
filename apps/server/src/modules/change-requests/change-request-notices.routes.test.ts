/**
 * Who is told of a change request (docs/adr/0024-change-requests.md): reviewers by e-mail when it is
 * submitted, its author when someone else decides on it, the chat channel and outgoing webhooks
 * `change-request.*` through the durable queue. Real SMTP (a loopback server), a fake Slack speaking
 * its webhook API, and a real HTTP receiver.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ChangeRequest } from '@vexil/core';
import { createTeam, type Team } from '../../../test/api';
import { REQUESTS, draftWith, ok, protect } from '../../../test/change-requests';
import { startFakeSlack, type FakeSlack } from '../../../test/fake-slack';
import { createFeature } from '../../../test/features';
import { createHarness, type Harness } from '../../../test/helpers';
import { FAST_INTEGRATIONS, installSlack, integrationsEnv } from '../../../test/integrations';
import { startTestMailServer, type TestMailServer } from '../../../test/smtp-server';

let h: Harness;
let team: Team;
let mail: TestMailServer;
let slack: FakeSlack;
const hooks: { type: string; data: { changeRequest?: { id: string; title: string }; url: string } }[] = [];
const receiver = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    hooks.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
    res.end('thanks');
  });
});

beforeAll(async () => {
  mail = await startTestMailServer();
  slack = await startFakeSlack();
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  h = await createHarness(
    { ...integrationsEnv(slack), SMTP_URL: mail.url, MAIL_FROM: 'Vexil <no-reply@vexil.test>' },
    { integrations: FAST_INTEGRATIONS },
  );
});
afterAll(async () => {
  await h?.close();
  await mail?.close();
  await slack?.close();
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
});
beforeEach(async () => {
  await h.app.services.integrations.settled();
  await h.database.reset();
  team = await createTeam(h);
  await team.admin.call('POST', '/api/v1/projects/', { name: 'Web shop', key: 'web' });
  await createFeature(team.admin.call, 'web', { name: 'Checkout', key: 'checkout' });
  await protect(team.admin.call, 'production');
  await h.app.services.integrations.settled();
  await h.app.services.signup.mailsSettled();
  mail.received.length = 0;
  slack.posts.length = 0;
  hooks.length = 0;
});

/** Waits until the queue has delivered what the last calls triggered. */
async function delivered() {
  await h.app.services.signup.mailsSettled();
  await h.app.services.integrations.settled();
}

const url = (request: ChangeRequest, rest = '') => `${REQUESTS}/${request.id}${rest}`;

describe('notifications of a change request', () => {
  it('asks the members who may approve for a review by e-mail, and tells the author of the decision', async () => {
    const draft = await draftWith(team.productionEditor.call, 'production', { enabled: true });
    await ok(team.productionEditor.call, 'POST', url(draft, '/submit'));
    await delivered();
    // The admin may approve production; the editor may not, and the author is not asked.
    const asked = mail.received.map((m) => ({ to: m.to, subject: m.message.subject }));
    expect(asked).toEqual([{ to: [team.admin.email], subject: 'Review requested: “Launch checkout”' }]);
    const text = mail.received[0]!.message.text ?? '';
    expect(text).toContain(`${team.productionEditor.email} asks for your review`);
    expect(text).toContain(`/projects/web/environments/production/change-requests/${draft.id}`);

    mail.received.length = 0;
    await ok(team.admin.call, 'POST', url(draft, '/reviews'), {
      decision: 'request-changes',
      comment: 'Only on Mondays',
    });
    await delivered();
    expect(mail.received.map((m) => [m.to, m.message.subject])).toEqual([
      [[team.productionEditor.email], 'Changes requested: “Launch checkout”'],
    ]);
    expect(mail.received[0]!.message.text).toContain('Comment: Only on Mondays');
  });

  it('posts each transition to the chat channel and to the webhooks that subscribe to it, linking the request', async () => {
    await installSlack(h, team.admin.call);
    const webhook = await team.admin.call('POST', '/api/v1/projects/web/webhooks', {
      url: `http://localhost:${(receiver.address() as AddressInfo).port}/hooks`,
      description: 'Reviews',
      events: ['change-request.submitted', 'change-request.applied'],
    });
    expect(webhook.statusCode, webhook.body).toBe(201);
    const draft = await draftWith(team.productionEditor.call, 'production', { enabled: true });
    await ok(team.productionEditor.call, 'POST', url(draft, '/submit'));
    await ok(team.admin.call, 'POST', url(draft, '/reviews'), { decision: 'approve' });
    await ok(team.productionEditor.call, 'POST', url(draft, '/apply'));
    await delivered();
    const posts = slack.posts.map((post) => post.body.text ?? '');
    expect(posts).toEqual(
      expect.arrayContaining([
        `${team.productionEditor.email} submitted for review the change request Launch checkout in Production (Web shop).`,
        `${team.admin.email} approved the change request Launch checkout in Production (Web shop).`,
        `${team.productionEditor.email} applied the change request Launch checkout in Production (Web shop).`,
      ]),
    );
    expect(hooks.map((hook) => hook.type).sort()).toEqual([
      'change-request.applied',
      'change-request.submitted',
    ]);
    const applied = hooks.find((hook) => hook.type === 'change-request.applied')!;
    expect(applied.data.changeRequest).toEqual({ id: draft.id, title: 'Launch checkout' });
    expect(applied.data.url).toContain(`/environments/production/change-requests/${draft.id}`);
    // The author applied it: nobody is mailed about their own action.
    // (Mails are separate jobs: they may arrive in either order.)
    expect(mail.received.map((m) => m.message.subject).sort()).toEqual([
      'Approved: “Launch checkout”',
      'Review requested: “Launch checkout”',
    ]);
  });
});
