/**
 * Every e-mail goes through the durable queue (docs/adr/0023-durable-queue.md), to the real SMTP test
 * server: queued in the transaction of its change, sent once, retried while the mail server is away
 * (each attempt recorded) and not after it refused the message for good, nothing queued by a change
 * rolled back, and no usable pin, key or link left in the jobs table.
 */
import { connect } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { InvitesResult } from '@vexil/core';
import { jobAttempts, jobs } from '../../db/schema/index';
import { secretBoxWithKey } from '../../lib/secret-box';
import { createTeam, type Team } from '../../../test/api';
import { createHarness, randomIp, type Harness, type TestUser } from '../../../test/helpers';
import { testClock } from '../../../test/integrations';
import { startTestMailServer, type ReceivedMail, type TestMailServer } from '../../../test/smtp-server';
import { TEST_SECRETS_KEY } from '../../../test/sso';
import * as queue from '../queue/queue.repository';
import { MAIL_JOB } from './mail-queue';

const RETRY_DELAYS_MS = [100, 300, 1_000, 2_000];
const clock = testClock();

let h: Harness;
let mail: TestMailServer;
let port: number;
let user: TestUser;
let team: Team;

beforeAll(async () => {
  mail = await startTestMailServer();
  port = Number(new URL(mail.url).port);
  h = await createHarness(
    { SMTP_URL: mail.url, MAIL_FROM: 'Vexil <no-reply@vexil.test>' },
    { now: clock.now, mail: { retryDelaysMs: RETRY_DELAYS_MS } },
  );
});
afterAll(async () => {
  await h?.close();
  await mail?.close();
});
beforeEach(async () => {
  await h.app.services.signup.mailsSettled();
  await h.database.reset();
  mail.received.length = 0;
  mail.refuseRecipients(false);
  team = await createTeam(h);
  user = team.admin;
});
afterEach(() => {
  clock.reset();
});

const post = (url: string, body: unknown) =>
  h.app.inject({ method: 'POST', url, remoteAddress: randomIp(), payload: body as object });

/** Lets the queued work run, then waits a little more, so that "nothing more was sent" is observed. */
async function settle() {
  await h.app.services.signup.mailsSettled();
  await new Promise((resolve) => setTimeout(resolve, 300));
}

async function until(check: () => Promise<boolean>, timeoutMs = 10_000) {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('Timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const mailJobs = () => queue.listJobs(h.database.db, MAIL_JOB);
const outcomes = async (jobId: string) =>
  (await queue.listAttempts(h.database.db, jobId)).map((attempt) => attempt.outcome);
/** Everything the jobs and their attempts hold, as text. */
const storedJobs = async () =>
  JSON.stringify([await h.database.db.select().from(jobs), await h.database.db.select().from(jobAttempts)]);

function pinOf(received: ReceivedMail): string {
  return /^(\d{6})$/m.exec(received.message.text ?? '')![1]!;
}
function keyOf(text: string | null | undefined, prefix: 'vxi_' | 'vxr_'): string {
  return new RegExp(`(${prefix}[A-Za-z0-9_-]+)`).exec(text ?? '')![1]!;
}

async function registerEmail(email: string) {
  const res = await post('/api/v1/signup/registeremail', { email, beta: false });
  expect(res.statusCode, res.body).toBe(200);
}

async function invite(email: string): Promise<InvitesResult> {
  const res = await team.admin.call('POST', '/api/v1/invites', [{ email, firstName: 'Ada' }]);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<InvitesResult>();
}

describe('e-mails through the durable queue', () => {
  it('sends a sign-up pin once, from one job whose payload holds neither the pin nor the address', async () => {
    await registerEmail('grace@example.com');
    const [received] = await mail.waitFor(1);
    const pin = pinOf(received!);
    await settle();
    expect(mail.received).toHaveLength(1);

    const [job] = await mailJobs();
    expect(job).toMatchObject({ state: 'done', attempts: 1, payload: { purpose: 'sign-up pin' } });
    expect(await outcomes(job!.id)).toEqual(['done']);
    // The message is sealed with the secret box; nothing else in the job says the pin or the address.
    const { sealed, ...rest } = job!.payload as { sealed: string };
    expect(sealed).toMatch(/^v1:/);
    expect(JSON.stringify(rest)).not.toContain(pin);
    const stored = await storedJobs();
    expect(stored).not.toContain('is your Vexil sign-up pin');
    expect(stored).not.toContain('grace@example.com');
    const opened = secretBoxWithKey(Buffer.from(TEST_SECRETS_KEY, 'hex')).decrypt(sealed, 'mail.message');
    expect(JSON.parse(opened)).toMatchObject({ subject: `${pin} is your Vexil sign-up pin` });
  });

  it('queues a password reset’s e-mail with its key; the jobs table holds no usable key', async () => {
    const res = await post('/api/account/reset_password/init', { email: user.email, domain: user.domain });
    expect(res.statusCode).toBe(204);
    const [received] = await mail.waitFor(1);
    const key = keyOf(received!.message.text, 'vxr_');
    await settle();
    expect(mail.received).toHaveLength(1);
    const [job] = await mailJobs();
    expect(job).toMatchObject({ state: 'done', attempts: 1, payload: { purpose: 'password reset' } });
    expect(await storedJobs()).not.toContain(key);
  });

  it('sends an invitation in the request, once; its key is in no job', async () => {
    const result = await invite('ada@example.com');
    expect(result).toMatchObject({ mail: 'sent', invitations: [{ mail: 'sent', link: null }] });
    const [received] = await mail.waitFor(1);
    await settle();
    expect(mail.received).toHaveLength(1);
    const [job] = await mailJobs();
    expect(job).toMatchObject({ state: 'done', attempts: 1, payload: { purpose: 'invitation' } });
    expect(await storedJobs()).not.toContain(keyOf(received!.message.text, 'vxi_'));
  });

  it('does not retry an e-mail the mail server refused for good (5xx), and records the attempt', async () => {
    mail.refuseRecipients(true);
    const result = await invite('ada@example.com');
    expect(result.invitations[0]).toMatchObject({ mail: 'failed' });
    await settle();
    const [job] = await mailJobs();
    expect(job).toMatchObject({ state: 'failed', attempts: 1 });
    expect(job!.lastError).toContain('(550)');
    expect(await outcomes(job!.id)).toEqual(['failed']);
    expect(mail.received).toHaveLength(0);
  });

  it('queues nothing when the change rolls back, and sends nothing', async () => {
    const message = { to: { name: '', address: 'x@example.com' }, subject: 'Never', text: '-', html: '-' };
    await expect(
      h.database.db.transaction(async (tx) => {
        await h.app.services.mail.enqueue(tx, { purpose: 'welcome', organisationId: null, message });
        throw new Error('The change failed after its e-mail was queued');
      }),
    ).rejects.toThrow('The change failed');
    // An invitation refused (an active member's address) queues none either.
    const refused = await team.admin.call('POST', '/api/v1/invites', [
      { email: 'new@example.com' },
      { email: team.editor.email },
    ]);
    expect(refused.statusCode).toBe(409);
    await settle();
    expect(await mailJobs()).toEqual([]);
    expect(mail.received).toHaveLength(0);
  });

  it('sends a mail queued for a request that stopped before its first attempt, once its grace has passed', async () => {
    const message = { to: { name: '', address: 'late@example.com' }, subject: 'Late', text: '-', html: '-' };
    await h.app.services.mail.enqueue(h.database.db, {
      purpose: 'invitation',
      organisationId: null,
      message,
      firstAttemptInline: true,
    });
    await settle();
    expect(mail.received).toHaveLength(0);
    clock.advance(2 * 60 * 1000 + 1_000);
    h.app.services.queue.wake();
    await mail.waitFor(1);
    await settle();
    expect(mail.received.map((m) => m.message.subject)).toEqual(['Late']);
  });

  describe('while the mail server is down', () => {
    beforeEach(async () => {
      await mail.close();
    });
    afterEach(async () => {
      // Up again for the next test, whatever this one did.
      if (!(await reachable())) mail = await startTestMailServer({ port });
    });
    const reachable = () =>
      new Promise<boolean>((resolve) => {
        const socket = connect(port, '127.0.0.1');
        socket.once('connect', () => {
          socket.destroy();
          resolve(true);
        });
        socket.once('error', () => resolve(false));
      });

    it('retries a sign-up pin until the server is back, and records each attempt', async () => {
      await registerEmail('grace@example.com');
      await until(async () => (await mailJobs())[0]?.lastError != null);
      const [waiting] = await mailJobs();
      expect(waiting!.lastError).toBe('the mail server could not be reached');
      expect(mail.received).toHaveLength(0);

      mail = await startTestMailServer({ port });
      const [received] = await mail.waitFor(1);
      expect(received!.to).toEqual(['grace@example.com']);
      await settle();
      expect(mail.received).toHaveLength(1);
      const [job] = await mailJobs();
      expect(job!.state).toBe('done');
      const recorded = await outcomes(job!.id);
      expect(recorded.at(-1)).toBe('done');
      expect(recorded.slice(0, -1)).toEqual(recorded.slice(0, -1).map(() => 'retry'));
      expect(recorded.length).toBeGreaterThanOrEqual(2);
    });

    it('answers that an invitation could not be sent, with its link, and delivers that link once the server is back', async () => {
      const result = await invite('ada@example.com');
      expect(result.mail).toBe('failed');
      expect(result.message).toContain('could not be sent: the mail server could not be reached.');
      const link = result.invitations[0]!.link;
      expect(link).toMatch(/\/invited\/vxi_/);

      mail = await startTestMailServer({ port });
      const [received] = await mail.waitFor(1);
      expect(received!.message.text).toContain(link!);
      await settle();
      const [job] = await mailJobs();
      expect(job!.state).toBe('done');
      expect((await outcomes(job!.id)).slice(0, 1)).toEqual(['retry']);
    });

    it('does not send an invitation replaced meanwhile', async () => {
      const first = await invite('ada@example.com');
      expect(first.mail).toBe('failed');
      // Invited again, a new key: the first e-mail, still queued, is no longer wanted.
      const again = await invite('ada@example.com');
      expect(again.invitations[0]).toMatchObject({ mail: 'failed', resent: true });

      mail = await startTestMailServer({ port });
      await mail.waitFor(1);
      await settle();
      expect(mail.received).toHaveLength(1);
      expect(mail.received[0]!.message.text).toContain(again.invitations[0]!.link!);
      const states = (await mailJobs()).map((job) => [job.state, job.lastError]);
      expect(states).toEqual([
        ['failed', 'Not sent: the e-mail is no longer wanted (replaced, used or cancelled).'],
        ['done', null],
      ]);
    });
  });
});

describe('without a mail server', () => {
  let bare: Harness;
  beforeAll(async () => {
    bare = await createHarness();
  });
  afterAll(async () => {
    await bare?.close();
  });

  it('queues no e-mail: an invitation answers its link to copy', async () => {
    const admin = await createTeam(bare);
    const res = await admin.admin.call('POST', '/api/v1/invites', [{ email: 'ada@example.com' }]);
    expect(res.json<InvitesResult>()).toMatchObject({ mail: 'not_configured' });
    const pin = await bare.app.inject({
      method: 'POST',
      url: '/api/v1/signup/registeremail',
      remoteAddress: randomIp(),
      payload: { email: 'grace@example.com', beta: false },
    });
    expect(pin.statusCode).toBe(200);
    await bare.app.services.queue.settled();
    expect(await queue.listJobs(bare.database.db, MAIL_JOB)).toEqual([]);
  });
});
