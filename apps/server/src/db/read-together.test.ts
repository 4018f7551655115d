import pg from 'pg';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, type TestDatabase } from '../../test/test-database';
import { readTogether, type Executor } from './client';

/*
 * How many statements each node-postgres client has been sent and not yet answered, at most: a
 * transaction's client that is sent a second statement before the first answers queues it, which
 * node-postgres deprecates. Watched from the client class, so it sees every connection (PGlite has
 * none: there the figures stay 0).
 */
const original = pg.Client.prototype.query;
const pending = new WeakMap<object, number>();
let most = 0;
function watch() {
  pg.Client.prototype.query = function watched(this: pg.Client, ...args: unknown[]) {
    const now = (pending.get(this) ?? 0) + 1;
    pending.set(this, now);
    most = Math.max(most, now);
    const settle = () => pending.set(this, (pending.get(this) ?? 1) - 1);
    const result = (original as (...a: unknown[]) => unknown).apply(this, args);
    if (result instanceof Promise) result.then(settle, settle);
    else settle();
    return result;
  } as typeof original;
}

let database: TestDatabase;
beforeAll(async () => {
  watch();
  database = await openTestDatabase();
});
afterAll(async () => {
  pg.Client.prototype.query = original;
  await database?.destroy();
});

const reads = (executor: Executor) =>
  [
    () => executor.execute(sql`select pg_sleep(0.05), 1 as n`),
    () => executor.execute(sql`select 2 as n`),
    () => executor.execute(sql`select 3 as n`),
  ] as const;
const numbers = (results: readonly unknown[]) =>
  results.map((result) => {
    const rows = (result as { rows?: { n: number }[] }).rows ?? (result as { n: number }[]);
    return Number(rows[0]!.n);
  });

describe('readTogether', () => {
  it('answers every read, in the order asked, inside and outside a transaction', async () => {
    expect(numbers(await readTogether(database.db, reads(database.db)))).toEqual([1, 2, 3]);
    const inside = await database.db.transaction((tx) => readTogether(tx, reads(tx)));
    expect(numbers(inside)).toEqual([1, 2, 3]);
  });

  it('never sends a transaction’s connection a statement before the last one answered', async () => {
    most = 0;
    await database.db.transaction((tx) => readTogether(tx, reads(tx)));
    expect(most).toBeLessThanOrEqual(1);
    if (database.kind !== 'postgres') return;
    // What it prevents: the same reads sent together queue on the one connection.
    most = 0;
    await database.db.transaction(async (tx) => Promise.all(reads(tx).map((read) => read())));
    expect(most).toBeGreaterThan(1);
  });
});
