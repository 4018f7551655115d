import { spawn } from 'node:child_process';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { integrationsEnv } from './integrations';

/** The server package, the working directory of `npm run dev -w @vexil/server`. */
const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The password of the seeded admin (admin@example.com of the `demo` organisation). */
export const ADMIN_PASSWORD = 'crash-test-password';

/** How long a start may take: the first start on an empty data directory creates PostgreSQL's files. */
const START_TIMEOUT_MS = 45_000;

export type ServerProcess = {
  /** Where it listens, e.g. `http://127.0.0.1:41234`. */
  url: string;
  pid: number;
  /** What it printed so far (stdout and stderr), for failure messages. */
  output(): string;
  /** Ends it with SIGKILL (no shutdown of any kind) and resolves once it has exited. */
  kill(): Promise<NodeJS.Signals | null>;
  /** Ends it with SIGTERM (the graceful shutdown) and resolves once it has exited. */
  stop(): Promise<void>;
};

/** Every process started and not yet ended, for `killAll` to end after a failed test. */
const running = new Set<ReturnType<typeof spawn>>();

/**
 * The real server in a process of its own, as `npm run dev` runs it (`node --import tsx src/main.ts`,
 * without the watcher): its own embedded database in `DATA_DIR`, or PostgreSQL at `DATABASE_URL`,
 * whichever `env` names; the seeded `demo` organisation's admin signs in with ADMIN_PASSWORD; integrations
 * may call `localhost` (OUTGOING_ALLOWED_HOSTS). Resolves once it said it is running, with the port it
 * chose (PORT=0, read from Fastify's "Server listening at" line).
 */
export async function startServerProcess(env: { DATA_DIR: string } | { DATABASE_URL: string }) {
  const inherited = { ...process.env };
  delete inherited.DATA_DIR;
  delete inherited.DATABASE_URL;
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: serverDir,
    env: {
      ...inherited,
      ...integrationsEnv(),
      ...env,
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: '0',
      // Info, for the line that says which port it chose.
      LOG_LEVEL: 'info',
      PASSWORD_HASH_COST: 'test',
      VEXIL_DEMO: 'off',
      VEXIL_ADMIN_PASSWORD: ADMIN_PASSWORD,
      BASE_DOMAIN: 'localhost',
      PUBLIC_URL: 'http://localhost',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<NodeJS.Signals | null>((resolve) =>
    child.once('exit', (_code, signal) => {
      running.delete(child);
      resolve(signal);
    }),
  );
  let ended = false;
  void exited.then(() => (ended = true));

  const deadline = Date.now() + START_TIMEOUT_MS;
  let url: string | undefined;
  while (!url) {
    const listening = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
    if (listening && output.includes('Vexil is running')) url = listening[1]!;
    else if (ended) throw new Error(`The server exited before it was running:\n${output}`);
    else if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`The server was not running within ${START_TIMEOUT_MS / 1000} s:\n${output}`);
    } else await new Promise((resolve) => setTimeout(resolve, 50));
  }

  const end = async (signal: NodeJS.Signals) => {
    if (!ended) child.kill(signal);
    return exited;
  };
  return {
    url,
    pid: child.pid!,
    output: () => output,
    kill: () => end('SIGKILL'),
    stop: async () => {
      await end('SIGTERM');
    },
  } satisfies ServerProcess;
}

/** Ends (SIGKILL) every server process a test left running. */
export async function killAll(): Promise<void> {
  await Promise.all(
    [...running].map(
      (child) =>
        new Promise<void>((resolve) => {
          child.once('exit', () => resolve());
          child.kill('SIGKILL');
        }),
    ),
  );
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
export type HttpCaller = <T = unknown>(
  method: Method,
  url: string,
  body?: unknown,
) => Promise<{ status: number; body: T; text: string }>;

/** Signs the seeded admin in to a running server over HTTP, and answers a caller with their token. */
export async function signInAdmin(server: ServerProcess): Promise<HttpCaller> {
  const res = await fetch(`${server.url}/api/authenticate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      username: 'admin@example.com',
      password: ADMIN_PASSWORD,
      domain: 'demo',
      rememberMe: false,
    }),
  });
  expect(res.status, await res.clone().text()).toBe(200);
  const token = ((await res.json()) as { id_token: string }).id_token;
  return async (method, url, body) => {
    const answer = await fetch(`${server.url}${url}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(10_000),
    });
    const text = await answer.text();
    return { status: answer.status, text, body: (text ? JSON.parse(text) : null) as never };
  };
}

/** A request the receiver answered, with its `webhook-id` and path. */
export type ReceivedWebhook = { id: string; path: string; headers: IncomingHttpHeaders; body: string };

/**
 * A webhook receiver on 127.0.0.1: while `down` it closes every connection as soon as it is made, so a
 * delivery cannot complete (the sender sees "could not connect"); otherwise it answers 200 and records
 * each request. `count(id)` says how many times a webhook-id arrived.
 */
export async function webhookReceiver() {
  let down = false;
  let refused = 0;
  const received: ReceivedWebhook[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      received.push({
        id: String(req.headers['webhook-id']),
        path: req.url ?? '',
        headers: req.headers,
        body,
      });
      res.end('thanks');
    });
  });
  server.on('connection', (socket: Socket) => {
    if (!down) return;
    refused++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    /** The address of one of its paths, as a webhook's URL (`localhost` is what OUTGOING_ALLOWED_HOSTS allows). */
    url: (pathname: string) => `http://localhost:${port}${pathname}`,
    received,
    /** How many connections it closed unanswered while down. */
    refused: () => refused,
    count: (id: string) => received.filter((r) => r.id === id).length,
    setDown(value: boolean) {
      down = value;
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
