/**
 * The SDK poll's fast path (fast-path.ts) answers ahead of Fastify over real HTTP: it must answer
 * exactly what the Fastify route does. A trailing slash sends the same request to the route.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Environment, Feature } from '@vexil/core';
import { createTeam, type Team } from '../../test/api';
import { createHarness, type Harness } from '../../test/helpers';
import { saveControl, sdkFixture } from '../../test/sdk';

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
async function answer(path: string, headers: Record<string, string>) {
  const res = await fetch(`${address}${path}`, { headers });
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
