import { sql } from 'drizzle-orm';
import type { Database } from '../src/db/client';

function rowsOf<T>(result: unknown): T[] {
  return ((result as { rows?: T[] }).rows ?? (result as T[])) as T[];
}

/**
 * Tables that count requests rather than hold what they wrote: every request to a limited route is
 * counted, a refused one too (that is what a limit is for), so they are left out of the digest.
 */
const REQUEST_COUNTERS = new Set(['throttle_counters']);

/**
 * The durable queue's worker runs the jobs earlier requests added while a test looks: what a job is
 * counts (a request that adds one wrote something), how far the worker has got with it does not.
 */
const WORKER_STATE: Readonly<Record<string, string | null>> = {
  jobs: 'select t.id, t.organisation_id, t.kind, t.payload, t.dedupe_key, t.created_at from "jobs" t',
  job_attempts: null,
};

/**
 * A digest of every row of every table (or of one organisation's rows), to prove a request wrote
 * nothing; request counters and the queue worker's progress aside.
 */
export async function fingerprint(db: Database, organisationId?: string): Promise<Record<string, string>> {
  const tables = rowsOf<{ tablename: string; scoped: boolean }>(
    await db.execute(sql`
      select t.tablename,
             exists (select 1 from information_schema.columns c
                     where c.table_schema = 'public' and c.table_name = t.tablename and c.column_name = 'organisation_id') as scoped
      from pg_tables t where t.schemaname = 'public' order by t.tablename`),
  );
  const out: Record<string, string> = {};
  for (const { tablename, scoped } of tables) {
    if (REQUEST_COUNTERS.has(tablename) || WORKER_STATE[tablename] === null) continue;
    let where = '';
    if (organisationId) {
      if (scoped) where = `where t.organisation_id = '${organisationId}'`;
      else if (tablename === 'organisations') where = `where t.id = '${organisationId}'`;
      else continue;
    }
    const [row] = rowsOf<{ digest: string | null }>(
      await db.execute(
        sql.raw(
          `select md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as digest from ${
            WORKER_STATE[tablename] ? `(${WORKER_STATE[tablename]} ${where}) t` : `"${tablename}" t ${where}`
          }`,
        ),
      ),
    );
    out[tablename] = row?.digest ?? '';
  }
  return out;
}
