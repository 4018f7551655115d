/**
 * The live dashboard's socket (GET /api/v1/live) at scale: what 1,000 open dashboards cost the
 * server in memory, and how long a toggle takes to reach all of them. Printed beside a floor
 * measured in the same run: a bare `ws` server in its own process holding as many sockets.
 */
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import { ADMIN_PASSWORD, startServer } from '../e2e/support/server';

const SOCKETS = 1_000;
/** The ceiling for 1,000 open dashboard connections. */
const MEMORY_TARGET_MB = 50;

async function rssMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
  return kb / 1024;
}

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** RSS after the process has been idle a moment, the lowest of a few readings. */
async function steadyRss(pid: number): Promise<number> {
  let lowest = Infinity;
  for (let i = 0; i < 5; i++) {
    await settle(400);
    lowest = Math.min(lowest, await rssMb(pid));
  }
  return lowest;
}

/** Opens `count` sockets (a few hundred at a time) and calls `onMessage` with each one's messages. */
async function openSockets(
  url: string,
  headers: Record<string, string>,
  count: number,
  onMessage: (index: number, data: string) => void,
): Promise<WebSocket[]> {
  const sockets: WebSocket[] = [];
  for (let start = 0; start < count; start += 200) {
    const batch = await Promise.all(
      Array.from(
        { length: Math.min(200, count - start) },
        (_, j) =>
          new Promise<WebSocket>((resolve, reject) => {
            const socket = new WebSocket(url, { headers, perMessageDeflate: false });
            socket.on('message', (data) => onMessage(start + j, String(data)));
            socket.once('open', () => resolve(socket));
            socket.once('error', reject);
          }),
      ),
    );
    sockets.push(...batch);
  }
  return sockets;
}

/** A bare WebSocket server (`ws`, no framework, no database) in its own process: the floor. */
async function bareServer(): Promise<{ port: number; pid: number; stop: () => void }> {
  const code = `
    const { WebSocketServer } = require('ws');
    const server = new WebSocketServer({ port: 0, host: '127.0.0.1', perMessageDeflate: false });
    server.on('connection', (socket) => socket.send('{"type":"hello"}'));
    server.on('listening', () => process.stdout.write(String(server.address().port) + '\\n'));
  `;
  const child = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve) =>
    child.stdout.once('data', (chunk: Buffer) => resolve(Number(String(chunk).trim()))),
  );
  return { port, pid: child.pid!, stop: () => child.kill() };
}

export async function live(): Promise<void> {
  const floor = await bareServer();
  const floorBefore = await steadyRss(floor.pid);
  const floorSockets = await openSockets(`ws://127.0.0.1:${floor.port}`, {}, SOCKETS, () => undefined);
  const floorAfter = await steadyRss(floor.pid);
  for (const socket of floorSockets) socket.terminate();
  floor.stop();

  const server = await startServer({ LOG_LEVEL: 'error' });
  const base = server.url.replace('localhost', '127.0.0.1');
  try {
    const login = await fetch(`${base}/api/authenticate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin@example.com', password: ADMIN_PASSWORD, domain: 'demo' }),
    });
    const token = ((await login.json()) as { id_token: string }).id_token;
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${base}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
      return res.json() as Promise<unknown>;
    };
    const project = (await call('POST', '/api/v1/projects/', { name: 'Live bench', key: 'lb' })) as {
      environments: { key: string }[];
    };
    const feature = (await call('POST', '/api/v1/projects/lb/features', {
      name: 'Switch',
      key: 'switch',
    })) as {
      controls: Record<string, { id: string; offVariantKey: string; rules: unknown[] }>;
    };
    const control = feature.controls[project.environments[0]!.key]!;

    const before = await steadyRss(server.pid);
    let waiting = new Set<number>();
    let arrivals: number[] = [];
    let allArrived: (() => void) | null = null;
    const sockets = await openSockets(
      `${base.replace('http', 'ws')}/api/v1/live`,
      { authorization: `Bearer ${token}` },
      SOCKETS,
      (index, data) => {
        if (!data.includes('"feature.toggled"') || !waiting.has(index)) return;
        waiting.delete(index);
        arrivals.push(performance.now());
        if (waiting.size === 0) allArrived?.();
      },
    );
    const after = await steadyRss(server.pid);

    const latencies: number[] = [];
    for (let round = 0; round < 5; round++) {
      waiting = new Set(sockets.map((_, i) => i));
      arrivals = [];
      const done = new Promise<void>((resolve) => (allArrived = resolve));
      const start = performance.now();
      await call('PUT', '/api/v1/feature-controls/', {
        id: control.id,
        enabled: round % 2 === 0,
        offVariantKey: control.offVariantKey,
        rules: control.rules,
      });
      await done;
      latencies.push(...arrivals.map((at) => at - start));
    }
    latencies.sort((a, b) => a - b);
    const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!;
    for (const socket of sockets) socket.terminate();

    const cost = after - before;
    const floorCost = floorAfter - floorBefore;
    console.log(`| measure | Vexil | floor: bare ws server | ratio | target |`);
    console.log(`|---|---|---|---|---|`);
    console.log(
      `| RSS growth for ${SOCKETS.toLocaleString('en')} open dashboards | ${cost.toFixed(1)} MB (${before.toFixed(0)} → ${after.toFixed(0)} MB) | ${floorCost.toFixed(1)} MB | ${(cost / Math.max(floorCost, 0.1)).toFixed(1)}× | ≤ ${MEMORY_TARGET_MB} MB (${cost <= MEMORY_TARGET_MB ? 'within' : '**over**'}) |`,
    );
    console.log(
      `| toggle → all ${SOCKETS.toLocaleString('en')} dashboards (5 toggles) | p50 ${at(0.5).toFixed(1)} ms, p99 ${at(0.99).toFixed(1)} ms, max ${latencies.at(-1)!.toFixed(1)} ms | — | — | — |`,
    );
  } finally {
    await server.stop();
  }
}
