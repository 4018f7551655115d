/**
 * Resident memory of the product 3 s after it is ready, idle, and the time from starting it to
 * `/readyz`: on the embedded database (PGlite) at the first start and on an existing database, and on
 * PostgreSQL (a throw-away database on the shared server, as the battery's). The server runs as
 * `npm run serve` runs it (the compiled server, `npm run build` first, with the same Node flags), in
 * its own process; figures from /proc.
 *
 * Each beside a floor measured in the same run with the same Node flags (memory-floor.mjs): a bare
 * node:http server holding the same database, PGlite opened on the same data directory with the
 * product's settings and V8 flags, or one node-postgres connection.
 */
import { randomBytes } from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { openDatabase, PGLITE_SETTINGS, PGLITE_V8_FLAGS } from '@vexil/server/src/db/client';
import { serveArguments, serveEnvironment } from '../e2e/support/server';
import { ROOT, freePort } from './battery/product';
import { DEFAULT_PG_ADMIN_URL } from './battery/store';

const FLOOR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'memory-floor.mjs');

const PGLITE_IDLE_TARGET_MIB = 200;
const POSTGRES_IDLE_TARGET_MIB = 120;
const READY_TARGET_MS = 3_000;
/** How long after /readyz the memory is read: start-up is over, V8's idle memory reducer not yet run. */
const SETTLE_MS = 3_000;

type Started = { child: ChildProcess; readyMs: number };
type Measured = { rssMib: number; readyMs: number };

async function rssMib(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN) / 1024;
}

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Spawns `node <args>` from the repository root and resolves once GET /readyz on `port` answers 200. */
async function start(args: string[], port: number, env: Record<string, string>): Promise<Started> {
  const inherited = { ...process.env };
  delete inherited.DATABASE_URL;
  delete inherited.DATA_DIR;
  const begun = performance.now();
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: {
      ...inherited,
      ...serveEnvironment(),
      NODE_ENV: 'production',
      PORT: String(port),
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`node ${args.join(' ')} exited before it was ready:\n${stderr}`);
    }
    try {
      const res = await fetch(`http://127.0.0.1:${port}/readyz`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (performance.now() - begun > 60_000) {
      child.kill('SIGKILL');
      throw new Error(`node ${args.join(' ')} did not get ready in 60 s:\n${stderr}`);
    }
    await settle(25);
  }
  return { child, readyMs: performance.now() - begun };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** Starts `node <args for a free port>`, waits SETTLE_MS, reads the resident memory and stops. */
async function measure(
  args: (port: number) => string[],
  env: Record<string, string> = {},
): Promise<Measured> {
  const port = await freePort();
  const started = await start(args(port), port, env);
  try {
    await settle(SETTLE_MS);
    return { rssMib: await rssMib(started.child.pid!), readyMs: started.readyMs };
  } finally {
    await stop(started.child);
  }
}

/** The product as `npm run serve` runs it. */
function product(env: Record<string, string>): Promise<Measured> {
  return measure(() => serveArguments(), { VEXIL_ADMIN_PASSWORD: 'bench-password', ...env });
}

/** The floor with the product's Node flags and environment (the serve script's, less the server's file). */
function floor(database: string[]): Promise<Measured> {
  return measure((port) => [...serveArguments().slice(0, -1), FLOOR, String(port), ...database]);
}

type Row = { figure: string; vexil: string; floor: string; ratio: string; target: string };

const mib = (value: number) => `${value.toFixed(0)} MiB`;
const ms = (value: number) => `${value.toFixed(0)} ms`;
const ratio = (vexil: number, base: number) => `${(vexil / base).toFixed(1)}×`;
const within = (value: number, target: number, unit: string) =>
  `≤ ${target} ${unit} (${value <= target ? 'within' : '**over**'})`;

async function pgliteRows(): Promise<Row[]> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'vexil-memory-'));
  try {
    const first = await product({ DATA_DIR: dataDir });
    const again = await product({ DATA_DIR: dataDir });
    const bare = await floor([
      'pglite',
      import.meta.resolve('@electric-sql/pglite'),
      dataDir,
      JSON.stringify(PGLITE_SETTINGS),
      JSON.stringify(PGLITE_V8_FLAGS),
    ]);
    const bareFigure = (value: string) => `${value} (bare PGlite + node:http, same data directory)`;
    return [
      {
        figure: 'resident memory, idle: PGlite, existing database',
        vexil: mib(again.rssMib),
        floor: bareFigure(mib(bare.rssMib)),
        ratio: ratio(again.rssMib, bare.rssMib),
        target: within(again.rssMib, PGLITE_IDLE_TARGET_MIB, 'MiB'),
      },
      {
        figure: 'resident memory, idle: PGlite, first start (creates the database)',
        vexil: mib(first.rssMib),
        floor: bareFigure(mib(bare.rssMib)),
        ratio: ratio(first.rssMib, bare.rssMib),
        target: '—',
      },
      {
        figure: 'start → /readyz: PGlite, existing database',
        vexil: ms(again.readyMs),
        floor: bareFigure(ms(bare.readyMs)),
        ratio: ratio(again.readyMs, bare.readyMs),
        target: within(again.readyMs, READY_TARGET_MS, 'ms'),
      },
      {
        figure: 'start → /readyz: PGlite, first start',
        vexil: ms(first.readyMs),
        floor: '—',
        ratio: '—',
        target: '—',
      },
    ];
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

async function postgresRows(adminUrl: string): Promise<Row[]> {
  const figure = 'resident memory, idle: PostgreSQL, existing database';
  const admin = openDatabase({ kind: 'postgres', url: adminUrl, max: 1, timeouts: { connectMs: 2_000 } });
  const name = `vexil_memory_${randomBytes(4).toString('hex')}`;
  try {
    await admin.db.execute(sql.raw(`create database ${name}`));
  } catch (error) {
    await admin.close();
    const reason = error instanceof Error ? error.message : String(error);
    return [{ figure, vexil: `not measured (${adminUrl}: ${reason})`, floor: '—', ratio: '—', target: '—' }];
  }
  const dataDir = await mkdtemp(path.join(tmpdir(), 'vexil-memory-'));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const env = {
    DATABASE_URL: url.toString(),
    DATA_DIR: dataDir,
    SECRETS_KEY: randomBytes(32).toString('hex'),
  };
  try {
    await product(env); // the first start migrates and seeds
    const again = await product(env);
    const bare = await floor(['postgres', url.toString()]);
    const bareFigure = (value: string) => `${value} (bare node:http + one node-postgres connection)`;
    return [
      {
        figure,
        vexil: mib(again.rssMib),
        floor: bareFigure(mib(bare.rssMib)),
        ratio: ratio(again.rssMib, bare.rssMib),
        target: within(again.rssMib, POSTGRES_IDLE_TARGET_MIB, 'MiB'),
      },
      {
        figure: 'start → /readyz: PostgreSQL, existing database',
        vexil: ms(again.readyMs),
        floor: bareFigure(ms(bare.readyMs)),
        ratio: ratio(again.readyMs, bare.readyMs),
        target: '—',
      },
    ];
  } finally {
    await rm(dataDir, { recursive: true, force: true });
    await admin.db.execute(sql.raw(`drop database if exists ${name} with (force)`));
    await admin.close();
  }
}

export async function memory(): Promise<void> {
  const node = await floor([]);
  const rows = [...(await pgliteRows()), ...(await postgresRows(DEFAULT_PG_ADMIN_URL))];
  console.log('| figure | Vexil | floor | ratio | target |');
  console.log('|---|---|---|---|---|');
  for (const row of rows)
    console.log(`| ${row.figure} | ${row.vexil} | ${row.floor} | ${row.ratio} | ${row.target} |`);
  console.log(
    `\nMemory ${SETTLE_MS / 1000} s after /readyz, no requests; a bare node:http server with the same flags: ${mib(node.rssMib)}.`,
  );
}
