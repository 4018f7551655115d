/**
 * The database a battery run owns: a PostgreSQL database of its own on the shared server (created
 * and dropped here, reached by the product through a proxy the battery can cut) or a temporary
 * PGlite directory. The battery reads it directly, never through the product.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql, type SQL } from 'drizzle-orm';
import { openDatabase, type DatabaseHandle } from '@vexil/server/src/db/client';
import { startProxy, type Proxy } from './proxy';

export type DbKind = 'pg' | 'pglite';

export type Store = {
  kind: DbKind;
  /** What the product's environment needs to reach the database. */
  productEnv: Record<string, string>;
  /** A direct handle; on PGlite only while the product is stopped. */
  open(): DatabaseHandle;
  /** PostgreSQL only. */
  proxy: Proxy | null;
  /** Terminates every backend of this database (PostgreSQL only); resolves with how many. */
  terminateBackends(): Promise<number>;
  dispose(): Promise<void>;
};

export const DEFAULT_PG_ADMIN_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

export async function rowsOf<T>(handle: DatabaseHandle, query: SQL): Promise<T[]> {
  const result = (await handle.db.execute(query)) as unknown as { rows: T[] } | T[];
  return Array.isArray(result) ? result : result.rows;
}

export async function createStore(kind: DbKind, pgAdminUrl: string): Promise<Store> {
  if (kind === 'pglite') {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'vexil-battery-'));
    return {
      kind,
      productEnv: { DATA_DIR: dataDir },
      open: () => openDatabase({ kind: 'pglite', dataDir }),
      proxy: null,
      terminateBackends: async () => 0,
      dispose: () => rm(dataDir, { recursive: true, force: true }),
    };
  }
  const name = `vexil_battery_${randomBytes(4).toString('hex')}`;
  const admin = openDatabase({ kind: 'postgres', url: pgAdminUrl, max: 2 });
  await admin.db.execute(sql.raw(`create database ${name}`));
  const adminUrl = new URL(pgAdminUrl);
  const direct = new URL(pgAdminUrl);
  direct.pathname = `/${name}`;
  const proxy = await startProxy({ host: adminUrl.hostname, port: Number(adminUrl.port || 5432) });
  const proxied = new URL(direct);
  proxied.hostname = '127.0.0.1';
  proxied.port = String(proxy.port);
  return {
    kind,
    productEnv: { DATABASE_URL: proxied.toString() },
    open: () => openDatabase({ kind: 'postgres', url: direct.toString(), max: 2 }),
    proxy,
    async terminateBackends() {
      const rows = await rowsOf<{ n: number }>(
        admin,
        sql`select count(pg_terminate_backend(pid))::int as n from pg_stat_activity
            where datname = ${name} and pid <> pg_backend_pid()`,
      );
      return rows[0]?.n ?? 0;
    },
    async dispose() {
      await proxy.close();
      await admin.db.execute(sql.raw(`drop database if exists ${name} with (force)`));
      await admin.close();
    },
  };
}

/**
 * Impressions stored per organisation domain for the features whose key starts with `prefix`: the
 * sum of `impression_counters.count` over every variant and day.
 */
export async function storedImpressions(store: Store, prefix: string): Promise<Map<string, number>> {
  const handle = store.open();
  try {
    const rows = await rowsOf<{ domain: string; n: string | number }>(
      handle,
      sql`select o.domain as domain, coalesce(sum(ic.count), 0)::bigint as n
          from impression_counters ic
          join feature_controls fc on fc.id = ic.feature_control_id
          join features f on f.id = fc.feature_id
          join organisations o on o.id = ic.organisation_id
          where f.key like ${`${prefix}-%`}
          group by o.domain`,
    );
    return new Map(rows.map((row) => [row.domain, Number(row.n)]));
  } finally {
    await handle.close();
  }
}
