import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Environment, Feature } from '@vexil/core';
import { createTeam, type Team } from '../../test/api';
import { otherwise, rule } from '../../test/features';
import { createHarness, type Harness } from '../../test/helpers';
import { base64User, saveControl, sdkFixture } from '../../test/sdk';

/**
 * A date rule written without an offset names a UTC time (docs/sdk-protocol.md §9.2): the server
 * answers the same whatever its time zone, and SDKs receive the value with a Z, so that none reads
 * it in its host's zone. The server here runs under New York's zone (UTC-4 in July), where
 * `2026-07-03T10:00` read locally would be 14:00 UTC.
 */
let h: Harness;
let team: Team;
let development: Environment;
let checkout: Feature;
let clock: Date | null = null;
const originalZone = process.env.TZ;

beforeAll(async () => {
  h = await createHarness({}, { now: () => clock ?? new Date() });
});
afterAll(async () => {
  await h.close();
});
beforeEach(async () => {
  clock = null;
  await h.database.reset();
  team = await createTeam(h);
  ({ development, checkout } = await sdkFixture(team.admin.call));
  await saveControl(team.admin.call, checkout, development, {
    enabled: true,
    rules: [rule('featureflow.date', 'after', ['2026-07-03T10:00']), otherwise('off')],
  });
  await h.app.sdk.store.settled();
});
afterEach(() => {
  clock = null;
  if (originalZone === undefined) delete process.env.TZ;
  else process.env.TZ = originalZone;
});

function inNewYork() {
  process.env.TZ = 'America/New_York';
  expect(new Date(Date.UTC(2026, 6, 3)).getTimezoneOffset()).toBe(240);
}

async function ofrepVariant(at: string): Promise<string> {
  clock = new Date(at);
  const res = await h.app.inject({
    method: 'POST',
    url: '/ofrep/v1/evaluate/flags/checkout',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${development.apiKey}` },
    payload: JSON.stringify({ context: { targetingKey: 'user-1' } }),
  });
  expect(res.statusCode).toBe(200);
  return res.json<{ variant: string }>().variant;
}

describe('a date rule without an offset', () => {
  it('fires at the UTC instant on a server in another time zone (OFREP)', async () => {
    inNewYork();
    expect(await ofrepVariant('2026-07-03T09:59:59.000Z')).toBe('off');
    expect(await ofrepVariant('2026-07-03T10:00:00.001Z')).toBe('on');
    expect(await ofrepVariant('2026-07-03T12:00:00.000Z')).toBe('on');
  });

  it('reaches the SDKs with a Z (GET /api/sdk/v1/features), while the dashboard keeps the value as typed', async () => {
    const res = await h.app.inject({
      method: 'GET',
      url: '/api/sdk/v1/features',
      headers: { authorization: `Bearer ${development.apiKey}` },
    });
    expect(res.statusCode).toBe(200);
    const controls =
      res.json<Record<string, { rules: { audience: { conditions: { values: string[] }[] } }[] }>>();
    expect(controls.checkout!.rules[0]!.audience.conditions[0]!.values).toEqual(['2026-07-03T10:00:00Z']);
    const feature = (await team.admin.call('GET', '/api/v1/projects/web/features/checkout')).json<Feature>();
    expect(feature.controls.development!.rules[0]!.audience!.conditions[0]!.values).toEqual([
      '2026-07-03T10:00',
    ]);
  });

  it('reaches the browser with a Z, for the device to test (GET /api/js/v1/evaluate)', async () => {
    inNewYork();
    const res = await h.app.inject({
      method: 'GET',
      url: `/api/js/v1/evaluate/${development.jsApiKey}/user/${base64User({ id: 'user-1' })}`,
      headers: { 'x-featureflow-client': 'JavascriptClient/2.1.0' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json<Record<string, unknown>>().checkout).toEqual({
      rules: [
        {
          audience: {
            conditions: [{ target: 'featureflow.date', operator: 'after', values: ['2026-07-03T10:00:00Z'] }],
          },
          variant: 'on',
        },
        { variant: 'off' },
      ],
    });
  });
});
