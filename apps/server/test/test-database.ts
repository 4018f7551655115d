import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { inject } from 'vitest';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { openDatabase, type DatabaseHandle } from '../src/db/client';
import { TEMPLATE_DATABASE, testDatabaseKind, withDatabase } from './database-url';

export type TestDatabase = DatabaseHandle & {
  /** Empties every table, keeping the schema. */
  reset(): Promise<void>;
  /** Drops the database (PostgreSQL) and closes connections. */
  destroy(): Promise<void>;
};

async function createFromTemplate(url: string, name: string) {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    // Two workers copying the template at once can collide ("being accessed by other users"): retry.
    for (let attempt = 0; ; attempt++) {
      try {
        await admin.query(`CREATE DATABASE ${name} TEMPLATE ${TEMPLATE_DATABASE}`);
        // A test database is thrown away at the end of its file: its commits need not wait for the
        // disk, which on a small machine was most of a test's time on PostgreSQL.
        await admin.query(`ALTER DATABASE ${name} SET synchronous_commit = off`);
        return;
      } catch (err) {
        if (attempt >= 20) throw err;
        await sleep(100 + Math.random() * 200);
      }
    }
  } finally {
    await admin.end();
  }
}

/** Empties every table of the schema in one round trip, in any order (foreign keys are not checked). */
const EMPTY_EVERY_TABLE = sql.raw(`do $$
declare
  r record;
begin
  set local session_replication_role = replica;
  for r in select tablename from pg_tables where schemaname = 'public' loop
    execute format('delete from %I', r.tablename);
  end loop;
end $$`);

/** One database per test file: a copy of the migrated template, never a fresh migration. */
export async function openTestDatabase(): Promise<TestDatabase> {
  let handle: DatabaseHandle;
  let drop: () => Promise<void> = async () => {};
  if (testDatabaseKind() === 'pg') {
    const url = process.env.TEST_DATABASE_URL!;
    const name = `vexil_t_${randomBytes(6).toString('hex')}`;
    await createFromTemplate(url, name);
    handle = openDatabase({ kind: 'postgres', url: withDatabase(url, name), max: 4 });
    drop = async () => {
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    };
  } else {
    const dump = readFileSync(inject('pgliteDumpPath'));
    const client = new PGlite({ loadDataDir: new Blob([dump]) });
    handle = openDatabase({ kind: 'pglite', client });
  }
  return {
    ...handle,
    async reset() {
      // Deleting every row with the foreign-key triggers off (the session is a superuser's in tests)
      // takes a few milliseconds where TRUNCATE of every table took hundreds on PostgreSQL, which gives
      // each truncated table new files: it was a third of the server suite's time. No table has a
      // sequence to restart.
      // A read the previous test's writes set off after their answer (a webhook or Slack post looking
      // for its subscriptions, say) may still hold a row: PostgreSQL then ends one of the two as a
      // deadlock. The read is the app's own business; the delete simply runs again.
      for (let attempt = 1; ; attempt++) {
        try {
          await handle.db.execute(EMPTY_EVERY_TABLE);
          return;
        } catch (error) {
          const code = (error as { cause?: { code?: unknown } }).cause?.code;
          if (code !== '40P01' || attempt >= 5) throw error;
        }
      }
    },
    async destroy() {
      await handle.close();
      await drop();
    },
  };
}
