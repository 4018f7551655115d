/**
 * The change relay's LISTEN connection across a network partition (PostgreSQL only): a cut network
 * sends no error, so the relay asks a question now and then, notices, and resyncs once it heals.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChangeEvents, type ChangeEvent } from '../src/lib/change-events';
import { CHANNEL, startPgChangeRelay } from '../src/lib/pg-change-relay';
import { startTcpProxy, type TcpProxy } from './tcp-proxy';
import { openTestDatabase, type TestDatabase } from './test-database';

let database: TestDatabase;
let proxy: TcpProxy;

beforeAll(async () => {
  database = await openTestDatabase();
  expect(database.kind).toBe('postgres');
  const target = new URL(database.url!);
  proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
});
afterAll(async () => {
  await proxy?.close();
  await database?.destroy();
});

/** Polls until `condition` holds; fails with `what` after a generous deadline. */
async function until(what: string, condition: () => boolean | Promise<boolean>) {
  const deadline = Date.now() + 10_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting until ${what}`);
    await sleep(20);
  }
}

function recordingLogger() {
  const warnings: string[] = [];
  const ignore = () => {};
  const logger = {
    level: 'warn',
    warn: (_fields: unknown, message: string) => warnings.push(message),
    error: ignore,
    fatal: ignore,
    info: ignore,
    debug: ignore,
    trace: ignore,
    silent: ignore,
    child: () => logger,
  };
  return { warnings, logger: logger as unknown as FastifyBaseLogger };
}

describe('the change relay', () => {
  it('notices a silent partition of its LISTEN connection and resyncs once it heals', async () => {
    const events = createChangeEvents(() => {});
    const received: ChangeEvent[] = [];
    events.subscribe((event) => received.push(event));
    const { warnings, logger } = recordingLogger();
    let resyncs = 0;
    const relay = startPgChangeRelay({
      url: proxy.url(database.url!),
      events,
      logger,
      onResync: async () => {
        resyncs++;
      },
      timeouts: { connectMs: 300, statementMs: 200, queryMs: 300, idleInTransactionMs: 200 },
      heartbeatMs: 100,
    });
    const other = new pg.Client({ connectionString: database.url });
    await other.connect();
    try {
      await relay.ready;
      proxy.cut();
      try {
        await until('the relay notices the partition', () =>
          warnings.includes('Change relay connection lost; reconnecting'),
        );
        expect(resyncs).toBe(0);
      } finally {
        proxy.restore();
      }
      await until('the relay resyncs', () => resyncs === 1);

      // Listening again: another instance's change arrives.
      const event = { type: 'environment.changed', organisationId: 'org-1', environmentId: 'env-1' };
      await other.query('select pg_notify($1, $2)', [CHANNEL, JSON.stringify({ origin: 'other', event })]);
      await until('the notification arrives', () => received.length === 1);
      expect(received).toEqual([{ ...event, remote: true }]);
    } finally {
      await other.end();
      await relay.stop();
    }
  });
});
