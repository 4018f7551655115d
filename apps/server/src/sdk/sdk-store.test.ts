/**
 * The SDK store's patches (docs/architecture.md "Scale"): a change naming its features re-reads only
 * those, and must serve exactly what a full rebuild from the database would, tell the streams exactly
 * what changed, and lose nothing when changes arrive together.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import net from 'node:net';
import Fastify from 'fastify';
import type { Environment, Feature, Rule } from '@vexil/core';
import { createTeam, type Team } from '../../test/api';
import { controlBody, createFeature, otherwise, rule } from '../../test/features';
import { createHarness, type Harness } from '../../test/helpers';
import { saveControl, sdkFixture, sseReader } from '../../test/sdk';
import { createChangeEvents } from '../lib/change-events';
import { featureflowRoutes } from './featureflow.routes';
import { compareKeys, createSdkStore, type EnvironmentSnapshot, type SnapshotChange } from './sdk-store';

let h: Harness;
let team: Team;
let development: Environment;
let production: Environment;

beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h.close();
});
beforeEach(async () => {
  await h.database.reset();
  team = await createTeam(h);
  ({ development, production } = await sdkFixture(team.admin.call));
  await h.app.sdk.store.settled();
});

/** What a store built afresh from the database serves for this environment: the reference. */
async function rebuiltFromDatabase(environment: Environment): Promise<EnvironmentSnapshot> {
  const fresh = createSdkStore({
    db: h.database.db,
    events: createChangeEvents(() => {}),
    logger: h.app.log,
  });
  const snapshot = await fresh.find(environment.apiKey);
  if (!snapshot) throw new Error(`No payload for ${environment.key}`);
  return snapshot;
}

async function poll(environment: Environment) {
  const res = await h.app.inject({
    method: 'GET',
    url: '/api/sdk/v1/features',
    headers: { authorization: `Bearer ${environment.apiKey}` },
  });
  expect(res.statusCode).toBe(200);
  return { body: res.body, etag: res.headers.etag as string };
}

/** Serves what a full rebuild gives: the same bytes, ETag, rows, experiments and clock use. */
async function expectAsRebuilt(environment: Environment) {
  const served = await poll(environment);
  const reference = await rebuiltFromDatabase(environment);
  expect(served.body).toBe(reference.body);
  expect(served.etag).toBe(reference.etag);
  const inMemory = h.app.sdk.store.get(reference.keys.environmentId)!;
  const rows = (snapshot: EnvironmentSnapshot) =>
    [...snapshot.controls].map(([key, entry]) => [key, entry.controlId, entry.featureId, entry.keyJson]);
  expect(rows(inMemory)).toEqual(rows(reference));
  expect([...inMemory.experiments.byFeature.keys()]).toEqual([...reference.experiments.byFeature.keys()]);
  expect([...inMemory.experiments.byGoal.keys()]).toEqual([...reference.experiments.byGoal.keys()]);
  expect(inMemory.readsClock).toEqual(reference.readsClock);
  return served;
}

async function feature(key: string): Promise<Feature> {
  const res = await team.admin.call('GET', `/api/v1/projects/web/features/${key}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Feature>();
}

async function deleteFeature(key: string) {
  const { id } = await feature(key);
  const res = await team.admin.call('DELETE', `/api/v1/project/web/features/${id}/`);
  expect(res.statusCode, res.body).toBeLessThan(300);
}

/** Sets the `on` variant's name and value through the feature's settings (every environment's payload). */
async function editVariants(key: string, name: string, value: unknown) {
  const current = await feature(key);
  const res = await team.admin.call('PUT', '/api/v1/projects/web/features', {
    ...current,
    maintainerId: null,
    variants: current.variants.map((v) =>
      v.key === 'on' ? { key: 'on', name, ...(value === undefined ? {} : { value }) } : v,
    ),
  });
  expect(res.statusCode, res.body).toBe(200);
}

const RULES: Record<string, Rule[]> = {
  gold: [rule('tier', 'equals', ['gold']), otherwise('off')],
  split: [
    {
      defaultRule: true,
      audience: null,
      variantSplits: [
        { variantKey: 'on', split: 30 },
        { variantKey: 'off', split: 70 },
      ],
    },
  ],
  morning: [rule('featureflow.hourofday', 'lessThan', [12]), otherwise('off')],
  all: [otherwise('on')],
};

type Operation =
  | { kind: 'toggle' | 'target'; feature: number; environment: 'development' | 'production'; rules: string }
  | { kind: 'create'; key: string }
  | { kind: 'delete'; feature: number }
  | { kind: 'variants'; feature: number; name: string; value: unknown };

const KEYS = ['a', 'checkout', 'm-1', 'zz', 'b-b', '0'];
const operation: fc.Arbitrary<Operation> = fc.oneof(
  fc.record({
    kind: fc.constantFrom('toggle' as const, 'target' as const),
    feature: fc.nat(),
    environment: fc.constantFrom('development' as const, 'production' as const),
    rules: fc.constantFrom(...Object.keys(RULES)),
  }),
  fc.record({ kind: fc.constant('create' as const), key: fc.constantFrom(...KEYS) }),
  fc.record({ kind: fc.constant('delete' as const), feature: fc.nat() }),
  fc.record({
    kind: fc.constant('variants' as const),
    feature: fc.nat(),
    name: fc.constantFrom('On', 'Yes', 'Ünïcode ✓'),
    value: fc.constantFrom(undefined, 1, 'x', { colour: '#00f', size: [1, 2] }),
  }),
);

/** Runs one operation through the dashboard API; the live features' keys are kept in `live`. */
async function perform(op: Operation, live: string[]) {
  const pick = (index: number) => live[index % live.length]!;
  if (op.kind === 'create') {
    if (live.includes(op.key)) return;
    await createFeature(team.admin.call, 'web', { name: `Feature ${op.key}`, key: op.key });
    live.push(op.key);
    return;
  }
  if (live.length === 0) return;
  const key = pick(op.feature);
  if (op.kind === 'delete') {
    await deleteFeature(key);
    live.splice(live.indexOf(key), 1);
  } else if (op.kind === 'variants') {
    await editVariants(key, op.name, op.value);
  } else {
    const current = await feature(key);
    const environment = op.environment === 'development' ? development : production;
    await saveControl(
      team.admin.call,
      current,
      environment,
      op.kind === 'toggle'
        ? { enabled: !current.controls[environment.key]!.enabled }
        : { rules: RULES[op.rules]! },
    );
  }
}

describe('patching a payload after a change of some features', () => {
  it('serves exactly what a full rebuild would, its ETag changing iff its body does, and tells the streams exactly what changed (property)', async () => {
    const store = h.app.sdk.store;
    const live = ['checkout'];
    const environments = [development, production];
    const changes = new Map<string, SnapshotChange[]>(environments.map((e) => [e.id, []]));
    const stops = environments.map((e) => store.listen(e.id, (change) => changes.get(e.id)!.push(change)));
    const previous = new Map<string, { body: string; etag: string }>();
    for (const environment of environments) previous.set(environment.key, await poll(environment));
    const rebuildsBefore = store.runs().rebuilds;
    await fc.assert(
      fc.asyncProperty(fc.array(operation, { minLength: 1, maxLength: 8 }), async (ops) => {
        for (const op of ops) {
          await perform(op, live);
          await store.settled();
          for (const environment of environments) {
            const served = await expectAsRebuilt(environment);
            const before = previous.get(environment.key)!;
            // The ETag changes if and only if the body does.
            expect(served.etag === before.etag).toBe(served.body === before.body);
            // The streams learn exactly the controls whose JSON changed or arrived, and those that left.
            const seen = changes.get(environment.id)!.splice(0);
            const was = JSON.parse(before.body) as Record<string, unknown>;
            const now = JSON.parse(served.body) as Record<string, unknown>;
            const changed = Object.keys(now).filter(
              (key) => JSON.stringify(now[key]) !== JSON.stringify(was[key]),
            );
            const left = Object.keys(was).filter((key) => !(key in now));
            if (served.body === before.body) expect(seen).toEqual([]);
            else {
              expect(seen).toHaveLength(1);
              expect(seen[0]!.updated.map((entry) => entry.control.key).sort()).toEqual(changed.sort());
              for (const entry of seen[0]!.updated)
                expect(JSON.parse(entry.json)).toEqual(now[entry.control.key]);
              expect([...seen[0]!.deleted].sort()).toEqual(left.sort());
              expect(seen[0]!.snapshot.etag).toBe(served.etag);
            }
            previous.set(environment.key, served);
          }
        }
      }),
      { numRuns: 12 },
    );
    for (const stop of stops) stop();
    // Every one of those changes named its feature: none needed a full rebuild.
    expect(store.runs().rebuilds).toBe(rebuildsBefore);
    expect(store.runs().patches).toBeGreaterThan(0);
  });

  it('places a new feature in the payload’s key order, as the database sorts keys', async () => {
    for (const key of ['zz', 'a', 'checkoutz', 'check', '0-0', 'check-out']) {
      await createFeature(team.admin.call, 'web', { name: key, key });
      await h.app.sdk.store.settled();
      await expectAsRebuilt(development);
    }
    expect(Object.keys(JSON.parse((await poll(development)).body) as object)).toEqual([
      '0-0',
      'a',
      'check',
      'check-out',
      'checkout',
      'checkoutz',
      'zz',
    ]);
  });

  it('orders keys by code point, as PostgreSQL’s "C" collation orders UTF-8', () => {
    const keys = ['b', 'a', 'ab', '', 'é', '\u{1F600}', '\uFFFD', 'Z', 'a-b', 'a_b'];
    const byBytes = [...keys].sort((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y)));
    expect([...keys].sort(compareKeys)).toEqual(byBytes);
  });

  it('loses no change when many arrive together, whatever they are', async () => {
    const keys = Array.from({ length: 10 }, (_, i) => `f-${i}`);
    for (const key of keys) await createFeature(team.admin.call, 'web', { name: key, key });
    await h.app.sdk.store.settled();
    const features = await Promise.all(keys.map((key) => feature(key)));
    const rebuildsBefore = h.app.sdk.store.runs().rebuilds;
    await Promise.all([
      ...features.map((f) => saveControl(team.admin.call, f, development, { enabled: true })),
      ...features.slice(0, 4).map((f) => saveControl(team.admin.call, f, production, { rules: RULES.gold! })),
      createFeature(team.admin.call, 'web', { name: 'New', key: 'new' }),
      deleteFeature('checkout'),
      editVariants('f-9', 'Yes', { n: 1 }),
      // A change of the environment itself: a full rebuild, which absorbs the patches waiting.
      team.admin
        .call('POST', `/api/v1/environments/${development.id}/keys/js/rotate`)
        .then((res) => expect(res.statusCode, res.body).toBe(200)),
    ]);
    await h.app.sdk.store.settled();
    await expectAsRebuilt(development);
    await expectAsRebuilt(production);
    expect(h.app.sdk.store.runs().rebuilds).toBeGreaterThan(rebuildsBefore);
    const served = JSON.parse((await poll(development)).body) as Record<string, { enabled: boolean }>;
    expect(Object.keys(served)).toEqual([...keys, 'new']);
    expect(keys.every((key) => served[key]!.enabled)).toBe(true);
  });

  it('keeps a deleted environment deleted, whatever was under way when it went', async () => {
    const control = (await feature('checkout')).controls.production!;
    // Saves that may come before or after the deletion (a 404 then): whichever, the key stays refused.
    const save = (changes: Parameters<typeof controlBody>[1]) =>
      team.admin.call('PUT', '/api/v1/feature-controls/', controlBody(control, changes));
    await Promise.all([
      save({ enabled: true }),
      editVariants('checkout', 'Yes', 2),
      team.admin.call('DELETE', `/api/v1/environments/${production.id}`),
      save({ rules: RULES.split! }),
    ]);
    await h.app.sdk.store.settled();
    const res = await h.app.inject({
      method: 'GET',
      url: '/api/sdk/v1/features',
      headers: { authorization: `Bearer ${production.apiKey}` },
    });
    expect(res.statusCode).toBe(401);
    expect(h.app.sdk.store.get(production.id)).toBeUndefined();
    await expectAsRebuilt(development);
  });

  it('keeps the running experiments right when a feature with one is deleted', async () => {
    await createFeature(team.admin.call, 'web', { name: 'Other', key: 'other' });
    const checkout = await feature('checkout');
    const res = await team.admin.call('POST', '/api/v1/experiments/', {
      projectKey: 'web',
      environmentKey: 'development',
      name: 'Button',
      description: '',
      goalKey: 'Purchase Made',
      featureId: checkout.id,
      control: 'off',
      variation: 'on',
      enabled: true,
    });
    expect(res.statusCode, res.body).toBe(201);
    await h.app.sdk.store.settled();
    const id = development.id;
    expect([...h.app.sdk.store.get(id)!.experiments.byFeature.keys()]).toEqual(['checkout']);
    await deleteFeature('checkout');
    await h.app.sdk.store.settled();
    await expectAsRebuilt(development);
    expect(h.app.sdk.store.get(id)!.experiments.byFeature.size).toBe(0);
    // Created again under the same key: a new feature, without the old one's experiment.
    await createFeature(team.admin.call, 'web', { name: 'Checkout', key: 'checkout' });
    await h.app.sdk.store.settled();
    await expectAsRebuilt(development);
    expect(h.app.sdk.store.get(id)!.experiments.byFeature.size).toBe(0);
  });
});

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
