/**
 * The SDK bench's tools (sdk.bench.ts): load with autocannon, the bare node:http floor, open SSE streams,
 * the engine alone, resident memory, and the demo project of 200 features the figures are taken on.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import type { EvaluableControl } from '@vexil/core';
import { ADMIN_PASSWORD } from '../e2e/support/server';

const HERE = path.dirname(fileURLToPath(import.meta.url));

export type Load = { rps: number; p50: number; p99: number; failed: number };
export type Row = {
  figure: string;
  vexil: string;
  floor: string;
  ratio: string;
  target: string;
  verdict: string;
};

export const number = (n: number) => Math.round(n).toLocaleString('en-GB');
export const verdict = (ok: boolean) => (ok ? 'met' : '**missed**');

export async function cannon(
  options: Omit<autocannon.Options, 'duration' | 'connections'>,
  expected: number,
): Promise<Load> {
  // Two seconds first, not counted: both servers measured warm (JIT, connections, caches).
  await autocannon({ connections: 50, duration: 2, ...options });
  const result = await autocannon({ connections: 50, duration: 10, ...options });
  const statuses = result.statusCodeStats as unknown as Record<string, { count: number }>;
  const others = Object.entries(statuses).filter(([status]) => status !== String(expected));
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    // Every answer not of the expected status (a 304 is the answer wanted of a revalidation).
    failed: result.errors + result.timeouts + others.reduce((sum, [, { count }]) => sum + count, 0),
  };
}

async function api(base: string, token: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', host: 'localhost' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.status === 204 ? null : ((await res.json()) as unknown);
}

export function percentile(samples: number[], q: number) {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

/** Resident memory of a process, from /proc (Linux). */
export async function rssMiB(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
}

/** The bare node:http floor in its own process, serving the same bytes, ETag and SSE frame. */
export async function startFloor(body: Buffer, etag: string, frame: string) {
  const dir = await mkdtemp(path.join(tmpdir(), 'vexil-floor-'));
  await writeFile(path.join(dir, 'body.json'), body);
  await writeFile(path.join(dir, 'frame.txt'), frame);
  const child = spawn(
    process.execPath,
    [path.join(HERE, 'floor-server.mjs'), path.join(dir, 'body.json'), etag, path.join(dir, 'frame.txt')],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout.once('data', (chunk: Buffer) =>
      resolve((JSON.parse(chunk.toString()) as { port: number }).port),
    );
    child.once('exit', (code) => reject(new Error(`The floor server exited (${String(code)})`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    async stop() {
      child.kill();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Opens `count` SSE streams (in batches, as clients arrive) and resolves with a function that waits
 * for the next update on all of them.
 */
async function openStreams(url: string, headers: Record<string, string>, count: number) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
  const pending = new Set<number>();
  let arrivals: number[] = [];
  let resolveAll: (() => void) | null = null;
  const requests: http.ClientRequest[] = [];
  const open = (i: number) =>
    new Promise<void>((resolve, reject) => {
      const request = http.get(
        url,
        { agent, headers: { ...headers, accept: 'text/event-stream' } },
        (response) => {
          let first = true;
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => {
            if (first) {
              first = false;
              resolve();
              return;
            }
            if (chunk.includes('event: features.updated') && pending.has(i)) {
              pending.delete(i);
              arrivals.push(performance.now());
              if (pending.size === 0) resolveAll?.();
            }
          });
        },
      );
      request.on('error', reject);
      requests.push(request);
    });
  for (let i = 0; i < count; i += 500) {
    await Promise.all(Array.from({ length: Math.min(500, count - i) }, (_, j) => open(i + j)));
  }
  return {
    /** Latencies (ms) from the trigger's start to each stream's arrival. */
    async next(trigger: () => Promise<unknown>): Promise<number[]> {
      arrivals = [];
      for (let i = 0; i < count; i++) pending.add(i);
      const done = new Promise<void>((resolve) => (resolveAll = resolve));
      const start = performance.now();
      await trigger();
      await done;
      return arrivals.map((at) => at - start);
    },
    close() {
      for (const request of requests) request.destroy();
      agent.destroy();
    },
  };
}

/** Users a second the engine alone evaluates over these controls, in a loop on this thread. */
export function engineRate(evaluateAll: (at: Date) => unknown, ms = 2000): number {
  const at = new Date();
  for (let i = 0; i < 200; i++) evaluateAll(at);
  let count = 0;
  const start = performance.now();
  while (performance.now() - start < ms) {
    for (let i = 0; i < 50; i++) evaluateAll(at);
    count += 50;
  }
  return count / ((performance.now() - start) / 1000);
}

export function base64User(user: { id: string; attributes: Record<string, unknown> }): string {
  return Buffer.from(JSON.stringify(user)).toString('base64');
}

type Bench = Awaited<ReturnType<typeof prepare>>;

/** The demo organisation gets a project of 200 features, each with a targeting rule and a 50/50 split. */
export async function prepare(base: string) {
  const login = await fetch(`${base}/api/authenticate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin@example.com', password: ADMIN_PASSWORD, domain: 'demo' }),
  });
  const token = ((await login.json()) as { id_token: string }).id_token;
  const project = (await api(base, token, 'POST', '/api/v1/projects/', { name: 'Bench', key: 'bench' })) as {
    environments: { key: string; apiKey: string; jsApiKey: string }[];
  };
  const development = project.environments.find((e) => e.key === 'development')!;
  const rules = [
    {
      defaultRule: false,
      audience: { conditions: [{ target: 'tier', operator: 'equals', values: ['gold'] }] },
      variantSplits: [{ variantKey: 'on', split: 100 }],
    },
    {
      defaultRule: true,
      audience: null,
      variantSplits: [
        { variantKey: 'off', split: 50 },
        { variantKey: 'on', split: 50 },
      ],
    },
  ];
  let firstControlId: string | null = null;
  for (let i = 0; i < 200; i += 20) {
    const batch = await Promise.all(
      Array.from({ length: 20 }, (_, j) =>
        api(base, token, 'POST', '/api/v1/projects/bench/features', {
          name: `Feature ${i + j}`,
          key: `feature-${i + j}`,
        }),
      ),
    );
    await Promise.all(
      batch.map((feature) => {
        const control = (feature as { controls: Record<string, { id: string }> }).controls.development!;
        firstControlId ??= control.id;
        return api(base, token, 'PUT', '/api/v1/feature-controls/', {
          id: control.id,
          enabled: true,
          offVariantKey: 'off',
          rules,
        });
      }),
    );
  }
  await new Promise((resolve) => setTimeout(resolve, 500));
  const auth = { authorization: `Bearer ${development.apiKey}` };
  const full = await fetch(`${base}/api/sdk/v1/features`, { headers: auth });
  const etag = full.headers.get('etag')!;
  const body = Buffer.from(await full.arrayBuffer());
  const controls = Object.values(JSON.parse(body.toString('utf8')) as Record<string, EvaluableControl>);
  let enabled = true;
  return {
    token,
    auth,
    jsApiKey: development.jsApiKey,
    serverKey: development.apiKey,
    etag,
    body,
    controls,
    /** The SSE frame a toggle of one feature sends, for the floor to send the same bytes. */
    frame: `event: features.updated\ndata: {"feature-0":${JSON.stringify({ ...controls[0], enabled: false })}}\n\n`,
    /** Toggles the first feature through the dashboard API. */
    toggle: () => {
      enabled = !enabled;
      return api(base, token, 'PUT', '/api/v1/feature-controls/', {
        id: firstControlId,
        enabled,
        offVariantKey: 'off',
        rules,
      });
    },
  };
}

export async function streamsRow(
  rows: Row[],
  count: number,
  target: { p99: number; rssMiB?: number },
  vexil: { url: string; pid: number; bench: Bench },
  floor: { url: string; pid: number },
) {
  const rounds = 20;
  const measure = async (
    url: string,
    headers: Record<string, string>,
    pid: number,
    trigger: () => Promise<unknown>,
  ) => {
    const before = await rssMiB(pid);
    const streams = await openStreams(url, headers, count);
    const latencies: number[] = [];
    for (let round = 0; round < rounds; round++) latencies.push(...(await streams.next(trigger)));
    const rss = await rssMiB(pid);
    streams.close();
    return { p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99), rss, added: rss - before };
  };
  const bare = await measure(`${floor.url}/`, {}, floor.pid, () =>
    fetch(`${floor.url}/toggle`, { method: 'POST' }),
  );
  const ours = await measure(
    `${vexil.url}/api/sdk/v1/features`,
    vexil.bench.auth,
    vexil.pid,
    vexil.bench.toggle,
  );
  rows.push({
    figure: `toggle → ${number(count)} open SSE streams, p99 (p50) ms, from the PUT's start`,
    vexil: `${ours.p99.toFixed(1)} (${ours.p50.toFixed(1)})`,
    floor: `${bare.p99.toFixed(1)} (${bare.p50.toFixed(1)})`,
    ratio: `${(ours.p99 / bare.p99).toFixed(1)}×`,
    target: `p99 ≤ ${target.p99} ms`,
    verdict: verdict(ours.p99 <= target.p99),
  });
  if (target.rssMiB !== undefined) {
    rows.push({
      figure: `resident memory with ${number(count)} open SSE streams, MiB (added by the streams)`,
      vexil: `${ours.rss.toFixed(0)} (+${ours.added.toFixed(0)})`,
      floor: `${bare.rss.toFixed(0)} (+${bare.added.toFixed(0)})`,
      ratio: `${(ours.added / Math.max(1, bare.added)).toFixed(1)}× added`,
      target: `≤ ${target.rssMiB} MiB in all`,
      verdict: verdict(ours.rss <= target.rssMiB),
    });
  }
}
