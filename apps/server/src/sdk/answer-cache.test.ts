/**
 * The cache of recent SDK answers (JS client evaluate, OFREP bulk): a cached answer is always the one
 * a fresh evaluation gives, a change invalidates it, answers that depend on the clock are never
 * cached, and the cache stays within its bounds.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  clientRules,
  evaluate,
  type Environment,
  type EvaluableControl,
  type EvaluationUser,
  type Feature,
  type Rule,
} from '@vexil/core';
import { createTeam, type Team } from '../../test/api';
import { createFeature, otherwise, rule } from '../../test/features';
import { createHarness, type Harness } from '../../test/helpers';
import { base64User, saveControl, sdkFixture } from '../../test/sdk';
import { createAnswerCache } from './answer-cache';

describe('the answer cache’s bounds', () => {
  const answer = (size: number, etag?: string) => ({
    body: Buffer.alloc(size, 'x'),
    ...(etag ? { etag } : {}),
  });

  it('keeps at most maxEntries answers, the most recently used', () => {
    const cache = createAnswerCache({ maxEntries: 3, maxBytes: 1_000_000, maxEntryBytes: 10_000 });
    for (const input of ['a', 'b', 'c']) cache.set('v1', input, answer(10));
    expect(cache.get('v1', 'a')).toBeDefined();
    cache.set('v1', 'd', answer(10));
    expect(cache.size().entries).toBe(3);
    // `b` was the least recently used: `a` was just read.
    expect(cache.get('v1', 'b')).toBeUndefined();
    expect(['a', 'c', 'd'].every((input) => cache.get('v1', input))).toBe(true);
  });

  it('keeps at most maxBytes, and never stores an answer over maxEntryBytes', () => {
    const cache = createAnswerCache({ maxEntries: 1_000, maxBytes: 2_000, maxEntryBytes: 800 });
    cache.set('v1', 'big', answer(900));
    expect(cache.get('v1', 'big')).toBeUndefined();
    for (let i = 0; i < 20; i++) {
      cache.set('v1', `user-${i}`, answer(300, '"etag"'));
      expect(cache.size().bytes).toBeLessThanOrEqual(2_000);
    }
    expect(cache.size().entries).toBeGreaterThan(0);
    expect(cache.get('v1', 'user-19')?.etag).toBe('"etag"');
    expect(cache.get('v1', 'user-0')).toBeUndefined();
  });

  it('stays within both bounds whatever it is given, and gives back what it was given (property)', () => {
    const limits = { maxEntries: 20, maxBytes: 4_000, maxEntryBytes: 1_000 };
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.record({
              op: fc.constant('set' as const),
              version: fc.constantFrom('v1', 'v2', 'v3'),
              input: fc.string({ maxLength: 40 }),
              size: fc.nat({ max: 1_200 }),
            }),
            fc.record({ op: fc.constant('drop' as const), version: fc.constantFrom('v1', 'v2', 'v3') }),
          ),
        ),
        (ops) => {
          const cache = createAnswerCache(limits);
          for (const op of ops) {
            if (op.op === 'drop') {
              cache.dropVersion(op.version);
              expect(cache.get(op.version, '')).toBeUndefined();
              continue;
            }
            const stored = answer(op.size);
            cache.set(op.version, op.input, stored);
            const found = cache.get(op.version, op.input);
            if (found) expect(found).toBe(stored);
            const { entries, bytes } = cache.size();
            expect(entries).toBeLessThanOrEqual(limits.maxEntries);
            expect(bytes).toBeLessThanOrEqual(limits.maxBytes);
          }
        },
      ),
    );
  });

  it('admits inputs the second time they are asked, remembering at most maxEntries first sightings', () => {
    const cache = createAnswerCache({ maxEntries: 3, maxBytes: 10_000, maxEntryBytes: 1_000 });
    expect(cache.admit('v1', 'a')).toBe(false);
    expect(cache.admit('v1', 'a')).toBe(true);
    // Another version is another input.
    expect(cache.admit('v2', 'a')).toBe(false);
    for (const input of ['b', 'c', 'd']) expect(cache.admit('v1', input)).toBe(false);
    // 'v2 a' was the oldest of four first sightings: forgotten, so first again.
    expect(cache.admit('v2', 'a')).toBe(false);
    expect(cache.admit('v1', 'd')).toBe(true);
  });

  it('drops a superseded version’s answers at once', () => {
    const cache = createAnswerCache();
    cache.set('v1', 'a', answer(10));
    cache.set('v1', 'b', answer(10));
    cache.set('v2', 'a', answer(10));
    cache.dropVersion('v1');
    expect(cache.get('v1', 'a')).toBeUndefined();
    expect(cache.get('v2', 'a')).toBeDefined();
    expect(cache.size()).toMatchObject({ entries: 1, versions: 1 });
  });
});

let h: Harness;
let team: Team;
let development: Environment;
/** The harness's clock: OFREP evaluates date and hour rules with it. */
let clock = new Date('2026-03-02T08:30:00Z');

beforeAll(async () => {
  h = await createHarness({}, { now: () => clock });
});
afterAll(async () => {
  await h.close();
});
beforeEach(async () => {
  await h.database.reset();
  h.app.sdk.store.answers.clear();
  clock = new Date('2026-03-02T08:30:00Z');
  team = await createTeam(h);
  ({ development } = await sdkFixture(team.admin.call));
  await createFeature(team.admin.call, 'web', {
    name: 'Banner',
    key: 'banner',
    variants: [
      { key: 'on', name: 'On' },
      { key: 'off', name: 'Off' },
      { key: 'blue', name: 'Blue', value: { colour: '#00f' } },
    ],
  });
  await save('banner', {
    enabled: true,
    rules: [
      rule('tier', 'equals', ['gold'], [{ variantKey: 'blue', split: 100 }]),
      {
        defaultRule: true,
        audience: null,
        variantSplits: [
          { variantKey: 'on', split: 50 },
          { variantKey: 'off', split: 50 },
        ],
      },
    ],
  });
  await save('checkout', { enabled: true, rules: [rule('country', 'in', ['nz', 'au']), otherwise('off')] });
});

async function feature(key: string): Promise<Feature> {
  return (await team.admin.call('GET', `/api/v1/projects/web/features/${key}`)).json<Feature>();
}

async function save(key: string, changes: { enabled?: boolean; rules?: Rule[] }) {
  await saveControl(team.admin.call, await feature(key), development, changes);
  await h.app.sdk.store.settled();
}

/** The payload as SDKs fetch it: what a fresh evaluation starts from. */
async function payload(): Promise<
  [string, EvaluableControl & { inClientApi: boolean; variants: { key: string; value?: unknown }[] }][]
> {
  const res = await h.app.inject({
    method: 'GET',
    url: '/api/sdk/v1/features',
    headers: { authorization: `Bearer ${development.apiKey}` },
  });
  return Object.entries(res.json());
}

function jsEvaluate(user: unknown, query = '') {
  return h.app.inject({
    method: 'GET',
    url: `/api/js/v1/evaluate/${development.jsApiKey}/user/${base64User(user)}${query}`,
  });
}

/** The JS answer computed here from the payload with core's `clientRules`, at the harness's clock. */
async function freshJs(user: EvaluationUser, keys: readonly string[] | null): Promise<string> {
  const parts: string[] = [];
  for (const [key, control] of await payload()) {
    if (!control.inClientApi || (keys && !keys.includes(key))) continue;
    const values = new Map(control.variants.filter((v) => 'value' in v).map((v) => [v.key, v.value]));
    parts.push(
      `${JSON.stringify(key)}:${JSON.stringify(clientRules(control, user, clock, (v) => values.get(v)))}`,
    );
  }
  return `{${parts.join(',')}}`;
}

function ofrepBulk(body: string, headers: Record<string, string> = {}) {
  return h.app.inject({
    method: 'POST',
    url: '/ofrep/v1/evaluate/flags',
    headers: {
      authorization: `Bearer ${development.apiKey}`,
      'content-type': 'application/json',
      ...headers,
    },
    payload: body,
  });
}

/** The OFREP flags computed here from the payload with core's `evaluate`, at the harness's clock. */
async function freshOfrep(context: Record<string, unknown>) {
  const { targetingKey, ...attributes } = context;
  const user = { id: typeof targetingKey === 'string' ? targetingKey : null, attributes };
  return (await payload()).map(([key, control]) => {
    const result = evaluate(control, user, clock);
    if (result.reason === 'SPLIT' && !(typeof targetingKey === 'string' && targetingKey !== ''))
      return { key, errorCode: 'TARGETING_KEY_MISSING' };
    const value = control.variants.find((v) => v.key === result.variant && 'value' in v);
    const onOff =
      control.variants
        .map((v) => v.key)
        .sort()
        .join() === 'off,on';
    return {
      key,
      variant: result.variant,
      value: value ? value.value : onOff ? result.variant === 'on' : result.variant,
    };
  });
}

const attributes = fc.record(
  {
    tier: fc.constantFrom('gold', 'silver', 1),
    country: fc.constantFrom('nz', 'au', 'fr'),
    'featureflow.hourofday': fc.integer({ min: 0, max: 23 }),
  },
  { requiredKeys: [] },
);

describe('GET /api/js/v1/evaluate: cached answers', () => {
  it('answers a user again from the cache with exactly what a fresh evaluation gives (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('user-1', 'user-2', 'user-3', 'José'),
        attributes,
        fc.constantFrom(null, ['banner'], ['checkout', 'banner'], ['nope']),
        async (id, attrs, keys) => {
          const user = { id, attributes: attrs };
          const query = keys ? `?keys=${encodeURIComponent(keys.join(','))}` : '';
          const expected = await freshJs(user, keys);
          const first = await jsEvaluate(user, query);
          const again = await jsEvaluate(user, query);
          // Stored at the second request (cache.admit), served from the cache at the third.
          const third = await jsEvaluate(user, query);
          expect(first.body).toBe(expected);
          expect(again.body).toBe(expected);
          expect(third.body).toBe(expected);
          expect(again.headers['content-type']).toBe('application/json;charset=UTF-8');
          expect(again.headers['cache-control']).toBe('no-cache');
        },
      ),
      { numRuns: 40 },
    );
    expect(h.app.sdk.store.answers.size().entries).toBeGreaterThan(0);
  });

  it('stores an answer the second time it is asked, serves the third from the cache, and a change invalidates it', async () => {
    const user = { id: 'user-1', attributes: { tier: 'gold', country: 'nz' } };
    const first = await jsEvaluate(user);
    // A user asked about once is remembered, not stored: most such users never come back.
    expect(h.app.sdk.store.answers.size().entries).toBe(0);
    expect((await jsEvaluate(user)).body).toBe(first.body);
    expect(h.app.sdk.store.answers.size().entries).toBe(1);
    expect((await jsEvaluate(user)).body).toBe(first.body);
    expect(h.app.sdk.store.answers.size().entries).toBe(1);
    expect(JSON.parse(first.body)).toMatchObject({
      banner: { rules: [{ variant: 'blue', value: { colour: '#00f' } }] },
    });

    await save('banner', { enabled: false });
    // The previous version's answers are gone at once.
    expect(h.app.sdk.store.answers.size().entries).toBe(0);
    const after = await jsEvaluate(user);
    expect(after.body).toBe(await freshJs(user, null));
    expect(JSON.parse(after.body)).toMatchObject({ banner: { rules: [{ variant: 'off' }] } });
  });

  it('caches answers with hour rules, which the device evaluates: the same at any hour', async () => {
    await save('checkout', {
      rules: [rule('featureflow.hourofday', 'greaterThanOrEqual', [9]), otherwise('off')],
    });
    const user = { id: 'user-1', attributes: {} };
    const early = await jsEvaluate(user);
    expect(early.body).toBe(await freshJs(user, null));
    clock = new Date('2026-03-02T10:30:00Z');
    const later = await jsEvaluate(user);
    expect(later.body).toBe(await freshJs(user, null));
    expect(later.body).toBe(early.body);
    expect(h.app.sdk.store.answers.size().entries).toBe(1);
  });

  it('does not cache a user segment that is not a user', async () => {
    const res = await h.app.inject({
      method: 'GET',
      url: `/api/js/v1/evaluate/${development.jsApiKey}/user/e30x`,
    });
    expect(res.statusCode).toBe(400);
    expect(h.app.sdk.store.answers.size().entries).toBe(0);
  });
});

describe('POST /ofrep/v1/evaluate/flags: cached answers', () => {
  it('answers a context again from the cache with exactly what a fresh evaluation gives, ETag and 304 included (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('user-1', 'user-2', '', undefined),
        attributes,
        async (targetingKey, attrs) => {
          const context = { ...(targetingKey === undefined ? {} : { targetingKey }), ...attrs };
          const body = JSON.stringify({ context });
          const expected = await freshOfrep(context);
          const first = await ofrepBulk(body);
          const again = await ofrepBulk(body);
          expect(first.statusCode).toBe(200);
          expect(again.body).toBe(first.body);
          expect(again.headers.etag).toBe(first.headers.etag);
          expect(again.headers['content-type']).toBe('application/json; charset=utf-8');
          expect(first.json<{ flags: unknown[] }>().flags).toMatchObject(expected);
          const notModified = await ofrepBulk(body, { 'if-none-match': first.headers.etag as string });
          expect(notModified.statusCode).toBe(304);
          expect(notModified.body).toBe('');
        },
      ),
      { numRuns: 30 },
    );
  });

  it('is invalidated by a change, ETag included', async () => {
    const body = JSON.stringify({ context: { targetingKey: 'user-1', tier: 'gold' } });
    const first = await ofrepBulk(body);
    await ofrepBulk(body);
    expect(h.app.sdk.store.answers.size().entries).toBe(1);
    await save('banner', { enabled: false });
    const after = await ofrepBulk(body, { 'if-none-match': first.headers.etag as string });
    expect(after.statusCode).toBe(200);
    expect(after.headers.etag).not.toBe(first.headers.etag);
    expect(after.json<{ flags: unknown[] }>().flags).toMatchObject(
      await freshOfrep({ targetingKey: 'user-1', tier: 'gold' }),
    );
  });

  it('is skipped while a rule reads the clock, so the answer follows the hour', async () => {
    await save('checkout', {
      rules: [rule('featureflow.hourofday', 'greaterThanOrEqual', [9]), otherwise('off')],
    });
    const context = { targetingKey: 'user-1' };
    const body = JSON.stringify({ context });
    const early = await ofrepBulk(body);
    expect(early.json()).toMatchObject({ flags: [{ key: 'banner' }, { key: 'checkout', variant: 'off' }] });
    expect(early.json<{ flags: unknown[] }>().flags).toMatchObject(await freshOfrep(context));
    // Revalidating within the hour confirms the answer; once the hour has passed it does not.
    const etag = early.headers.etag as string;
    expect((await ofrepBulk(body, { 'if-none-match': etag })).statusCode).toBe(304);
    clock = new Date('2026-03-02T10:30:00Z');
    const revalidated = await ofrepBulk(body, { 'if-none-match': etag });
    expect(revalidated.statusCode).toBe(200);
    expect(revalidated.headers.etag).not.toBe(etag);
    const later = await ofrepBulk(body);
    expect(later.json()).toMatchObject({ flags: [{ key: 'banner' }, { key: 'checkout', variant: 'on' }] });
    expect(later.json<{ flags: unknown[] }>().flags).toMatchObject(await freshOfrep(context));
    expect(h.app.sdk.store.answers.size().entries).toBe(0);
    // A date rule too, and the JS answers stay cacheable meanwhile (the device evaluates dates).
    await save('checkout', {
      rules: [rule('featureflow.date', 'after', ['2026-03-02T09:00:00Z']), otherwise('off')],
    });
    expect(h.app.sdk.store.get(development.id)!.readsClock).toEqual({ server: true, client: false });
    // Asked twice, which would store it were it not for the clock.
    await ofrepBulk(body);
    await ofrepBulk(body);
    expect(h.app.sdk.store.answers.size().entries).toBe(0);
    await save('checkout', { rules: [otherwise('on')] });
    expect(h.app.sdk.store.get(development.id)!.readsClock).toEqual({ server: false, client: false });
    await ofrepBulk(body);
    await ofrepBulk(body);
    expect(h.app.sdk.store.answers.size().entries).toBe(1);
  });

  it('does not cache a body that is not a context', async () => {
    expect((await ofrepBulk('{"context":"x"}')).statusCode).toBe(400);
    expect((await ofrepBulk('not json')).statusCode).toBe(400);
    expect(h.app.sdk.store.answers.size().entries).toBe(0);
  });
});
