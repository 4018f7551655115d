/**
 * Server SDK polling at a fixed rate: the requests cycle through every tenant's full body and 304
 * (If-None-Match with the current ETag). Also the floor: a bare Node HTTP server
 * in its own process answering the same mix with a body of the same size.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { onCpus } from './cpus';
import type { PollFigures, PollJob } from './poller';
import type { Tenant } from './setup';

const POLLER = fileURLToPath(new URL('./poller.ts', import.meta.url));

export type FetchFigures = {
  p50: number;
  p99: number;
  /** Requests per second actually sent. */
  achieved: number;
  total: number;
  /** 2xx and 304. */
  ok: number;
  failed: number;
  failures: string;
};

type Poll = { headers: Record<string, string> };

/** The request mix for these tenants, with each tenant's ETag as it is now; and the full body's size. */
export async function pollMix(base: string, tenants: readonly Tenant[]) {
  const polls: Poll[] = [];
  let bytes = 0;
  for (const tenant of tenants) {
    const auth = { authorization: `Bearer ${tenant.production.apiKey}` };
    const full = await fetch(`${base}/api/sdk/v1/features`, { headers: auth });
    if (full.status !== 200) throw new Error(`SDK fetch for ${tenant.domain}: ${full.status}`);
    bytes = Math.max(bytes, (await full.arrayBuffer()).byteLength);
    polls.push({ headers: auth }, { headers: { ...auth, 'if-none-match': full.headers.get('etag') ?? '' } });
  }
  return { polls, bytes };
}

/**
 * Polls `base` with the mix at `rate` per second for `seconds`, from a process of its own (see
 * poller.ts): even spacing, latency from when each request was due.
 */
export async function sdkFetch(
  base: string,
  polls: readonly Poll[],
  rate: number,
  seconds: number,
): Promise<FetchFigures> {
  const job: PollJob = {
    base,
    path: '/api/sdk/v1/features',
    mix: polls.map((poll) => poll.headers),
    rate,
    seconds,
    connections: 256,
    maxInFlight: 10_000,
  };
  const [command, args] = onCpus('load', process.execPath, ['--import', 'tsx', POLLER, JSON.stringify(job)]);
  const child = spawn(command, args, {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const chunks: Buffer[] = [];
  child.stdout!.on('data', (chunk: Buffer) => chunks.push(chunk));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', resolve);
  });
  if (code !== 0) throw new Error(`the poller exited with ${code}`);
  const figures = JSON.parse(Buffer.concat(chunks).toString()) as PollFigures;
  let ok = 0;
  let answered = 0;
  const failures: string[] = [];
  for (const [code, count] of Object.entries(figures.statuses)) {
    answered += count;
    const status = Number(code);
    if ((status >= 200 && status < 300) || status === 304) ok += count;
    else failures.push(`${count}× ${code}`);
  }
  for (const [error, count] of Object.entries(figures.errors)) failures.push(`${count}× ${error}`);
  if (figures.skipped) failures.push(`${figures.skipped} not sent (10,000 answers outstanding)`);
  const total = answered + Object.values(figures.errors).reduce((sum, n) => sum + n, 0) + figures.skipped;
  const sorted = Float64Array.from(figures.latenciesMs).sort();
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
  return {
    p50: at(0.5),
    p99: at(0.99),
    achieved: answered / figures.elapsedS,
    total,
    ok,
    failed: total - ok,
    failures: failures.join(', '),
  };
}

const FLOOR_SERVER = `
const http = require('node:http');
const body = Buffer.alloc(Number(process.env.FLOOR_BYTES), 'x');
const server = http.createServer((request, response) => {
  if (request.headers['if-none-match']) { response.writeHead(304, { etag: '"floor"' }); response.end(); return; }
  response.writeHead(200, { 'content-type': 'application/json', etag: '"floor"' });
  response.end(body);
});
server.keepAliveTimeout = 72000;
server.listen(0, '127.0.0.1', () => process.stdout.write(String(server.address().port) + '\\n'));
`;

/** A bare Node HTTP server in a process of its own, answering the poll mix with `bytes` of body. */
export async function startFloor(bytes: number): Promise<{ base: string; stop: () => void }> {
  const [command, args] = onCpus('answers', process.execPath, ['-e', FLOOR_SERVER]);
  const child = spawn(command, args, {
    env: { ...process.env, FLOOR_BYTES: String(bytes) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<string>((resolve, reject) => {
    child.once('error', reject);
    child.stdout!.once('data', (chunk: Buffer) => resolve(chunk.toString().trim()));
  });
  return { base: `http://127.0.0.1:${port}`, stop: () => child.kill('SIGKILL') };
}
