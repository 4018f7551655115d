/**
 * Resident memory of the product right after start, idle, on the embedded database (PGlite), and the
 * time from starting it on an existing database to `/readyz`. The server runs as `npm run serve`
 * does, in its own process; figures from /proc.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { ROOT, freePort } from './battery/product';

const IDLE_TARGET_MIB = 200;
const READY_TARGET_MS = 3_000;

async function rssMib(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN) / 1024;
}

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function start(dataDir: string): Promise<{ child: ChildProcess; readyMs: number }> {
  const port = await freePort();
  const begun = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      DATA_DIR: dataDir,
      VEXIL_ADMIN_PASSWORD: 'bench-password',
      LOG_LEVEL: 'warn',
    },
    stdio: 'ignore',
  });
  for (;;) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/readyz`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (performance.now() - begun > 60_000) throw new Error('The server did not get ready in 60 s');
    await settle(25);
  }
  return { child, readyMs: performance.now() - begun };
}

async function stop(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

export async function memory(): Promise<void> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'vexil-memory-'));
  try {
    const first = await start(dataDir);
    await settle(3_000);
    const firstRss = await rssMib(first.child.pid!);
    await stop(first.child);
    const again = await start(dataDir);
    await settle(3_000);
    const againRss = await rssMib(again.child.pid!);
    await stop(again.child);
    console.log('| figure | value | target |');
    console.log('|---|---|---|');
    console.log(
      `| resident memory after the first start (creates the database), idle | ${firstRss.toFixed(0)} MiB | — |`,
    );
    console.log(
      `| resident memory after a start on an existing database, idle | ${againRss.toFixed(0)} MiB | ≤ ${IDLE_TARGET_MIB} MiB (${againRss <= IDLE_TARGET_MIB ? 'within' : '**over**'}) |`,
    );
    console.log(
      `| start on an existing database → /readyz | ${again.readyMs.toFixed(0)} ms | ≤ ${READY_TARGET_MS} ms (${again.readyMs <= READY_TARGET_MS ? 'within' : '**over**'}) |`,
    );
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}
