/**
 * One SDK answer path: each request below goes once to the fast path (fast-path.ts) and once, with a
 * trailing slash or an empty `keys`, to the Fastify route, over real HTTP, and both answers must be
 * the same (status, the headers a client reads, body), odd inputs included. Where the fast path
 * should answer by itself, the test checks it did: the route looks the key up with `find`, the fast
 * path only peeks.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Environment } from '@vexil/core';
import { createTeam } from '../../test/api';
import { otherwise, rule } from '../../test/features';
import { createHarness, type Harness } from '../../test/helpers';
import { base64User, saveControl, sdkFixture } from '../../test/sdk';

let h: Harness;
let development: Environment;
let production: Environment;
let address: string;

beforeAll(async () => {
  h = await createHarness();
  await h.database.reset();
  const team = await createTeam(h);
  let checkout;
  ({ development, production, checkout } = await sdkFixture(team.admin.call));
  await saveControl(team.admin.call, checkout, development, {
    enabled: true,
    rules: [
      rule('tier', 'equals', ['gold']),
      {
        ...otherwise(),
        variantSplits: [
          { variantKey: 'off', split: 50 },
          { variantKey: 'on', split: 50 },
        ],
      },
    ],
  });
  await h.app.sdk.store.settled();
  address = await h.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await h.close();
});

type Answer = { status: number; headers: Record<string, string>; body: string };

async function answer(
  path: string,
  headers: Record<string, string>,
  init: RequestInit = {},
): Promise<Answer> {
  const res = await fetch(`${address}${path}`, { headers, ...init });
  const kept = [...res.headers.entries()].filter(
    ([name]) => !['date', 'connection', 'keep-alive'].includes(name),
  );
  return { status: res.status, headers: Object.fromEntries(kept), body: await res.text() };
}

/**
 * The same request to the fast path's address and to the route's; expects the same answer, and
 * whether the fast path answered it itself (no `find`) or left it to the route. Returns the answer.
 */
async function same(
  fastPath: string,
  routePath: string,
  headers: Record<string, string>,
  init: RequestInit & { answeredAhead: boolean },
): Promise<Answer> {
  const { answeredAhead, ...request } = init;
  const find = vi.spyOn(h.app.sdk.store, 'find');
  try {
    const fast = await answer(fastPath, headers, request);
    const lookups = find.mock.calls.length;
    const route = await answer(routePath, headers, request);
    expect(fast, `${fastPath} and ${routePath}`).toEqual(route);
    // Ahead of Fastify: no lookup where the route made one. Left to the route: the same lookups.
    if (answeredAhead) expect([lookups, find.mock.calls.length], fastPath).toEqual([0, 1]);
    else expect(find.mock.calls.length, fastPath).toBe(2 * lookups);
    return fast;
  } finally {
    find.mockRestore();
  }
}

const SERVER_SHAPED_UNKNOWN = `sdk-srv-env-${'0'.repeat(32)}`;

describe('the features poll, both ways', () => {
  const poll = (headers: Record<string, string>, answeredAhead: boolean) =>
    same('/api/sdk/v1/features', '/api/sdk/v1/features/', headers, { answeredAhead });

  it('answers the map, 304s and .NET the same', async () => {
    const auth = { authorization: `Bearer ${development.apiKey}` };
    const full = await poll(auth, true);
    expect(full.status).toBe(200);
    const etag = full.headers.etag!;
    expect((await poll({ ...auth, 'if-none-match': etag }, true)).status).toBe(304);
    expect(
      (await poll({ authorization: `bearer ${development.apiKey}`, 'if-none-match': etag }, true)).status,
    ).toBe(304);
    expect((await poll({ ...auth, 'if-none-match': '"other"' }, true)).status).toBe(200);
    expect((await poll({ ...auth, 'if-none-match': '' }, true)).status).toBe(200);
    // .NET clears its cache on a 304, so it never gets one (docs/sdk-protocol.md §2).
    const dotNet = await poll({ ...auth, 'if-none-match': etag, 'user-agent': 'DotNetClient/1.2.1' }, true);
    expect(dotNet.status).toBe(200);
    expect(dotNet.body).toBe(full.body);
  });

  it('refuses bad keys the same', async () => {
    expect((await poll({}, false)).status).toBe(401);
    expect((await poll({ authorization: 'Bearer not-a-key' }, false)).status).toBe(401);
    expect((await poll({ authorization: 'Basic abc' }, false)).status).toBe(401);
    expect((await poll({ authorization: `Bearer ${SERVER_SHAPED_UNKNOWN}` }, false)).status).toBe(401);
    const jsKey = await poll({ authorization: `Bearer ${production.jsApiKey}` }, false);
    expect(jsKey.status).toBe(403);
    expect(JSON.parse(jsKey.body)).toEqual({ title: 'This endpoint needs the server SDK key.' });
  });
});

/**
 * A user segment holding `//`: JS 2.x sends the user's latin1 bytes, and `?ü` at the right place
 * gives `//` in standard base64, which a router reads as one `/`.
 */
function segmentWithDoubleSlash(): string {
  for (let pad = 0; pad < 3; pad++) {
    const json = `{"id":"${'a'.repeat(pad)}?\u00fc","attributes":{"tier":"gold"}}`;
    const segment = Buffer.from(json, 'latin1').toString('base64');
    if (segment.includes('//')) return segment;
  }
  throw new Error('no padding gives //');
}

describe('the JS client evaluate, both ways', () => {
  const evaluate = (key: string, segment: string, answeredAhead: boolean) => {
    const path = `/api/js/v1/evaluate/${key}/user/${segment}`;
    return same(path, `${path}?keys=`, {}, { answeredAhead });
  };

  it('answers users the same, odd segments included', async () => {
    const key = development.jsApiKey;
    for (const user of [{ id: 'ana', attributes: { tier: 'gold' } }, { id: 'bo' }, { id: '' }, {}]) {
      // Twice: the second answer comes from the answer cache.
      for (let round = 0; round < 2; round++)
        expect((await evaluate(key, base64User(user), true)).status).toBe(200);
    }
    const slashes = segmentWithDoubleSlash();
    expect(slashes).toContain('//');
    const gold = await evaluate(key, slashes, true);
    expect(gold.status).toBe(200);
    // The whole segment was read: the user is gold, whose rule gives `on` to everyone.
    expect(JSON.parse(gold.body)).toEqual({ checkout: { rules: [{ variant: 'on' }] } });
    // Percent-escaped, and in the URL-safe alphabet without padding.
    expect((await evaluate(key, slashes.replaceAll('/', '%2F'), true)).body).toBe(gold.body);
    const urlSafe = slashes.replaceAll('/', '_').replaceAll('+', '-').replace(/=+$/, '');
    expect((await evaluate(key, urlSafe, true)).body).toBe(gold.body);
  });

  it('refuses a missing or broken user and bad keys the same', async () => {
    const key = development.jsApiKey;
    // No user at all: no such endpoint.
    expect((await evaluate(key, '', false)).status).toBe(404);
    for (const segment of ['bm90IGpzb24', 'W10', '%2F%2F', '!!']) {
      const refused = await evaluate(key, segment, false);
      expect(refused.status, segment).toBe(400);
      expect(refused.headers['access-control-allow-origin']).toBe('*');
    }
    const user = base64User({ id: 'x' });
    expect((await evaluate(development.apiKey, user, false)).status).toBe(403);
    expect((await evaluate('not-a-key', user, false)).status).toBe(401);
    const unknown = await evaluate(`sdk-js-env-${'0'.repeat(32)}`, user, false);
    expect(unknown.status).toBe(401);
    expect(unknown.headers['access-control-allow-origin']).toBe('*');
  });
});

describe('OFREP bulk evaluation, both ways', () => {
  const auth = () => ({ authorization: `Bearer ${development.apiKey}`, 'content-type': 'application/json' });
  const bulk = (body: string, headers: Record<string, string>, answeredAhead: boolean) =>
    same('/ofrep/v1/evaluate/flags', '/ofrep/v1/evaluate/flags/', headers, {
      method: 'POST',
      body,
      answeredAhead,
    });

  it('answers contexts, 304s and bad bodies the same', async () => {
    for (const context of [{ targetingKey: 'ana', tier: 'gold' }, { targetingKey: 'a//b' }, {}]) {
      const body = JSON.stringify({ context });
      const first = await bulk(body, auth(), true);
      expect(first.status).toBe(200);
      const etag = first.headers.etag!;
      expect((await bulk(body, { ...auth(), 'if-none-match': etag }, true)).status).toBe(304);
      expect((await bulk(body, { ...auth(), 'if-none-match': '"other"' }, true)).status).toBe(200);
    }
    for (const body of ['{', '[1]', '{"context":5}', '{"context":[]}', '\u00ff']) {
      expect((await bulk(body, auth(), true)).status, body).toBe(400);
    }
    expect((await bulk('{"context":{}}', { 'x-api-key': development.apiKey }, true)).status).toBe(200);
  });

  it('refuses bad keys the same', async () => {
    const body = '{"context":{"targetingKey":"ana"}}';
    expect((await bulk(body, { 'content-type': 'application/json' }, false)).status).toBe(401);
    expect((await bulk(body, { authorization: 'Bearer not-a-key' }, false)).status).toBe(401);
    expect((await bulk(body, { 'x-api-key': SERVER_SHAPED_UNKNOWN }, false)).status).toBe(401);
    const jsKey = await bulk(body, { authorization: `Bearer ${development.jsApiKey}` }, false);
    expect(jsKey.status).toBe(403);
    expect(jsKey.headers['access-control-expose-headers']).toBe('ETag');
  });
});
