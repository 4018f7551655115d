/**
 * A database that cannot write (docs/adr/0007-database-faults-and-timeouts.md): a write it refuses
 * answers 503 with a clear message rather than 500, /readyz says 503 for as long as it cannot
 * write, and both recover once it can. PostgreSQL made read-only here (a standby, or
 * `default_transaction_read_only`), which fails writes as a full disk does: with an SQLSTATE of the
 * storage, never of the request. Runs in the PostgreSQL project only.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerFor, type Caller } from './api';
import { createHarness, type Harness } from './helpers';

let h: Harness;
let call: Caller;
let admin: pg.Client;

beforeAll(async () => {
  h = await createHarness();
  expect(h.database.kind).toBe('postgres');
  call = callerFor(h.app, await h.login(await h.createOrganisation()));
  admin = new pg.Client({ connectionString: h.database.url });
  await admin.connect();
});
afterAll(async () => {
  await admin?.query(`alter database "${databaseName()}" reset default_transaction_read_only`);
  await admin?.end();
  await h?.close();
});

function databaseName(): string {
  return new URL(h.database.url!).pathname.slice(1);
}

/** Every new session of the test database only reads; the app's open ones are ended to pick it up. */
async function setReadOnly(on: boolean) {
  await admin.query(
    `alter database "${databaseName()}" ${on ? 'set default_transaction_read_only = on' : 'reset default_transaction_read_only'}`,
  );
  await admin.query(
    'select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
  );
}

const readiness = async () => (await h.app.inject({ method: 'GET', url: '/readyz' })).statusCode;

describe('a database that cannot write', () => {
  it('answers a write 503 with the reason, turns readiness 503, and both recover once it writes', async () => {
    expect(await readiness()).toBe(200);
    await setReadOnly(true);

    await expect.poll(() => call('GET', '/api/v1/projects').then((res) => res.statusCode)).toBe(200);
    const refused = await call('POST', '/api/v1/projects', { name: 'Full', key: 'full' });
    expect(refused.statusCode).toBe(503);
    expect(refused.json()).toEqual({
      title:
        'The database cannot store changes right now: its disk is full or it is read-only. Please retry later.',
      code: 'unavailable',
    });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(await readiness()).toBe(503);
    expect(await readiness()).toBe(503);

    await setReadOnly(false);
    await expect.poll(readiness).toBe(200);
    const created = await call('POST', '/api/v1/projects', { name: 'Full', key: 'full' });
    expect(created.statusCode).toBe(201);
  });
});
