/**
 * Server SDK polling at a fixed rate with autocannon: each connection cycles through every tenant's
 * full body and 304 (If-None-Match with the current ETag). Also the floor: a bare Node HTTP server
 * in its own process answering the same mix with a body of the same size.
 */
import { spawn } from 'node:child_process';
import autocannon from 'autocannon';
import type { Tenant } from './setup';

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

export async function sdkFetch(
  base: string,
  polls: readonly Poll[],
  rate: number,
  seconds: number,
): Promise<FetchFigures> {
  const result = await autocannon({
    url: `${base}/api/sdk/v1/features`,
    connections: Math.max(10, Math.ceil(rate / 20)),
    overallRate: rate,
    duration: seconds,
    timeout: 10,
    requests: polls.map((poll) => ({ method: 'GET', path: '/api/sdk/v1/features', headers: poll.headers })),
  });
  const stats = result.statusCodeStats ?? {};
  let ok = 0;
  let answered = 0;
  const failures: string[] = [];
  for (const [code, { count = 0 }] of Object.entries(stats)) {
    answered += count;
    const status = Number(code);
    if ((status >= 200 && status < 300) || status === 304) ok += count;
    else failures.push(`${count}× ${code}`);
  }
  if (result.errors) failures.push(`${result.errors} connection errors (${result.timeouts} timeouts)`);
  const total = answered + result.errors;
  return {
    p50: result.latency.p50,
    p99: result.latency.p99,
    achieved: answered / result.duration,
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
  const child = spawn(process.execPath, ['-e', FLOOR_SERVER], {
    env: { ...process.env, FLOOR_BYTES: String(bytes) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<string>((resolve, reject) => {
    child.once('error', reject);
    child.stdout!.once('data', (chunk: Buffer) => resolve(chunk.toString().trim()));
  });
  return { base: `http://127.0.0.1:${port}`, stop: () => child.kill('SIGKILL') };
}
