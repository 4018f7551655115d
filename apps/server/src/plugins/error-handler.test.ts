import { DrizzleQueryError } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { testConfig, type TestApp } from '../../test/helpers';
import { openTestDatabase, type TestDatabase } from '../../test/test-database';

let database: TestDatabase;
let app: TestApp;

beforeAll(async () => {
  database = await openTestDatabase();
  app = await buildApp({ config: testConfig(), database, logger: false });
  // What a repository throws when PostgreSQL ends its connection mid-request, and a plain bug.
  app.get('/api/v1/terminated', { config: { public: true } }, async () => {
    const cause = Object.assign(new Error('terminating connection due to administrator command'), {
      code: '57P01',
    });
    throw new DrizzleQueryError('select 1', [], cause);
  });
  app.get('/api/v1/bug', { config: { public: true } }, async () => {
    throw new TypeError('x is undefined');
  });
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await database.destroy();
});

describe('the error handler', () => {
  it('answers a lost database connection with 503 and when to retry', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/v1/terminated' });
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.json()).toEqual({ title: 'The database is unavailable, please retry.', code: 'unavailable' });
  });

  it('still answers other failures with a generic 500', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/v1/bug' });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({
      title: 'Something went wrong on our side. Please try again.',
      code: 'internal',
    });
  });
});
