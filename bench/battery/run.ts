/**
 * The hardening battery: `npm run battery` measures the built product in a child process on
 * loopback, on PostgreSQL (a database of its own, reached through a proxy the battery can cut) and
 * on PGlite, prints one table with the figures and a pass/fail per row, and exits non-zero when a
 * row fails. Options: `--quick` (short phases, for development), `--db=pg|pglite`, `--pg=<admin
 * URL>` (default postgres://postgres@127.0.0.1:5432/postgres), `--product-log=<file>` (append the
 * product's output there), `--log-level=<pino level>` (the product's, default warn), `--no-pin`
 * (leave the processes unpinned; see cpus.ts) and row ids (`R1 S2` or `--rows=R1,S2`).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Context } from './context';
import { disablePinning, pinningDescription, pinSelfToLoadCpus } from './cpus';
import { r3, r4 } from './faults.rows';
import { r1, r2, r5 } from './load.rows';
import { s3 } from './login.rows';
import { s2 } from './permissions.rows';
import { s1 } from './poison.rows';
import { freePort, Product, ROOT } from './product';
import { printTable, ROW_IDS, type Outcome, type RowId, type RowResult } from './report';
import { PASSWORD, prepare, setUpTenants } from './setup';
import { createStore, DEFAULT_PG_ADMIN_URL, type DbKind } from './store';

/** Run order: the poison row last, as what it registers grows every later SDK payload. */
const ORDER: { id: RowId; run: (ctx: Context) => Promise<Outcome> }[] = [
  { id: 'S2', run: s2 },
  { id: 'S3', run: s3 },
  { id: 'R1', run: r1 },
  { id: 'R2', run: r2 },
  { id: 'R3', run: r3 },
  { id: 'R4', run: r4 },
  { id: 'R5', run: r5 },
  { id: 'S1', run: s1 },
];

function parseArgs(argv: string[]) {
  const value = (name: string) =>
    argv
      .find((a) => a.startsWith(`--${name}=`))
      ?.split('=')
      .slice(1)
      .join('=');
  const db = value('db');
  if (db && db !== 'pg' && db !== 'pglite') throw new Error(`--db must be pg or pglite, not ${db}`);
  const named = [...(value('rows')?.split(',') ?? []), ...argv.filter((a) => !a.startsWith('--'))].map((r) =>
    r.trim().toUpperCase(),
  );
  const unknown = named.filter((r) => !ROW_IDS.includes(r as RowId));
  if (unknown.length) throw new Error(`unknown rows ${unknown.join(', ')} (known: ${ROW_IDS.join(', ')})`);
  return {
    quick: argv.includes('--quick'),
    dbs: (db ? [db] : ['pg', 'pglite']) as DbKind[],
    rows: named.length ? (named as RowId[]) : ROW_IDS,
    pgUrl: value('pg') ?? DEFAULT_PG_ADMIN_URL,
    productLog: value('product-log'),
    logLevel: value('log-level'),
    pin: !argv.includes('--no-pin'),
  };
}

/** The first line of an error and of its cause (a failed query's cause is the database's reason). */
function describeError(error: unknown): string {
  const first = (value: unknown) => (value instanceof Error ? value.message : String(value)).split('\n')[0];
  const cause = error instanceof Error && error.cause ? `: ${first(error.cause)}` : '';
  return `${first(error)}${cause}`;
}

const started = performance.now();
function log(message: string) {
  console.log(`[${((performance.now() - started) / 1000).toFixed(0).padStart(4)} s] ${message}`);
}

async function runOn(kind: DbKind, options: ReturnType<typeof parseArgs>): Promise<RowResult[]> {
  const results: RowResult[] = [];
  log(`${kind}: preparing the database`);
  const store = await createStore(kind, options.pgUrl);
  const product = new Product(
    await freePort(),
    {
      ...store.productEnv,
      VEXIL_ADMIN_PASSWORD: PASSWORD,
      ...(options.logLevel ? { LOG_LEVEL: options.logLevel } : {}),
    },
    options.productLog,
  );
  try {
    await prepare(store);
    await product.start();
    log(`${kind}: product ready on ${product.base} (pid ${product.pid}); setting up organisations`);
    const tenants = await setUpTenants(product.base, 200);
    const ctx: Context = {
      store,
      product,
      tenants,
      quick: options.quick,
      seconds: (full, quick) => (options.quick ? quick : full),
      log: (message) => log(`${kind}: ${message}`),
    };
    for (const { id, run } of ORDER.filter((row) => options.rows.includes(row.id))) {
      const rowStart = performance.now();
      log(`${kind}: ${id}`);
      let outcome: Outcome;
      try {
        if (!product.alive) await product.start();
        outcome = await run(ctx);
      } catch (error) {
        outcome = { verdict: 'FAIL', figures: [], why: [`the row could not run: ${describeError(error)}`] };
        log(`${kind}: ${id} aborted: ${error instanceof Error ? error.stack : String(error)}`);
      }
      const seconds = (performance.now() - rowStart) / 1000;
      results.push({ ...outcome, id, db: kind, seconds });
      log(`${kind}: ${id} ${outcome.verdict}${outcome.why ? ` (${outcome.why.join('; ')})` : ''}`);
    }
  } catch (error) {
    const message = describeError(error);
    log(`${kind}: setup failed: ${error instanceof Error ? error.stack : String(error)}`);
    for (const id of options.rows.filter((row) => !results.some((r) => r.id === row)))
      results.push({
        id,
        db: kind,
        seconds: 0,
        verdict: 'FAIL',
        figures: [],
        why: [`setup failed: ${message}`],
      });
  } finally {
    await product.stop();
    await store.dispose();
  }
  return results;
}

const options = parseArgs(process.argv.slice(2));
if (options.pin) pinSelfToLoadCpus();
else disablePinning();
if (!existsSync(path.join(ROOT, 'apps/web/dist/index.html')))
  log('note: apps/web/dist is missing (run `npm run build`); the battery does not need the dashboard pages');
log(
  `battery${options.quick ? ' (--quick)' : ''}: rows ${options.rows.join(' ')} on ${options.dbs.join(' and ')}; ${pinningDescription()}`,
);
const results: RowResult[] = [];
for (const kind of options.dbs) results.push(...(await runOn(kind, options)));
results.sort((a, b) => a.db.localeCompare(b.db) || ROW_IDS.indexOf(a.id) - ROW_IDS.indexOf(b.id));
printTable(results);
const failed = results.filter((r) => r.verdict === 'FAIL');
const na = results.filter((r) => r.verdict === 'n/a');
console.log(
  `${results.length - failed.length - na.length} pass, ${failed.length} fail, ${na.length} n/a` +
    `${na.length ? ' (R3 and R4 need a database server to terminate or cut: n/a on the embedded PGlite)' : ''}` +
    `; ${((performance.now() - started) / 60_000).toFixed(1)} min`,
);
process.exit(failed.length ? 1 : 0);
