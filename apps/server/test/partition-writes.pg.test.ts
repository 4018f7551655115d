/**
 * A network partition between the server and PostgreSQL, with the limits a deployment has by
 * default (10 s statements, 12 s before the client gives up on one): a dashboard write made after
 * the cut fails with 503 within about two seconds, because the pool notices the database has gone
 * silent (docs/adr/0007-database-faults-and-timeouts.md), while a statement that is merely slow on a
 * database that answers is left to finish. Runs in the PostgreSQL project only.
 */
import { sql } from 'drizzle-orm';
import type { Project } from '@vexil/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { openDatabase } from '../src/db/client';
import { callerFor, type Caller } from './api';
import { createHarness, randomIp, testConfig, type Harness, type TestApp } from './helpers';
import { startTcpProxy, type TcpProxy } from './tcp-proxy';

let h: Harness;
let proxy: TcpProxy;
let app: TestApp;
let call: Caller;

beforeAll(async () => {
  h = await createHarness();
  expect(h.database.kind).toBe('postgres');
  const target = new URL(h.database.url!);
  proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
  app = await buildApp({
    config: testConfig(),
    // The default limits: nothing shortened for the test.
    database: openDatabase({ kind: 'postgres', url: proxy.url(h.database.url!), max: 4 }),
    logger: false,
  });
  await app.ready();
  const admin = await h.createOrganisation();
  const login = await app.inject({
    method: 'POST',
    url: '/api/authenticate',
    remoteAddress: randomIp(),
    payload: { username: admin.email, password: admin.password, domain: admin.domain },
  });
  call = callerFor(app, login.json<{ id_token: string }>().id_token);
});
afterAll(async () => {
  proxy?.restore();
  await app?.close();
  await proxy?.close();
  await h?.close();
});

describe('a dashboard write during a network partition', () => {
  it('fails with 503 within about two seconds of the cut, and succeeds once it heals', async () => {
    const created = await call('POST', '/api/v1/projects', { name: 'Cut', key: 'cut' });
    expect(created.statusCode, created.body).toBe(201);
    const project = created.json<Project>();

    proxy.cut();
    try {
      const started = performance.now();
      const write = await call('PUT', '/api/v1/projects', { id: project.id, name: 'Cut off', key: 'cut' });
      const took = performance.now() - started;
      expect(write.statusCode, write.body).toBe(503);
      expect(write.json<{ title: string }>().title).toBe('The database is unavailable, please retry.');
      // 12 s (the client's own limit) before; a suspect statement is checked after 0.5 s, in 1 s.
      expect(took).toBeLessThan(2_500);
    } finally {
      proxy.restore();
    }

    const healed = await call('PUT', '/api/v1/projects', { id: project.id, name: 'Healed', key: 'cut' });
    expect(healed.statusCode, healed.body).toBe(200);
  });

  it('leaves a slow statement alone while the database answers', async () => {
    const database = openDatabase({ kind: 'postgres', url: proxy.url(h.database.url!), max: 2 });
    try {
      const result = await database.db.execute(sql`select pg_sleep(1.5), 1 as done`);
      expect((result as unknown as { rows: { done: number }[] }).rows[0]!.done).toBe(1);
    } finally {
      await database.close();
    }
  });
});
