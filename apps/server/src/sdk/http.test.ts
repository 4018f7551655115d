import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { testConfig } from '../../test/helpers';
import { base64User } from '../../test/sdk';
import { openTestDatabase, type TestDatabase } from '../../test/test-database';

let database: TestDatabase;
let app: Awaited<ReturnType<typeof buildApp>>;

beforeAll(async () => {
  database = await openTestDatabase();
  app = await buildApp({ config: testConfig(), database, logger: false });
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await database.destroy().catch(() => {});
});

const user = base64User({ id: 'u1' });
const NOT_KEYS = [
  'sdk-js-env-%00',
  'sdk-js-env-0123456789abcdef0123456789abcde%00',
  'sdk-js-env-not-hex-at-all-not-hex-at-all-xx',
  `sdk-js-env-${'0'.repeat(40)}`,
  '%F0%9F%9A%80',
];

function evaluate(key: string) {
  return app.inject({ method: 'GET', url: `/api/js/v1/evaluate/${key}/user/${user}` });
}

describe('SDK keys', () => {
  it('answers 401 to a key that cannot be one, a NUL included', async () => {
    for (const key of NOT_KEYS) {
      const res = await evaluate(key);
      expect(res.statusCode, key).toBe(401);
      expect(res.json()).toEqual({ title: 'Unknown SDK key.' });
    }
    const server = await app.inject({
      method: 'GET',
      url: '/api/sdk/v1/features',
      headers: { authorization: 'Bearer srv-env-0123' },
    });
    expect(server.statusCode).toBe(401);
  });

  // Last: it closes the database under the app.
  it('refuses a key that cannot be one without asking the database', async () => {
    await database.close();
    for (const key of NOT_KEYS) expect((await evaluate(key)).statusCode, key).toBe(401);
    // A well-formed unknown key does need the database, which is gone: retry later.
    expect((await evaluate(`sdk-js-env-${'1'.repeat(32)}`)).statusCode).toBe(503);
  });
});
