import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { NUL_MESSAGE, type Feature } from '@vexil/core';
import { createTeam, type Team } from '../../test/api';
import { fingerprint } from '../../test/fingerprint';
import { controlBody, createFeature, otherwise, rule } from '../../test/features';
import { createHarness, type Harness } from '../../test/helpers';
import { findUnstorableText, SURROGATE_MESSAGE } from './storable-text';

let h: Harness;
let team: Team;
let feature: Feature;

beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h.close();
});
beforeEach(async () => {
  await h.database.reset();
  team = await createTeam(h);
  await team.admin.call('POST', '/api/v1/projects/', { name: 'Web shop', key: 'web' });
  feature = await createFeature(team.admin.call, 'web', { name: 'Checkout', key: 'checkout' });
});

const LONE_SURROGATE = 'Caf\ud800';
const NUL = 'Caf\u0000e';

/** The body as the dashboard would send it; JSON.stringify writes a lone surrogate as `\ud800`. */
function expectRefused(res: { statusCode: number; json: <T>() => T }, field: string, message: string) {
  expect(res.statusCode).toBe(400);
  expect(res.json()).toMatchObject({ title: message, errors: [{ field, message }] });
}

describe('text PostgreSQL cannot store, in any dashboard request', () => {
  for (const [name, text, message] of [
    ['a lone surrogate', LONE_SURROGATE, SURROGATE_MESSAGE],
    ['a NUL', NUL, NUL_MESSAGE],
  ] as const) {
    it(`refuses ${name} in a project name with 400 naming the field`, async () => {
      // What the setup's changes triggered is passed on first, so only this request could change a row.
      await h.app.services.integrations.settled();
      const before = await fingerprint(h.database.db);
      const res = await team.admin.call('POST', '/api/v1/projects/', { name: text, key: 'shop' });
      expectRefused(res, 'name', message);
      expect(await fingerprint(h.database.db)).toEqual(before);
    });

    it(`refuses ${name} in a feature name with 400 naming the field`, async () => {
      const res = await team.admin.call('POST', '/api/v1/projects/web/features', {
        name: text,
        key: 'search',
      });
      expectRefused(res, 'name', message);
    });

    it(`refuses ${name} in a rule value with 400 naming the field`, async () => {
      const res = await team.admin.call(
        'PUT',
        '/api/v1/feature-controls/',
        controlBody(feature.controls.development!, {
          rules: [rule('country', 'in', ['nz', text]), otherwise()],
        }),
      );
      expectRefused(res, 'rules.0.audience.conditions.0.values.1', message);
    });

    it(`refuses ${name} deep in a variant's JSON value with 400 naming the field`, async () => {
      const res = await team.admin.call('POST', '/api/v1/projects/web/features', {
        name: 'Theme',
        key: 'theme',
        variants: [
          { key: 'on', name: 'On', value: { colours: ['#00f', text] } },
          { key: 'off', name: 'Off' },
        ],
      });
      expectRefused(res, 'variants.0.value.colours.1', message);
    });

    it(`refuses ${name} in an object key`, async () => {
      const res = await team.admin.call('POST', '/api/v1/projects/', { name: 'Shop', [text]: 'x' });
      expectRefused(res, text, message);
    });
  }

  it('refuses a NUL in a query string or a path parameter', async () => {
    const query = await team.admin.call('GET', '/api/v1/projects?query=a%00b');
    expectRefused(query, 'querystring.query', NUL_MESSAGE);
    const param = await team.admin.call('GET', '/api/v1/projects/we%00b/features/checkout');
    expectRefused(param, 'params.projectKey', NUL_MESSAGE);
  });

  it('accepts surrogate pairs (emoji) and other Unicode', async () => {
    const res = await team.admin.call('POST', '/api/v1/projects/', { name: 'Café 🚀 商店', key: 'shop' });
    expect(res.statusCode, res.body).toBe(201);
  });
});

describe('findUnstorableText on deeply nested bodies', () => {
  // Copying the path at every level made the walk quadratic in depth: a body nested 200,000 deep
  // (about 1 MB, the dashboard's body limit) held the event loop for minutes.
  const DEPTH = 200_000;

  it('names a NUL at the bottom of a body nested 200,000 deep, in one linear walk', () => {
    let body: unknown = { name: NUL };
    for (let level = 0; level < DEPTH; level++) body = { a: body };
    const found = findUnstorableText(body);
    expect(found?.message).toBe(NUL_MESSAGE);
    expect(found?.field.split('.')).toHaveLength(DEPTH + 1);
    expect(found?.field.endsWith('a.a.name')).toBe(true);
  });

  it('answers a public sign-in carrying such a body with a 4xx, never holding the server', async () => {
    const res = await h.app.inject({
      method: 'POST',
      url: '/api/authenticate',
      headers: { 'content-type': 'application/json', host: 'vexil.test' },
      payload: `{"username":"a@example.com","password":"x","domain":"acme","x":${'['.repeat(DEPTH)}${']'.repeat(DEPTH)}}`,
    });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
  });
});
