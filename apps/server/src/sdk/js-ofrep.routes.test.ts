import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { evaluate, type Environment, type EvaluableControl, type Feature } from '@vexil/core';
import cases from '../../../../packages/core/src/evaluate/cases.json';
import { createTeam, type Team } from '../../test/api';
import { createFeature, otherwise, rule } from '../../test/features';
import { createHarness, type Harness } from '../../test/helpers';
import { base64User, saveControl, sdkFixture } from '../../test/sdk';
import { OFREP_JS_KEY, OFREP_KEY_INVALID, OFREP_KEY_REQUIRED } from './ofrep-answer';

let h: Harness;
let team: Team;
let development: Environment;
let checkout: Feature;

/** The end-to-end feature of docs/sdk-protocol.md §10.5, as Vexil stores it. */
const e2eControl = cases.evaluations.find((row) => row.name === 'R1 tier gold')!.control as EvaluableControl;

beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h.close();
});
beforeEach(async () => {
  await h.database.reset();
  team = await createTeam(h);
  ({ development } = await sdkFixture(team.admin.call));
  await team.admin.call('POST', '/api/v1/projects/web/targets', { key: 'age', name: 'Age', type: 'number' });
  // checkout as in docs/sdk-protocol.md §10.5: variants on, off, blue, green; three rules.
  const created = await team.admin.call('PUT', '/api/v1/projects/web/features', {
    ...(await team.admin.call('GET', '/api/v1/projects/web/features/checkout')).json<Feature>(),
    maintainerId: null,
    variants: [
      { key: 'on', name: 'On' },
      { key: 'off', name: 'Off' },
      { key: 'blue', name: 'Blue', value: { colour: '#00f' } },
      { key: 'green', name: 'Green' },
    ],
  });
  checkout = created.json<Feature>();
  await saveControl(team.admin.call, checkout, development, {
    enabled: e2eControl.enabled,
    offVariantKey: e2eControl.offVariantKey,
    rules: e2eControl.rules as Feature['controls'][string]['rules'],
  });
  await h.app.sdk.store.settled();
});

function jsEvaluate(user: unknown, query = '', alphabet: 'base64' | 'base64url' = 'base64') {
  return h.app.inject({
    method: 'GET',
    url: `/api/js/v1/evaluate/${development.jsApiKey}/user/${base64User(user, alphabet)}${query}`,
    headers: { 'x-featureflow-client': 'JavascriptClient/2.1.0' },
  });
}

function ofrep(
  path: string,
  body: unknown,
  headers: Record<string, string> = { authorization: `Bearer ${development.apiKey}` },
) {
  return h.app.inject({
    method: 'POST',
    url: `/ofrep/v1/evaluate/flags${path}`,
    headers: { 'content-type': 'application/json', ...headers },
    payload: JSON.stringify(body),
  });
}

const e2eRows = cases.evaluations.filter(
  (row) =>
    row.control === cases.evaluations[0]!.control ||
    ((row.control as { key: string }).key === 'checkout' && row.name.startsWith('R')),
);

describe('GET /api/js/v1/evaluate/{key}/user/{user}', () => {
  it('answers Content-Type application/json;charset=UTF-8 byte for byte, with CORS', async () => {
    const res = await jsEvaluate({ id: 'user-1', attributes: { tier: 'gold' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json;charset=UTF-8');
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.json()).toEqual({ checkout: { rules: [{ variant: 'on' }] } });
  });

  it.each(e2eRows)('gives docs/sdk-protocol.md §10.5 answer: $name', async (row) => {
    const res = await jsEvaluate(row.user);
    const expected = row.expected.variant;
    const body = res.json<Record<string, { rules: { variant: string; value?: unknown }[] }>>();
    expect(body.checkout!.rules[0]!.variant).toBe(expected);
    if (expected === 'blue') expect(body.checkout!.rules[0]!.value).toEqual({ colour: '#00f' });
  });

  it('decodes the user from either base64 alphabet, and latin1 from JS 2.x', async () => {
    const url = await jsEvaluate({ id: 'user-1', attributes: { tier: 'gold' } }, '', 'base64url');
    expect(url.json()).toEqual({ checkout: { rules: [{ variant: 'on' }] } });
    // JS 2.x: each UTF-16 code unit mod 256, no UTF-8 step (docs/sdk-protocol.md §6.1's observed sample).
    const latin1 = 'eyJpZCI6Ikpvc+kiLCJhdHRyaWJ1dGVzIjp7ImNpdHkiOiJa/HJpY2giLCJjdXIiOiKsIn19';
    const res = await h.app.inject({
      method: 'GET',
      url: `/api/js/v1/evaluate/${development.jsApiKey}/user/${latin1}`,
    });
    expect(res.statusCode).toBe(200);
  });

  it('reads a segment with two slashes in a row as sent, not as one slash', async () => {
    // JS 2.x's latin1 bytes: `?` then `ü` (0xFC) give `//` in the standard alphabet.
    const segment = Buffer.from(
      JSON.stringify({ id: 'a?über', attributes: { tier: 'gold' } }),
      'latin1',
    ).toString('base64');
    expect(segment).toContain('//');
    const res = await h.app.inject({
      method: 'GET',
      url: `/api/js/v1/evaluate/${development.jsApiKey}/user/${segment}`,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ checkout: { rules: [{ variant: 'on' }] } });
  });

  it('returns only the keys asked for, answers 400 for a segment that is not a user and 401 for an unknown key', async () => {
    await createFeature(team.admin.call, 'web', { name: 'Banner', key: 'banner' });
    await h.app.sdk.store.settled();
    const only = await jsEvaluate({ id: 'user-1' }, '?keys=banner');
    expect(Object.keys(only.json() as object)).toEqual(['banner']);
    // `%25` arrives as a lone `%`, which the second decoding some clients need cannot read.
    const badKeys = await jsEvaluate({ id: 'user-1' }, '?keys=banner%25');
    expect(badKeys.statusCode).toBe(400);
    expect(badKeys.json()).toEqual({
      title: 'The keys parameter is not a comma-separated list of feature keys.',
    });
    const bad = await h.app.inject({
      method: 'GET',
      url: `/api/js/v1/evaluate/${development.jsApiKey}/user/%%%`,
    });
    expect(bad.statusCode).toBe(400);
    const unknown = await h.app.inject({
      method: 'GET',
      url: `/api/js/v1/evaluate/sdk-js-env-00000000000000000000000000000000/user/${base64User({ id: 'x' })}`,
    });
    expect(unknown.statusCode).toBe(401);
    const serverKey = await h.app.inject({
      method: 'GET',
      url: `/api/js/v1/evaluate/${development.apiKey}/user/${base64User({ id: 'x' })}`,
    });
    expect(serverKey.statusCode).toBe(403);
  });

  it('leaves date and hour conditions for the device', async () => {
    await saveControl(team.admin.call, checkout, development, {
      enabled: true,
      rules: [
        {
          ...rule('tier', 'equals', ['gold']),
          audience: {
            conditions: [
              { target: 'tier', operator: 'equals', values: ['gold'] },
              { target: 'featureflow.hourofday', operator: 'greaterThanOrEqual', values: [9] },
            ],
          },
        },
        otherwise('off'),
      ],
    });
    await h.app.sdk.store.settled();
    const res = await jsEvaluate({ id: 'user-4', attributes: { tier: 'gold' } });
    expect(res.json()).toEqual({
      checkout: {
        rules: [
          {
            audience: {
              conditions: [{ target: 'featureflow.hourofday', operator: 'greaterThanOrEqual', values: [9] }],
            },
            variant: 'on',
          },
          { variant: 'off' },
        ],
      },
    });
  });

  it('answers the CORS preflight', async () => {
    const res = await h.app.inject({
      method: 'OPTIONS',
      url: `/api/js/v1/evaluate/${development.jsApiKey}/user/abc`,
      headers: { origin: 'https://shop.example', 'access-control-request-method': 'GET' },
    });
    expect(res.statusCode).toBe(204);
    expect(res.headers['access-control-allow-headers']).toContain('X-Featureflow-Client');
    expect(res.headers['access-control-allow-methods']).toContain('POST');
  });
});

describe('POST /api/js/v1/event/{key}', () => {
  it('takes the browser’s evaluate and goal events', async () => {
    const body = [
      {
        type: 'evaluate',
        featureKey: 'checkout',
        evaluatedVariant: 'on',
        impressions: 1,
        user: { id: 'user-1', attributes: { tier: 'gold' } },
        timestamp: new Date().toISOString(),
      },
      {
        type: 'goal',
        goalKey: 'signup',
        impressions: 1,
        evaluatedFeatures: { checkout: 'on' },
        timestamp: new Date().toISOString(),
        user: { id: 'user-1' },
      },
    ];
    const res = await h.app.inject({
      method: 'POST',
      url: `/api/js/v1/event/${development.jsApiKey}`,
      headers: { 'content-type': 'application/json', origin: 'https://shop.example' },
      payload: JSON.stringify(body),
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    await h.app.sdk.ingestion.flush();
    const feature = (await team.admin.call('GET', '/api/v1/projects/web/features/checkout')).json<Feature>();
    expect(feature.controls.development!.statistics.impressions.today).toBe(1);
  });
});

describe('OFREP', () => {
  it.each(e2eRows)('evaluates with the core engine’s answer and reason: $name', async (row) => {
    const user = row.user as { id: string; attributes?: Record<string, unknown> };
    const res = await ofrep('/checkout', { context: { targetingKey: user.id, ...(user.attributes ?? {}) } });
    expect(res.statusCode, res.body).toBe(200);
    const expected = evaluate(e2eControl, user, new Date());
    expect(res.json()).toMatchObject({
      key: 'checkout',
      variant: expected.variant,
      reason: expected.reason === 'NO_MATCH' ? 'DEFAULT' : expected.reason,
    });
  });

  it('types values: a variant’s JSON value, else its key; booleans for on/off features', async () => {
    const blue = await ofrep('/checkout', {
      context: { targetingKey: 'user-4', email: 'c@example.com', age: 30 },
    });
    expect(blue.json()).toMatchObject({ variant: 'blue', value: { colour: '#00f' }, reason: 'SPLIT' });
    const gold = await ofrep('/checkout', { context: { targetingKey: 'user-1', tier: 'gold' } });
    expect(gold.json()).toMatchObject({ variant: 'on', value: 'on', reason: 'TARGETING_MATCH' });
    await createFeature(team.admin.call, 'web', { name: 'Dark mode', key: 'dark-mode' });
    await h.app.sdk.store.settled();
    const dark = await ofrep('/dark-mode', { context: { targetingKey: 'u' } });
    expect(dark.json()).toEqual({
      key: 'dark-mode',
      value: false,
      reason: 'DISABLED',
      variant: 'off',
      metadata: {},
    });
  });

  it('answers the protocol’s errors', async () => {
    const missing = await ofrep('/nope', { context: { targetingKey: 'u' } });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ key: 'nope', errorCode: 'FLAG_NOT_FOUND' });
    const invalid = await ofrep('/checkout', { context: 'x' });
    expect(invalid.json()).toMatchObject({ key: 'checkout', errorCode: 'INVALID_CONTEXT' });
    const noTargetingKey = await ofrep('/checkout', { context: { email: 'a@example.com', age: 20 } });
    expect(noTargetingKey.statusCode).toBe(400);
    expect(noTargetingKey.json()).toMatchObject({ errorCode: 'TARGETING_KEY_MISSING' });
    const unauthorised = await ofrep('/checkout', { context: {} }, {});
    expect(unauthorised.statusCode).toBe(401);
    const apiKeyHeader = await ofrep(
      '/checkout',
      { context: { targetingKey: 'user-1', tier: 'gold' } },
      { 'x-api-key': development.apiKey },
    );
    expect(apiKeyHeader.statusCode).toBe(200);
  });

  it('says in OFREP’s failure shape why a key is refused (401 and 403), single and bulk', async () => {
    const context = { context: { targetingKey: 'u' } };
    const refusals: [Record<string, string>, number, string][] = [
      [{}, 401, OFREP_KEY_REQUIRED],
      [{ authorization: 'Bearer sdk-srv-env-00000000000000000000000000000000' }, 401, OFREP_KEY_INVALID],
      [{ 'x-api-key': 'not-a-key' }, 401, OFREP_KEY_INVALID],
      [{ authorization: `Bearer ${development.jsApiKey}` }, 403, OFREP_JS_KEY],
    ];
    for (const [headers, status, errorDetails] of refusals) {
      const single = await ofrep('/checkout', context, headers);
      expect(single.statusCode).toBe(status);
      expect(single.headers['content-type']).toMatch(/^application\/json/);
      expect(single.json()).toEqual({ key: 'checkout', errorCode: 'GENERAL', errorDetails });
      const bulk = await ofrep('', context, headers);
      expect(bulk.statusCode).toBe(status);
      expect(bulk.json()).toEqual({ errorCode: 'GENERAL', errorDetails });
    }
    expect(OFREP_KEY_INVALID).toMatch(/^The API key is not valid/);
    expect(OFREP_JS_KEY).toMatch(/^A JS client key cannot/);
  });

  it('refuses a context nested thousands deep with 400 INVALID_CONTEXT, single and bulk', async () => {
    const deep = `{"context":{"targetingKey":"u","a":${'{"a":'.repeat(50_000)}1${'}'.repeat(50_000)}}}`;
    for (const path of ['/checkout', '']) {
      const res = await h.app.inject({
        method: 'POST',
        url: `/ofrep/v1/evaluate/flags${path}`,
        headers: { authorization: `Bearer ${development.apiKey}`, 'content-type': 'application/json' },
        payload: deep,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ errorCode: 'INVALID_CONTEXT' });
    }
  });

  it('evaluates every flag in bulk with an ETag that changes with context and configuration, and 304s', async () => {
    const context = { context: { targetingKey: 'user-1', tier: 'gold' } };
    const first = await ofrep('', context);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ flags: [{ key: 'checkout', variant: 'on', value: 'on' }] });
    const etag = first.headers.etag as string;
    expect(
      (await ofrep('', context, { authorization: `Bearer ${development.apiKey}`, 'if-none-match': etag }))
        .statusCode,
    ).toBe(304);
    const other = await ofrep('', { context: { targetingKey: 'user-5' } });
    expect(other.headers.etag).not.toBe(etag);
    await saveControl(team.admin.call, checkout, development, { enabled: false });
    await h.app.sdk.store.settled();
    const changed = await ofrep('', context, {
      authorization: `Bearer ${development.apiKey}`,
      'if-none-match': etag,
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toMatchObject({ flags: [{ key: 'checkout', reason: 'DISABLED', value: 'off' }] });
  });
});
