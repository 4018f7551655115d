/**
 * The SDK store's patches (docs/architecture.md "Scale"): a change naming its features re-reads only
 * those, and must serve exactly what a full rebuild from the database would, tell the streams exactly
 * what changed, and lose nothing when changes arrive together.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Rule } from '@vexil/core';
import { controlBody, createFeature, otherwise, rule } from '../../test/features';
import { saveControl } from '../../test/sdk';
import { compareKeys, type SnapshotChange } from './sdk-store';
import {
  setUpSdkStore,
  h,
  team,
  development,
  production,
  poll,
  expectAsRebuilt,
  feature,
  deleteFeature,
  editVariants,
} from './sdk-store.fixture';

setUpSdkStore();

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
