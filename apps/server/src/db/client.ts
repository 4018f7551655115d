import { execFile } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { PgTransaction, type PgDatabase, type PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { is, type ExtractTablesWithRelations } from 'drizzle-orm';
import pg from 'pg';
import { isConnectionLost, isDatabaseUnavailable } from './errors';
import {
  createReachability,
  databaseTimeouts,
  postgresClientConfig,
  ResilientClient,
  type DatabaseTimeouts,
} from './postgres-connections';
import * as schema from './schema/index';

const execFileAsync = promisify(execFile);

export type Schema = typeof schema;
/** The one database type services and repositories see, whichever driver is behind it. */
export type Database = PgDatabase<PgQueryResultHKT, Schema>;
export type Transaction = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** Repositories take either the database or a transaction as their first argument. */
export type Executor = Database | Transaction;

/**
 * Reads that do not depend on each other: side by side on the database, one after another in a
 * transaction. A transaction has one connection, which answers one statement at a time anyway;
 * node-postgres queues statements sent to it together, warns that its next major version will
 * refuse them, and the queue would hide which statement a terminated connection failed.
 */
export async function readTogether<T extends readonly unknown[]>(
  executor: Executor,
  reads: readonly [...{ [K in keyof T]: () => PromiseLike<T[K]> }],
): Promise<T> {
  if (!is(executor, PgTransaction)) return (await Promise.all(reads.map((read) => read()))) as unknown as T;
  const results: unknown[] = [];
  for (const read of reads) results.push(await read());
  return results as unknown as T;
}

/**
 * The server package's `drizzle/` folder, found from this file's place: `src/db/client.ts` under tsx
 * and the tests, `dist/main.js` in the compiled server (apps/server/build.mjs).
 */
function findMigrationsFolder(): string {
  const start = path.dirname(fileURLToPath(import.meta.url));
  for (let dir = start; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'drizzle');
    if (existsSync(path.join(candidate, 'meta', '_journal.json'))) return candidate;
    if (path.dirname(dir) === dir) throw new Error(`No drizzle/meta/_journal.json above ${start}`);
  }
}

export const migrationsFolder = findMigrationsFolder();

export type DatabaseHandle = {
  db: Database;
  kind: 'pglite' | 'postgres';
  /** The connection string (PostgreSQL only): LISTEN/NOTIFY needs a connection of its own. */
  url?: string;
  /** The limits of every connection (PostgreSQL only), for connections made elsewhere (LISTEN/NOTIFY). */
  timeouts?: DatabaseTimeouts;
  /** Runs pending migrations; safe to call on every start. */
  migrate(): Promise<void>;
  ping(): Promise<void>;
  /**
   * Fails unless the database can store a new row now: a temporary table made, written and dropped
   * in one statement, which needs a new page on disk and is refused by a read-only database.
   */
  probeWrite(): Promise<void>;
  close(): Promise<void>;
};

/** One simple-query string: its own implicit transaction, whose commit drops the table again. */
const WRITE_PROBE =
  'create temporary table vexil_write_probe (at timestamptz) on commit drop; insert into vexil_write_probe values (now())';

export {
  createReachability,
  databaseTimeouts,
  DEFAULT_DATABASE_TIMEOUTS,
  postgresClientConfig,
  ResilientClient,
  type DatabaseTimeouts,
  type Reachability,
} from './postgres-connections';

/**
 * A transaction whose connection is lost before COMMIT runs once more on another connection: a
 * restarting or failing-over server, or an operator ending sessions, then costs a retry, not an error.
 */
const TRANSACTION_ATTEMPTS = 2;
/** …when the failed run was quick: one that already took longer fails at once, to fail fast. */
const RETRY_WITHIN_MS = 1_000;

export type DatabaseOptions =
  | {
      kind: 'postgres';
      url: string;
      max?: number;
      /** Defaults: DEFAULT_DATABASE_TIMEOUTS, or derived from `statementMs`; tests pass short ones. */
      timeouts?: Partial<DatabaseTimeouts>;
      /** Connections that fail, idle in the pool or checked out (a PostgreSQL restart, a terminated backend). */
      onConnectionError?: (error: Error) => void;
    }
  | { kind: 'pglite'; dataDir?: string; client?: PGlite };

/**
 * The embedded database is one process's, single-user: PostgreSQL's default 128 MB of shared buffers
 * (160 MB as PGlite sets them) are a quarter of its memory and buy nothing at its size. 16 MB keeps the
 * server's resident memory on an existing database about 100 MiB lower (`npm run bench -- memory`).
 */
export const PGLITE_SETTINGS = ['shared_buffers=16MB'];

/**
 * V8 flags for a process whose embedded database is its main WebAssembly: PostgreSQL's code stays
 * on V8's baseline compiler (Liftoff) instead of being recompiled by the optimising one as it gets
 * hot. The optimising compiles leave about 80 MiB of resident memory behind in the idle server on an
 * existing database (280 → 200 MiB); small queries run as fast, CPU-heavy ones (an aggregate over
 * thousands of rows) about a third slower. Set by main.ts before the database opens; the dashboard's
 * queries are small and the SDK API never waits on one (`npm run bench -- memory`). They hold for every
 * WebAssembly module compiled after them: the server's SHA-1 for bucketing (lib/sha1.ts), which they
 * would make four times slower, is compiled before.
 */
export const PGLITE_V8_FLAGS = ['--no-wasm-tier-up', '--no-wasm-dynamic-tiering'];

/**
 * Creates the embedded database's files on the first start, in a child process. PGlite runs initdb
 * in a second instance whose WebAssembly memory grows to some 400 MiB: in the server's thread 200 to
 * 450 MiB of it stayed resident until V8 happened to collect it, and in a worker thread some 75 MiB
 * stayed in the memory allocator's arenas. A process of its own returns all of it when it exits.
 * Does nothing when `dataDir` already holds a database.
 */
export async function createPgliteDataDir(dataDir: string): Promise<void> {
  if (existsSync(path.join(dataDir, 'PG_VERSION'))) return;
  mkdirSync(dataDir, { recursive: true });
  const source = `
    const [pglite, dataDir, settings] = process.argv.slice(1);
    const { PGlite } = await import(pglite);
    const db = await PGlite.create(dataDir, { postgresqlconf: JSON.parse(settings) });
    await db.close();`;
  const pglite = import.meta.resolve('@electric-sql/pglite');
  try {
    await execFileAsync(process.execPath, [
      '--input-type=module',
      '-e',
      source,
      pglite,
      dataDir,
      JSON.stringify(PGLITE_SETTINGS),
    ]);
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr?.trim();
    throw new Error(`Creating the database in ${dataDir} failed${stderr ? `:\n${stderr}` : ''}`, {
      cause: error,
    });
  }
}

/** How long PGlite's transactions may keep the event loop from coming round before one lets it. */
const STARVED_MS = 100;

export function openDatabase(options: DatabaseOptions): DatabaseHandle {
  if (options.kind === 'postgres') return openPostgres(options);
  let client = options.client;
  if (!client) {
    if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
    client = new PGlite(options.dataDir, { postgresqlconf: PGLITE_SETTINGS });
  }
  const pglite = client;
  const db = drizzlePglite({ client: pglite, schema }) as unknown as Database;
  // PGlite answers in this thread, and a transaction waiting for it starts as the one before ends,
  // within the same run of promise callbacks: a burst of them (the scheduler's 1,000 steps due at one
  // instant) would keep Node from reading any socket until the last one ends. A timer notes each time
  // the event loop comes round; a transaction that finds it has not for 100 ms first lets it take its
  // turn (answer requests, fire timers, stream to SDKs). At rest nothing waits.
  let turned = performance.now();
  const beat = setInterval(() => (turned = performance.now()), 25);
  beat.unref();
  const transaction = db.transaction.bind(db);
  db.transaction = (async (run, config) => {
    if (performance.now() - turned > STARVED_MS) {
      await new Promise((resolve) => setImmediate(resolve));
      turned = performance.now();
    }
    return transaction(run, config);
  }) as Database['transaction'];
  return {
    db,
    kind: 'pglite',
    migrate: () => migratePglite(drizzlePglite({ client: pglite, schema }), { migrationsFolder }),
    ping: async () => {
      await pglite.query('select 1');
    },
    probeWrite: async () => {
      await pglite.exec(WRITE_PROBE);
    },
    close: async () => {
      clearInterval(beat);
      if (!pglite.closed) await pglite.close();
    },
  };
}

function openPostgres(options: Extract<DatabaseOptions, { kind: 'postgres' }>): DatabaseHandle {
  const timeouts = databaseTimeouts(options.timeouts);
  const config = postgresClientConfig(options.url, timeouts);
  const onConnectionError = options.onConnectionError ?? (() => {});
  const reachability = createReachability(config, timeouts);
  const pool = new pg.Pool({
    ...config,
    max: options.max ?? 10,
    Client: ResilientClient,
    // Read by each ResilientClient the pool makes (its options are passed on as they are).
    ...{ reachability, suspectMs: timeouts.suspectMs },
  });
  // Each client reports its loss once, idle or checked out (a lost connection emits more than one
  // error). The pool repeats idle clients' errors and replaces them: its event needs a listener
  // too, or it would be thrown.
  pool.on('connect', (client) => client.once('error', onConnectionError));
  pool.on('error', () => {});
  const db = drizzlePg({ client: pool, schema });
  db.transaction = async (run, transactionConfig) => {
    // Drizzle checks a client out for a transaction but never gives it back when BEGIN fails (the
    // pool would shrink to nothing as connections fail), and gives back one whose connection failed
    // mid-transaction as if it were sound.
    const started = performance.now();
    for (let attempt = 1; ; attempt++) {
      const client = await pool.connect();
      let broken: Error | undefined;
      let committing = false;
      try {
        return await drizzlePg({ client, schema }).transaction(async (tx) => {
          const result = await run(tx);
          committing = true;
          return result;
        }, transactionConfig);
      } catch (error) {
        if (!isDatabaseUnavailable(error)) throw error;
        broken = error instanceof Error ? error : new Error(String(error));
        // A session that ends before COMMIT is sent never commits: the whole transaction is undone,
        // so running it again on another connection cannot apply anything twice. A failed COMMIT
        // has an unknown outcome and is never repeated.
        const retry =
          !committing &&
          attempt < TRANSACTION_ATTEMPTS &&
          performance.now() - started < RETRY_WITHIN_MS &&
          isConnectionLost(error);
        if (!retry) throw error;
      } finally {
        client.release(broken);
      }
    }
  };
  return {
    db: db as unknown as Database,
    kind: 'postgres',
    url: options.url,
    timeouts,
    migrate: async () => {
      // Migrations may rightly run longer than any request: a connection of their own, unlimited.
      const client = new ResilientClient({
        connectionString: options.url,
        connectionTimeoutMillis: timeouts.connectMs,
      });
      await client.connect();
      try {
        await migratePg(drizzlePg({ client, schema }), { migrationsFolder });
      } finally {
        await client.end();
      }
    },
    ping: () => pingWithin(pool, timeouts.pingMs),
    probeWrite: () => pingWithin(pool, timeouts.pingMs, WRITE_PROBE),
    close: async () => {
      if (!pool.ended) await pool.end();
    },
  };
}

/** `select 1` (or `text`) that fails after `ms` even while no connection can be had. */
async function pingWithin(pool: pg.Pool, ms: number, text = 'select 1'): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  // node-postgres reads query_timeout per query too, though its types do not say so.
  const query = pool.query({ text, query_timeout: ms } as pg.QueryConfig);
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`The database did not answer within ${ms} ms`)), ms);
  });
  query.catch(() => {}); // it may fail after the deadline has already answered
  try {
    await Promise.race([query, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
