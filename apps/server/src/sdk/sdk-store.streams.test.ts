/**
 * The SDK store's streams (docs/architecture.md "Scale"): after a patch every stream gets the same frames
 * with exactly what changed, one heartbeat timer beats for all, and a client that reads too slowly is ended.
 */
import { describe, expect, it } from 'vitest';
import net from 'node:net';
import Fastify from 'fastify';
import type { Environment } from '@vexil/core';
import { createFeature, otherwise, rule } from '../../test/features';
import { saveControl, sseReader } from '../../test/sdk';
import { featureflowRoutes } from './featureflow.routes';
import {
  setUpSdkStore,
  h,
  team,
  development,
  production,
  rebuiltFromDatabase,
  feature,
  deleteFeature,
} from './sdk-store.fixture';

setUpSdkStore();

/** The stream routes over the harness's store, on a server of their own with these options. */
async function streamServer(options: { heartbeatMs?: number; slowStreamBytes?: number }) {
  const app = Fastify();
  await app.register(
    featureflowRoutes({
      store: h.app.sdk.store,
      ingestion: h.app.sdk.ingestion,
      register: h.app.services.sdkRegistration,
      now: () => new Date(),
      ...options,
    }),
  );
  return { app, address: await app.listen({ port: 0, host: '127.0.0.1' }) };
}

describe('SSE streams', () => {
  it('get the same frames, with exactly the changed control, and one heartbeat timer beats for all', async () => {
    // A short heartbeat, so that the test sees it.
    const { app, address } = await streamServer({ heartbeatMs: 100 });
    const abort = new AbortController();
    try {
      await createFeature(team.admin.call, 'web', { name: 'Banner', key: 'banner' });
      await h.app.sdk.store.settled();
      const open = async (environment: Environment) => {
        const res = await fetch(`${address}/api/sdk/v1/features`, {
          headers: { authorization: `Bearer ${environment.apiKey}`, accept: 'text/event-stream' },
          signal: abort.signal,
        });
        expect(res.status).toBe(200);
        const reader = sseReader(res.body!);
        const first = await reader.next();
        expect(first.event).toBe('features.updated');
        return reader;
      };
      const streams = [await open(development), await open(development)];
      const other = await open(production);
      /** The next event other than a heartbeat. */
      const next = async (reader: ReturnType<typeof sseReader>) => {
        for (;;) {
          const event = await reader.next();
          if (event.event !== 'message') return event;
        }
      };

      // Heartbeats reach every stream, in the protocol's shape (docs/sdk-protocol.md §3).
      for (const reader of [...streams, other]) {
        const beat = await reader.next();
        expect(beat.event).toBe('message');
        expect(beat.data).toMatch(/^\{"heartbeat":\d+\}$/);
      }

      await saveControl(team.admin.call, await feature('banner'), development, { enabled: true });
      const reference = await rebuiltFromDatabase(development);
      const updates = await Promise.all(streams.map(next));
      expect(updates[0]).toEqual(updates[1]);
      expect(updates[0]!.event).toBe('features.updated');
      expect(updates[0]!.data).toBe(`{"banner":${reference.controls.get('banner')!.json}}`);

      await createFeature(team.admin.call, 'web', { name: 'Zebra', key: 'zebra' });
      const created = await Promise.all(streams.map(next));
      expect(Object.keys(JSON.parse(created[0]!.data) as object)).toEqual(['zebra']);
      expect(created[1]).toEqual(created[0]);
      // Production heard of the new feature, not of development's toggle.
      expect(Object.keys(JSON.parse((await next(other)).data) as object)).toEqual(['zebra']);

      await deleteFeature('banner');
      for (const reader of streams)
        expect(await next(reader)).toEqual({ event: 'features.deleted', data: '["banner"]' });
    } finally {
      abort.abort();
      await app.close();
    }
  });

  it('end a stream whose client leaves too much unread, and keep the others', async () => {
    // A small allowance, so that a few large frames exceed it.
    const { app, address } = await streamServer({ slowStreamBytes: 64 * 1024 });
    const abort = new AbortController();
    const connections = () =>
      new Promise<number>((resolve, reject) =>
        app.server.getConnections((error, count) => (error ? reject(error) : resolve(count))),
      );
    try {
      await createFeature(team.admin.call, 'web', { name: 'Banner', key: 'banner' });
      await h.app.sdk.store.settled();
      // A client that asks for the stream and then never reads.
      const { port } = new URL(address);
      const slow = net.connect(Number(port), '127.0.0.1');
      slow.on('error', () => {});
      slow.write(
        `GET /api/sdk/v1/features HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${development.apiKey}\r\nAccept: text/event-stream\r\n\r\n`,
      );
      slow.pause();
      const res = await fetch(`${address}/api/sdk/v1/features`, {
        headers: { authorization: `Bearer ${development.apiKey}`, accept: 'text/event-stream' },
        signal: abort.signal,
      });
      const reader = sseReader(res.body!);
      await reader.next();
      await expect.poll(connections).toBe(2);
      // Each save sends a frame of about 100 KB; the slow client's share piles up unread.
      const values = Array.from({ length: 1000 }, (_, i) => `${i}-${'x'.repeat(90)}`);
      const banner = await feature('banner');
      let saves = 0;
      while ((await connections()) === 2 && saves < 200) {
        saves += 1;
        await saveControl(team.admin.call, banner, development, {
          enabled: saves % 2 === 0,
          rules: [rule('email', 'in', values), otherwise('off')],
        });
        const update = await reader.next();
        expect(update.event).toBe('features.updated');
      }
      expect(await connections()).toBe(1);
      // The reading stream still gets every change.
      await saveControl(team.admin.call, banner, development, { enabled: true, rules: [otherwise('on')] });
      expect((await reader.next()).event).toBe('features.updated');
      slow.destroy();
    } finally {
      abort.abort();
      await app.close();
    }
  });
});
