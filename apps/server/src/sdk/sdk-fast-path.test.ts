/**
 * The fast path (fast-path.ts) answers the SDK poll, the JS client's evaluate and OFREP's bulk
 * evaluation ahead of Fastify over real HTTP: it must answer exactly what the Fastify route does. A
 * trailing slash (or an empty `keys` for the JS client) sends the same request to the route.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Environment, Feature } from '@vexil/core';
import { createTeam, type Team } from '../../test/api';
import { createHarness, type Harness } from '../../test/helpers';
import { otherwise, rule } from '../../test/features';
import { base64User, saveControl, sdkFixture } from '../../test/sdk';
import { OFREP_JS_KEY, OFREP_KEY_REQUIRED } from './ofrep-answer';

let h: Harness;
let team: Team;
let development: Environment;
let production: Environment;
let checkout: Feature;
let address: string;

beforeAll(async () => {
  h = await createHarness();
  await h.database.reset();
  team = await createTeam(h);
  ({ development, production, checkout } = await sdkFixture(team.admin.call));
  await h.app.sdk.store.settled();
  address = await h.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await h.close();
});

/** Status, headers a client reads (not the date or the connection's) and body. */
async function answer(path: string, headers: Record<string, string>, init: RequestInit = {}) {
  const res = await fetch(`${address}${path}`, { headers, ...init });
  const kept = [...res.headers.entries()].filter(
    ([name]) => !['date', 'connection', 'keep-alive'].includes(name),
  );
  return { status: res.status, headers: Object.fromEntries(kept), body: await res.text() };
}

/** The same request through the fast path and through Fastify's route. */
async function both(headers: Record<string, string>) {
  return [await answer('/api/sdk/v1/features', headers), await answer('/api/sdk/v1/features/', headers)];
}

describe('GET /api/sdk/v1/features ahead of Fastify', () => {
  it('answers the full map and the 304 exactly as the route does', async () => {
    const auth = { authorization: `Bearer ${development.apiKey}` };
    // The route looks the key up with `find`; the fast path, ahead of it, only peeks.
    const find = vi.spyOn(h.app.sdk.store, 'find');
    await answer('/api/sdk/v1/features', auth);
    expect(find).not.toHaveBeenCalled();
    await answer('/api/sdk/v1/features/', auth);
    expect(find).toHaveBeenCalledTimes(1);
    find.mockRestore();

    const [fast, route] = await both(auth);
    expect(fast!.status).toBe(200);
    expect(fast).toEqual(route);
    expect(Object.keys(JSON.parse(fast!.body) as object)).toEqual(['checkout']);
    expect(fast!.headers['x-content-type-options']).toBe('nosniff');

    const etag = fast!.headers.etag!;
    const [fast304, route304] = await both({ ...auth, 'if-none-match': etag });
    expect(fast304!.status).toBe(304);
    expect(fast304).toEqual(route304);
    // Lower-case scheme, as old docs write it.
    const [lower] = await both({ authorization: `bearer ${development.apiKey}`, 'if-none-match': etag });
    expect(lower!.status).toBe(304);
  });

  it('follows a change at once, and leaves every other case to the route', async () => {
    const auth = { authorization: `Bearer ${development.apiKey}` };
    const before = (await answer('/api/sdk/v1/features', auth)).headers.etag!;
    await saveControl(team.admin.call, checkout, development, { enabled: true });
    await h.app.sdk.store.settled();
    const after = await answer('/api/sdk/v1/features', { ...auth, 'if-none-match': before });
    expect(after.status).toBe(200);
    expect(after.headers.etag).not.toBe(before);
    expect(JSON.parse(after.body)).toMatchObject({ checkout: { enabled: true } });

    // Refusals come from the route, with its bodies: no key, an unknown key, the JS key.
    const none = await answer('/api/sdk/v1/features', {});
    expect(none.status).toBe(401);
    expect(JSON.parse(none.body)).toEqual({ title: 'An SDK key is required.' });
    const unknown = await answer('/api/sdk/v1/features', {
      authorization: 'Bearer sdk-srv-env-00000000000000000000000000000000',
    });
    expect(unknown.status).toBe(401);
    const jsKey = await answer('/api/sdk/v1/features', { authorization: `Bearer ${production.jsApiKey}` });
    expect(jsKey.status).toBe(403);
    // .NET never gets a 304 (docs/sdk-protocol.md §2).
    const etag = after.headers.etag!;
    const dotNet = await answer('/api/sdk/v1/features', {
      ...auth,
      'if-none-match': etag,
      'user-agent': 'DotNetClient/1.0',
    });
    expect(dotNet.status).toBe(200);
  });
});

describe('the JS client and OFREP ahead of Fastify', () => {
  beforeAll(async () => {
    // A split, so that each user's answer is their own, and a targeted rule.
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
  });

  const clientPath = (user: unknown) =>
    `/api/js/v1/evaluate/${development.jsApiKey}/user/${base64User(user)}`;

  it('answers the JS client exactly as the route does, for new and repeated users', async () => {
    const find = vi.spyOn(h.app.sdk.store, 'find');
    const variants = new Set<string>();
    for (const user of [
      { id: 'ana', attributes: { tier: 'gold' } },
      ...Array.from({ length: 12 }, (_, i) => ({ id: `u${i}` })),
    ]) {
      // Asked twice each, so that the second answer comes from the answer cache.
      for (let round = 0; round < 2; round++) {
        const fast = await answer(clientPath(user), {});
        const route = await answer(`${clientPath(user)}?keys=`, {});
        expect(fast.status).toBe(200);
        expect(fast).toEqual(route);
        variants.add(
          (JSON.parse(fast.body) as { checkout: { rules: { variant: string }[] } }).checkout.rules[0]!
            .variant,
        );
      }
    }
    expect(variants).toEqual(new Set(['on', 'off']));
    expect(find).toHaveBeenCalledTimes(26);
    find.mockRestore();
    const fast = await answer(clientPath({ id: 'ana' }), {});
    expect(fast.headers['content-type']).toBe('application/json;charset=UTF-8');
    expect(fast.headers['access-control-allow-origin']).toBe('*');
    expect(fast.headers['x-content-type-options']).toBe('nosniff');
  });

  it("leaves the JS client's refusals and keyed requests to the route", async () => {
    const notAUser = await answer(`/api/js/v1/evaluate/${development.jsApiKey}/user/bm90IGpzb24`, {});
    expect(notAUser.status).toBe(400);
    expect(JSON.parse(notAUser.body)).toEqual({
      title: 'The user segment is not base64 of a user JSON object.',
    });
    const serverKey = await answer(
      `/api/js/v1/evaluate/${development.apiKey}/user/${base64User({ id: 'x' })}`,
      {},
    );
    expect(serverKey.status).toBe(403);
    const keyed = await answer(`${clientPath({ id: 'x' })}?keys=nothing`, {});
    expect(JSON.parse(keyed.body)).toEqual({});
  });

  const ofrepAuth = () => ({
    authorization: `Bearer ${development.apiKey}`,
    'content-type': 'application/json',
  });
  const bulk = (path: string, body: string, headers: Record<string, string> = ofrepAuth()) =>
    answer(path, headers, { method: 'POST', body });

  it('answers OFREP bulk exactly as the route does: 200, 304 and 400', async () => {
    const find = vi.spyOn(h.app.sdk.store, 'find');
    for (const context of [
      { targetingKey: 'ana', tier: 'gold' },
      { targetingKey: 'bo' },
      { targetingKey: 'cy' },
      {},
    ]) {
      const body = JSON.stringify({ context });
      for (let round = 0; round < 2; round++) {
        const fast = await bulk('/ofrep/v1/evaluate/flags', body);
        const route = await bulk('/ofrep/v1/evaluate/flags/', body);
        expect(fast.status).toBe(200);
        expect(fast).toEqual(route);
        const etag = fast.headers.etag!;
        const [fast304, route304] = [
          await bulk('/ofrep/v1/evaluate/flags', body, { ...ofrepAuth(), 'if-none-match': etag }),
          await bulk('/ofrep/v1/evaluate/flags/', body, { ...ofrepAuth(), 'if-none-match': etag }),
        ];
        expect(fast304.status).toBe(304);
        expect(fast304).toEqual(route304);
      }
    }
    // Only the route's requests looked the key up.
    expect(find).toHaveBeenCalledTimes(16);
    find.mockRestore();
    for (const body of ['{', '[1]', '{"context":5}', '\u00ff']) {
      const fast = await bulk('/ofrep/v1/evaluate/flags', body);
      expect(fast.status).toBe(400);
      expect(fast).toEqual(await bulk('/ofrep/v1/evaluate/flags/', body));
    }
    // X-API-Key works as the bearer header does.
    const apiKey = await bulk('/ofrep/v1/evaluate/flags', '{"context":{"targetingKey":"ana"}}', {
      'x-api-key': development.apiKey,
    });
    expect(apiKey.status).toBe(200);
  });

  it('gives each context its own ETag, and a new one when the configuration changes', async () => {
    const body = JSON.stringify({ context: { targetingKey: 'ana', tier: 'gold' } });
    const first = await bulk('/ofrep/v1/evaluate/flags', body);
    const other = await bulk('/ofrep/v1/evaluate/flags', JSON.stringify({ context: { targetingKey: 'bo' } }));
    expect(other.headers.etag).not.toBe(first.headers.etag);
    await saveControl(team.admin.call, checkout, development, { enabled: false });
    await h.app.sdk.store.settled();
    const after = await bulk('/ofrep/v1/evaluate/flags', body, {
      ...ofrepAuth(),
      'if-none-match': first.headers.etag!,
    });
    expect(after.status).toBe(200);
    expect(after.headers.etag).not.toBe(first.headers.etag);
    expect(JSON.parse(after.body)).toMatchObject({ flags: [{ key: 'checkout', reason: 'DISABLED' }] });
  });

  it('leaves OFREP refusals to the route: no key, the JS key, no body', async () => {
    const body = '{"context":{"targetingKey":"ana"}}';
    const none = await bulk('/ofrep/v1/evaluate/flags', body, { 'content-type': 'application/json' });
    expect(none.status).toBe(401);
    expect(JSON.parse(none.body)).toEqual({ errorCode: 'GENERAL', errorDetails: OFREP_KEY_REQUIRED });
    const jsKey = await bulk('/ofrep/v1/evaluate/flags', body, {
      authorization: `Bearer ${development.jsApiKey}`,
    });
    expect(jsKey.status).toBe(403);
    expect(JSON.parse(jsKey.body)).toEqual({ errorCode: 'GENERAL', errorDetails: OFREP_JS_KEY });
    const empty = await bulk('/ofrep/v1/evaluate/flags', '');
    expect(empty.status).toBe(400);
    expect(JSON.parse(empty.body)).toMatchObject({ errorCode: 'PARSE_ERROR' });
  });
});
