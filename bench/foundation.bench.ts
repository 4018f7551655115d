/**
 * Benchmarks, printing figures (not pass/fail): `npm run bench`.
 * Foundation: what a password check costs, and what an authenticated dashboard call costs end to end.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { buildApp } from '@vexil/server/src/app';
import { loadConfig } from '@vexil/server/src/config';
import { openDatabase } from '@vexil/server/src/db/client';
import { hashPassword, verifyPassword } from '@vexil/server/src/lib/passwords';
import { seed } from '@vexil/server/src/seed';

function stats(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  const mean = sorted.reduce((a, b) => a + b, 0) / sorted.length;
  return { n: sorted.length, mean: mean.toFixed(3), p50: at(0.5).toFixed(3), p99: at(0.99).toFixed(3) };
}

async function timeIt(count: number, fn: () => Promise<unknown>) {
  const samples: number[] = [];
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    await fn();
    samples.push(performance.now() - start);
  }
  return stats(samples);
}

async function main() {
  const hash = await hashPassword('correct horse battery staple', 'standard');
  console.log(
    'scrypt verify, OWASP cost (ms)',
    await timeIt(10, () => verifyPassword('correct horse battery staple', hash)),
  );

  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'vexil-bench-'));
  const database = openDatabase({ kind: 'pglite', dataDir });
  await database.migrate();
  await seed(database.db, { adminPassword: 'bench-password', demo: true, hashCost: 'test' });
  const config = loadConfig({ LOG_LEVEL: 'silent', DATA_DIR: dataDir, PASSWORD_HASH_COST: 'test' });
  const app = await buildApp({ config, database, logger: false });
  const login = await app.inject({
    method: 'POST',
    url: '/api/authenticate',
    payload: { username: 'admin@example.com', password: 'bench-password', domain: 'demo' },
  });
  const token = login.json<{ id_token: string }>().id_token;
  const headers = { authorization: `Bearer ${token}` };
  await timeIt(50, () => app.inject({ method: 'GET', url: '/api/v1/initial', headers }));
  console.log(
    'GET /api/v1/initial on PGlite, in-process (ms)',
    await timeIt(500, () => app.inject({ method: 'GET', url: '/api/v1/initial', headers })),
  );
  console.log(
    'GET /healthz, in-process (ms)',
    await timeIt(2000, () => app.inject({ method: 'GET', url: '/healthz' })),
  );
  const rss = process.memoryUsage().rss / 1024 / 1024;
  console.log(`resident memory after the run: ${rss.toFixed(0)} MiB`);
  await app.close();
  rmSync(dataDir, { recursive: true, force: true });
}

export const foundation = main;
