/**
 * Two server instances on one PostgreSQL: a change made through one reaches the SDK streams of the
 * other through LISTEN/NOTIFY (docs/architecture.md "Scale"). Runs in the PostgreSQL project only.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { LIVE_SESSION_ENDED } from '../src/modules/live/live.hub';
import { createTeam, type Team } from './api';
import { bearer, createHarness, secondInstance, type Harness, type TestApp } from './helpers';
import { connectLive, wsAddress } from './live';
import { saveControl, sdkFixture, sseReader } from './sdk';

let h: Harness;
let team: Team;
let second: TestApp;

beforeAll(async () => {
  h = await createHarness();
  expect(h.database.kind).toBe('postgres');
  second = await secondInstance(h);
  team = await createTeam(h);
});
afterAll(async () => {
  await second?.close();
  await h?.close();
});

describe('two instances on one PostgreSQL', () => {
  it('streams from one instance a change saved through the other', async () => {
    const fixture = await sdkFixture(team.admin.call);
    const address = await second.listen({ port: 0, host: '127.0.0.1' });
    const abort = new AbortController();
    try {
      // The second instance learns of the new feature by notification.
      const deadline = Date.now() + 10_000;
      for (;;) {
        const poll = await fetch(`${address}/api/sdk/v1/features`, {
          headers: { authorization: `Bearer ${fixture.development.apiKey}` },
        });
        if (poll.status === 200 && 'checkout' in ((await poll.json()) as object)) break;
        if (Date.now() > deadline) throw new Error('The second instance never saw the feature');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const res = await fetch(`${address}/api/sdk/v1/features`, {
        headers: { authorization: `Bearer ${fixture.development.apiKey}`, accept: 'text/event-stream' },
        signal: abort.signal,
      });
      expect(res.status).toBe(200);
      const events = sseReader(res.body!);
      const first = await events.next();
      expect(JSON.parse(first.data)).toMatchObject({ checkout: { enabled: false } });

      await saveControl(team.admin.call, fixture.checkout, fixture.development, { enabled: true });
      const update = await events.next();
      expect(update.event).toBe('features.updated');
      expect(JSON.parse(update.data)).toMatchObject({ checkout: { key: 'checkout', enabled: true } });
    } finally {
      abort.abort();
    }
  });

  it('patches the other instance’s payload from a change naming its feature, and rebuilds it from a list too long to send', async () => {
    const other = await createTeam(h);
    const fixture = await sdkFixture(other.admin.call);
    const served = async (app: TestApp) =>
      (
        await app.inject({
          method: 'GET',
          url: '/api/sdk/v1/features',
          headers: { authorization: `Bearer ${fixture.development.apiKey}` },
        })
      ).headers.etag;
    await h.app.sdk.store.settled();
    await expect.poll(() => served(second), { timeout: 10_000 }).toBe(await served(h.app));

    const before = second.sdk.store.runs();
    await saveControl(other.admin.call, fixture.checkout, fixture.development, { enabled: true });
    await h.app.sdk.store.settled();
    await expect.poll(() => served(second), { timeout: 10_000 }).toBe(await served(h.app));
    await second.sdk.store.settled();
    expect(second.sdk.store.runs().patches).toBeGreaterThan(before.patches);
    expect(second.sdk.store.runs().rebuilds).toBe(before.rebuilds);

    // 300 ids would pass NOTIFY's 8,000 bytes: the other instance is told to rebuild the environment.
    h.app.services.events.publish({
      type: 'environment.changed',
      organisationId: other.admin.organisationId,
      environmentId: fixture.development.id,
      featureIds: Array.from({ length: 300 }, () => randomUUID()),
    });
    await expect.poll(() => second.sdk.store.runs().rebuilds, { timeout: 10_000 }).toBe(before.rebuilds + 1);
    await second.sdk.store.settled();
    expect(await served(second)).toBe(await served(h.app));
  });

  it('tells a dashboard open on one instance of a change saved through the other', async () => {
    const other = await createTeam(h);
    const fixture = await sdkFixture(other.admin.call);
    const listening = second.server.address();
    const port =
      typeof listening === 'object' && listening
        ? listening.port
        : Number(new URL(await second.listen({ port: 0, host: '127.0.0.1' })).port);
    const socket = new WebSocket(`ws://127.0.0.1:${port}/api/v1/live`, {
      headers: { authorization: `Bearer ${await h.login(other.readOnly)}` },
    });
    const kinds: string[] = [];
    socket.on('message', (data) => {
      const message = JSON.parse(String(data)) as { type: string; change?: { kind: string } };
      kinds.push(message.change?.kind ?? message.type);
    });
    try {
      await expect.poll(() => kinds).toContain('hello');
      await saveControl(other.admin.call, fixture.checkout, fixture.development, { enabled: true });
      await expect.poll(() => kinds, { timeout: 10_000 }).toContain('feature.toggled');
    } finally {
      socket.close();
    }
  });

  it('closes a dashboard open on one instance when its session signs out, or its member is removed, through the other', async () => {
    const other = await createTeam(h);
    const address = wsAddress(await listening(second));
    const token = await h.login(other.editor);
    const signedOut = await connectLive(address, bearer(token));
    const removed = await connectLive(address, bearer(await h.login(other.readOnly)));
    const out = await h.app.inject({ method: 'POST', url: '/api/logout', headers: bearer(token) });
    expect(out.statusCode).toBe(204);
    await expect.poll(() => signedOut.closed()?.code, { timeout: 10_000 }).toBe(LIVE_SESSION_ENDED);
    expect(removed.closed()).toBeNull();

    const deleted = await other.admin.call('DELETE', `/api/v1/users/${other.readOnly.id}`);
    expect(deleted.statusCode).toBe(204);
    await expect.poll(() => removed.closed()?.code, { timeout: 10_000 }).toBe(LIVE_SESSION_ENDED);
  });

  it('tells the other instance of a change, and of a session ended, even when the instance that made it stops right after the commit', async () => {
    const other = await createTeam(h);
    const fixture = await sdkFixture(other.admin.call);
    const checkout = async () => {
      const res = await second.inject({
        method: 'GET',
        url: '/api/sdk/v1/features',
        headers: { authorization: `Bearer ${fixture.development.apiKey}` },
      });
      return res.statusCode === 200
        ? (res.json() as { checkout?: { enabled: boolean } }).checkout
        : undefined;
    };
    await expect.poll(checkout, { timeout: 10_000 }).toMatchObject({ enabled: false });
    const token = await h.login(other.editor);
    const dashboard = await connectLive(wsAddress(await listening(second)), bearer(token));

    // The first instance runs nothing after its commits, as if it stopped there: nothing is published
    // on it, so only what was sent in the transactions themselves reaches the second.
    const { events } = h.app.services;
    const publish = events.publish;
    events.publish = () => {};
    try {
      await saveControl(other.admin.call, fixture.checkout, fixture.development, { enabled: true });
      await expect.poll(checkout, { timeout: 10_000 }).toMatchObject({ enabled: true });
      const out = await h.app.inject({ method: 'POST', url: '/api/logout', headers: bearer(token) });
      expect(out.statusCode).toBe(204);
      await expect.poll(() => dashboard.closed()?.code, { timeout: 10_000 }).toBe(LIVE_SESSION_ENDED);
    } finally {
      events.publish = publish;
    }
  });
});

/** The address an app listens at, starting it listening if it is not yet. */
async function listening(app: TestApp): Promise<string> {
  const bound = app.server.address();
  if (typeof bound === 'object' && bound) return `http://127.0.0.1:${bound.port}`;
  return app.listen({ port: 0, host: '127.0.0.1' });
}
