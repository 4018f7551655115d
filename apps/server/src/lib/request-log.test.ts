import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { environments } from '../db/schema/index';
import { redactUrl } from '../logger';
import { seed } from '../seed';
import { testConfig } from '../../test/helpers';
import { captureLogs, LEVEL, type LogLine } from '../../test/logs';
import { base64User } from '../../test/sdk';
import { openTestDatabase, type TestDatabase } from '../../test/test-database';

let database: TestDatabase;
let app: Awaited<ReturnType<typeof buildApp>>;
let logs: ReturnType<typeof captureLogs>;
let serverKey: string;
let jsKey: string;

beforeAll(async () => {
  database = await openTestDatabase();
  await seed(database.db, { adminPassword: 'demo-password', demo: true, hashCost: 'test' });
  const [environment] = await database.db.select().from(environments).limit(1);
  serverKey = environment!.serverApiKey;
  jsKey = environment!.jsApiKey;
  // Debug, so the test also sees what the SDK path logs below info.
  logs = captureLogs('debug');
  app = await buildApp({ config: testConfig(), database, logger: logs.logger });
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await database.destroy().catch(() => {});
});

/** The log lines the requests made by `act` wrote. */
async function linesOf(act: () => Promise<unknown>): Promise<LogLine[]> {
  const before = logs.lines().length;
  await act();
  return logs.lines().slice(before);
}

const atInfoOrAbove = (lines: LogLine[]) => lines.filter((line) => line.level >= LEVEL.info);

describe('request logs', () => {
  it('keep successful SDK requests out of the info log', async () => {
    const lines = await linesOf(async () => {
      const server = await app.inject({
        method: 'GET',
        url: '/api/sdk/v1/features',
        headers: { authorization: `Bearer ${serverKey}` },
      });
      const js = await app.inject({
        method: 'GET',
        url: `/api/js/v1/evaluate/${jsKey}/user/${base64User({ id: 'u1' })}`,
      });
      const ofrep = await app.inject({
        method: 'POST',
        url: '/ofrep/v1/evaluate/flags',
        headers: { authorization: `Bearer ${serverKey}` },
        payload: { context: { targetingKey: 'u1' } },
      });
      expect([server.statusCode, js.statusCode, ofrep.statusCode]).toEqual([200, 200, 200]);
    });
    expect(atInfoOrAbove(lines)).toEqual([]);
    expect(lines.some((line) => line.level === LEVEL.debug)).toBe(true);
  });

  it('still log a dashboard request when it comes in and when it completes', async () => {
    const lines = await linesOf(() => app.inject({ method: 'GET', url: '/api/v1/initial' }));
    expect(atInfoOrAbove(lines).map((line) => line.msg)).toEqual(['incoming request', 'request completed']);
  });

  it('log a refused SDK request in one info line that names it', async () => {
    const lines = await linesOf(() => app.inject({ method: 'GET', url: '/api/sdk/v1/features' }));
    const logged = atInfoOrAbove(lines);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ level: LEVEL.info, req: { url: '/api/sdk/v1/features' } });
  });

  it('redact an SDK key in the URL however it is percent-encoded', async () => {
    const encoded = jsKey.replace('s', '%73').replace(/-/g, '%2D');
    const lines = await linesOf(async () => {
      const res = await app.inject({
        method: 'GET',
        url: `/api/js/v1/evaluate/${encoded}/user/${base64User({ id: 'u1' })}`,
      });
      expect(res.statusCode).toBe(200);
    });
    expect(lines.length).toBeGreaterThan(0);
    const secret = jsKey.slice('sdk-js-env-'.length);
    expect(logs.raw()).not.toContain(secret);
    expect(lines.every((line) => !line.req || line.req.url?.includes('sdk-js-env-[redacted]'))).toBe(true);
  });

  // Last: it closes the database under the app.
  it('log an SDK request that fails on our side as an error', async () => {
    await database.close();
    const lines = await linesOf(async () => {
      const res = await app.inject({
        method: 'GET',
        url: '/api/sdk/v1/features',
        headers: { authorization: 'Bearer sdk-srv-env-11111111111111111111111111111111' },
      });
      expect(res.statusCode).toBe(503);
    });
    const errors = lines.filter((line) => line.level >= LEVEL.error);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ req: { url: '/api/sdk/v1/features' }, res: { statusCode: 503 } });
  });
});

describe('redactUrl', () => {
  const key = '0123456789abcdef0123456789abcdef';
  it.each([
    [`/api/js/v1/evaluate/%73dk-js-env-${key}/user/x`, '/api/js/v1/evaluate/sdk-js-env-[redacted]/user/x'],
    [
      `/api/js/v1/evaluate/sdk%2Djs%2Denv%2D${key}/user/x`,
      '/api/js/v1/evaluate/sdk-js-env-[redacted]/user/x',
    ],
    [`/api/js/v1/event/%2573dk-js-env-${key}`, '/api/js/v1/event/sdk-js-env-[redacted]'],
    [`/api/js/v1/event/sdk-js-env-%30%31${key.slice(2)}`, '/api/js/v1/event/sdk-js-env-[redacted]'],
    ['/resetpassword?%6Bey=abc&x=1', '/resetpassword?key=[redacted]&x=1'],
    ['/login%2Fvxo_secret', '/login/[redacted]'],
  ])('redacts %s', (url, expected) => {
    expect(redactUrl(url)).toBe(expected);
  });
});
