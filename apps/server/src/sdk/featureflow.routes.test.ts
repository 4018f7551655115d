import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { Environment, Feature } from '@vexil/core';
import { featureControls, features, impressionCounters, targetUsers, targetValues } from '../db/schema/index';
import { createTeam, type Team } from '../../test/api';
import { createFeature, otherwise, rule } from '../../test/features';
import { createHarness, type Harness } from '../../test/helpers';
import { saveControl, sdkFixture, sseReader } from '../../test/sdk';

let h: Harness;
let team: Team;
let development: Environment;
let production: Environment;
let checkout: Feature;

beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h.close();
});
beforeEach(async () => {
  await h.database.reset();
  team = await createTeam(h);
  ({ development, production, checkout } = await sdkFixture(team.admin.call));
  await h.app.sdk.store.settled();
});

function poll(key: string, headers: Record<string, string> = {}) {
  return h.app.inject({
    method: 'GET',
    url: '/api/sdk/v1/features',
    headers: { authorization: `Bearer ${key}`, ...headers },
  });
}

type Controls = Record<
  string,
  {
    key: string;
    enabled: boolean;
    offVariantKey: string;
    salt: string;
    rules: unknown[];
    variants: unknown[];
  }
>;

describe('GET /api/sdk/v1/features', () => {
  it('answers the environment’s controls keyed by feature key, in the SDK wire shape, with a quoted ETag', async () => {
    const res = await poll(development.apiKey);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers.etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(res.json<Controls>()).toEqual({
      checkout: {
        key: 'checkout',
        enabled: false,
        offVariantKey: 'off',
        salt: '1',
        deleted: false,
        inClientApi: true,
        variants: [
          { key: 'on', name: 'On' },
          { key: 'off', name: 'Off' },
        ],
        rules: [{ defaultRule: true, audience: null, variantSplits: [{ variantKey: 'on', split: 100 }] }],
      },
    });
  });

  it('answers 304 only for a non-empty matching If-None-Match, and never to .NET', async () => {
    const first = await poll(development.apiKey, { 'if-none-match': '""' });
    expect(first.statusCode).toBe(200);
    const etag = first.headers.etag as string;
    const again = await poll(development.apiKey, { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers.etag).toBe(etag);
    expect((await poll(development.apiKey, { 'if-none-match': '' })).statusCode).toBe(200);
    expect(
      (await poll(development.apiKey, { 'if-none-match': etag, 'user-agent': 'DotNetClient/1.2.1' }))
        .statusCode,
    ).toBe(200);
  });

  it('changes the body and the ETag at once when a control is saved', async () => {
    const before = await poll(development.apiKey);
    await saveControl(team.admin.call, checkout, development, {
      enabled: true,
      rules: [rule('tier', 'equals', ['gold']), otherwise('off')],
    });
    await h.app.sdk.store.settled();
    const after = await poll(development.apiKey, { 'if-none-match': before.headers.etag as string });
    expect(after.statusCode).toBe(200);
    expect(after.headers.etag).not.toBe(before.headers.etag);
    const control = after.json<Controls>().checkout!;
    expect(control.enabled).toBe(true);
    expect(control.rules).toEqual([
      {
        defaultRule: false,
        audience: { conditions: [{ target: 'tier', operator: 'equals', values: ['gold'] }] },
        variantSplits: [{ variantKey: 'on', split: 100 }],
      },
      { defaultRule: true, audience: null, variantSplits: [{ variantKey: 'off', split: 100 }] },
    ]);
    // Production did not change.
    expect((await poll(production.apiKey)).json<Controls>().checkout!.enabled).toBe(false);
  });

  it('accepts the scheme in any case and refuses missing, unknown and client keys', async () => {
    expect(
      (
        await h.app.inject({
          method: 'GET',
          url: '/api/sdk/v1/features',
          headers: { authorization: `bearer ${development.apiKey}` },
        })
      ).statusCode,
    ).toBe(200);
    expect((await h.app.inject({ method: 'GET', url: '/api/sdk/v1/features' })).statusCode).toBe(401);
    expect((await poll('sdk-srv-env-00000000000000000000000000000000')).statusCode).toBe(401);
    expect((await poll(development.jsApiKey)).statusCode).toBe(403);
  });

  it('stops serving a rotated key and a deleted environment’s key at once', async () => {
    const rotated = await team.admin.call(
      'POST',
      `/api/v1/environments/${development.id}/keys/server/rotate`,
    );
    await h.app.sdk.store.settled();
    expect((await poll(development.apiKey)).statusCode).toBe(401);
    expect((await poll(rotated.json<Environment>().apiKey)).statusCode).toBe(200);
    await team.admin.call('DELETE', `/api/v1/environments/${production.id}`);
    expect((await poll(production.apiKey)).statusCode).toBe(401);
  });

  it('keeps answering from memory while the database is unreachable', async () => {
    const { openTestDatabase } = await import('../../test/test-database');
    const { buildApp } = await import('../app');
    const { testConfig } = await import('../../test/helpers');
    const database = await openTestDatabase();
    const app = await buildApp({ config: testConfig(), database, logger: false });
    try {
      // The same organisation's rows, copied into this second database through the API.
      const admin = await (async () => {
        const { organisations, users } = await import('../db/schema/index');
        const { hashPassword } = await import('../lib/passwords');
        const [org] = await database.db
          .insert(organisations)
          .values({ name: 'Offline', domain: 'offline' })
          .returning();
        await database.db.insert(users).values({
          organisationId: org!.id,
          email: 'o@example.com',
          passwordHash: await hashPassword('pw-offline', 'test'),
          authorities: ['ROLE_ORGANISATION_ADMIN'],
          activated: true,
        });
        const login = await app.inject({
          method: 'POST',
          url: '/api/authenticate',
          payload: { username: 'o@example.com', password: 'pw-offline', domain: 'offline' },
        });
        return login.json<{ id_token: string }>().id_token;
      })();
      const created = await app.inject({
        method: 'POST',
        url: '/api/v1/projects/',
        headers: { authorization: `Bearer ${admin}` },
        payload: { name: 'Offline', key: 'off' },
      });
      const key = created.json<{ environments: Environment[] }>().environments[0]!.apiKey;
      await app.inject({
        method: 'POST',
        url: '/api/v1/projects/off/features',
        headers: { authorization: `Bearer ${admin}` },
        payload: { name: 'F', key: 'f' },
      });
      await app.sdk.store.settled();
      await database.close();
      const res = await app.inject({
        method: 'GET',
        url: '/api/sdk/v1/features',
        headers: { authorization: `Bearer ${key}` },
      });
      expect(res.statusCode).toBe(200);
      expect(Object.keys(res.json<Controls>())).toEqual(['f']);
      const unknown = await app.inject({
        method: 'GET',
        url: '/api/sdk/v1/features',
        headers: { authorization: 'Bearer sdk-srv-env-11111111111111111111111111111111' },
      });
      expect(unknown.statusCode).toBe(503);
    } finally {
      await app.close();
      await database.destroy().catch(() => {});
    }
  });
});

describe('SSE on /api/sdk/v1/features', () => {
  it('sends the full map on connect, then each saved change and deletion', async () => {
    // A server of its own: this test listens on a real port.
    const own = await createHarness();
    const abort = new AbortController();
    try {
      const ownTeam = await createTeam(own);
      const fixture = await sdkFixture(ownTeam.admin.call);
      await own.app.sdk.store.settled();
      const address = await own.app.listen({ port: 0, host: '127.0.0.1' });
      const res = await fetch(`${address}/api/sdk/v1/features`, {
        headers: { authorization: `Bearer ${fixture.development.apiKey}`, accept: 'text/event-stream' },
        signal: abort.signal,
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/event-stream');
      const events = sseReader(res.body!);
      const first = await events.next();
      expect(first.event).toBe('features.updated');
      expect(Object.keys(JSON.parse(first.data) as object)).toEqual(['checkout']);

      await saveControl(ownTeam.admin.call, fixture.checkout, fixture.development, { enabled: true });
      const update = await events.next();
      expect(update.event).toBe('features.updated');
      expect(JSON.parse(update.data)).toMatchObject({ checkout: { key: 'checkout', enabled: true } });

      await ownTeam.productionEditor.call('DELETE', `/api/v1/project/web/features/${fixture.checkout.id}/`);
      const deletion = await events.next();
      expect(deletion).toEqual({ event: 'features.deleted', data: '["checkout"]' });
    } finally {
      abort.abort();
      await own.close();
    }
  });
});

describe('POST /api/sdk/v1/events', () => {
  async function send(
    body: string,
    headers: Record<string, string> = { 'content-type': 'application/json' },
  ) {
    return h.app.inject({
      method: 'POST',
      url: '/api/sdk/v1/events',
      headers: { authorization: `Bearer ${development.apiKey}`, ...headers },
      payload: body,
    });
  }

  it('counts every SDK’s rows exactly, whatever the content type, and records users and values', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const nodeRows = [
      {
        featureKey: 'checkout',
        evaluatedVariant: 'on',
        expectedVariant: 'on',
        user: { id: 'user-1', attributes: { tier: ['gold'], 'featureflow.user.id': ['user-1'] } },
      },
      { featureKey: 'checkout', evaluatedVariant: 'off', expectedVariant: null, user: 'user-4' },
      { featureKey: 'unknown-feature', evaluatedVariant: 'off', expectedVariant: null },
    ];
    const summaryRows = [
      {
        featureKey: 'checkout',
        evaluatedVariant: 'on',
        type: 'evaluate',
        impressions: 2,
        timestamp: '2026-08-17T16:34:35.123456789+04:00',
        user: { id: 'u2', attributes: { plan: 'pro' } },
      },
      {
        type: 'goal',
        goalKey: 'purchase',
        timestamp: new Date().toISOString(),
        user: { id: 'u1' },
        value: 5,
        data: { plan: 'pro' },
      },
    ];
    expect((await send(JSON.stringify(nodeRows))).statusCode).toBe(200);
    // Go sends no Content-Type at all.
    expect((await send(JSON.stringify(summaryRows), {})).statusCode).toBe(200);
    await h.app.sdk.ingestion.flush();

    const counters = await h.database.db
      .select()
      .from(impressionCounters)
      .where(eq(impressionCounters.featureControlId, checkout.controls.development!.id));
    const byKey = Object.fromEntries(counters.map((c) => [`${c.day} ${c.variantKey}`, c.count]));
    expect(byKey).toEqual({ [`${today} on`]: 1, [`${today} off`]: 1, '2026-08-17 on': 2 });
    const [control] = await h.database.db
      .select()
      .from(featureControls)
      .where(eq(featureControls.id, checkout.controls.development!.id));
    expect(control).toMatchObject({ available: true });
    expect(control!.lastImpressionAt).not.toBeNull();
    const users = await h.database.db.select().from(targetUsers);
    expect(users.map((u) => u.userKey).sort()).toEqual(['u1', 'u2', 'user-1', 'user-4']);
    const values = await h.database.db.select().from(targetValues);
    expect(values.map((v) => `${v.targetKey}=${v.value}`).sort()).toEqual(['plan=pro', 'tier=gold']);

    const feature = await team.admin.call('GET', '/api/v1/projects/web/features/checkout');
    expect(feature.json<Feature>().controls.development!).toMatchObject({
      available: true,
      trafficStatus: 'active',
      statistics: { impressions: { today: 2 } },
    });
    const suggestions = await team.admin.call('GET', '/api/v1/projects/web/targets/tier/values');
    expect(suggestions.json()).toEqual(['gold']);
  });

  it('answers 400 for a body that is not a JSON array of events, and 401 for a bad key', async () => {
    expect((await send('{not json')).statusCode).toBe(400);
    expect((await send('{"featureKey":"checkout"}')).statusCode).toBe(400);
    expect((await send('[{"impressions":"many"}]')).statusCode).toBe(400);
    const bad = await h.app.inject({
      method: 'POST',
      url: '/api/sdk/v1/events',
      headers: { authorization: 'Bearer nope' },
      payload: '[]',
    });
    expect(bad.statusCode).toBe(401);
  });
});

describe('PUT /api/sdk/v1/register', () => {
  it('creates missing features with their variants, marks them available there, and answers exactly 200', async () => {
    const body = [
      {
        key: 'checkout',
        failoverVariant: 'on',
        variants: [
          { key: 'on', value: 'on' },
          { key: 'off', value: 'off' },
        ],
      },
      {
        key: 'new-nav',
        failoverVariant: 'off',
        variants: [
          { key: 'classic', name: 'Classic' },
          { key: 'modern', name: 'Modern' },
        ],
      },
      { key: 'java-style', failoverVariant: 'off' },
    ];
    const res = await h.app.inject({
      method: 'PUT',
      url: '/api/sdk/v1/register',
      headers: { authorization: `Bearer ${development.apiKey}` },
      payload: JSON.stringify(body),
    });
    expect(res.statusCode, res.body).toBe(200);
    const nav = (await team.admin.call('GET', '/api/v1/projects/web/features/new-nav')).json<Feature>();
    expect(nav.variants.map((v) => [v.key, v.name])).toEqual([
      ['classic', 'Classic'],
      ['modern', 'Modern'],
    ]);
    expect(nav.controls.development!.available).toBe(true);
    expect(nav.controls.production!.available).toBe(false);
    const java = (await team.admin.call('GET', '/api/v1/projects/web/features/java-style')).json<Feature>();
    expect(java.variants.map((v) => v.key)).toEqual(['on', 'off']);
    const existing = (await team.admin.call('GET', '/api/v1/projects/web/features/checkout')).json<Feature>();
    expect(existing.controls.development!.available).toBe(true);
    await h.app.sdk.store.settled();
    expect(Object.keys((await poll(development.apiKey)).json<Controls>()).sort()).toEqual([
      'checkout',
      'java-style',
      'new-nav',
    ]);
    const all = await h.database.db
      .select()
      .from(features)
      .where(and(eq(features.key, 'new-nav')));
    expect(all).toHaveLength(1);
  });
});

describe('createFeature helper', () => {
  it('is shared with the SDK tests', async () => {
    const feature = await createFeature(team.admin.call, 'web', { name: 'Extra', key: 'extra' });
    expect(feature.key).toBe('extra');
  });
});
