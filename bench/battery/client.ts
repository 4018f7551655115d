/**
 * HTTP from the battery to the product: single calls that record status, Retry-After and timing,
 * the dashboard API as a signed-in user, and an open-loop sender at a fixed rate.
 */
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { delay } from './product';

const agent = new http.Agent({ keepAlive: true, maxSockets: 2048 });

export type Answer = {
  status: number;
  retryAfter: string | null;
  body: string;
  sentAt: number;
  answeredAt: number;
  error: string | null;
};

export type Call = {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  timeoutMs?: number;
};

/** One request; a socket error or timeout resolves with status 0 and the error. */
export function send(base: string, call: Call): Promise<Answer> {
  const sentAt = performance.now();
  return new Promise((resolve) => {
    let settled = false;
    const finish = (answer: Omit<Answer, 'sentAt' | 'answeredAt'>) => {
      if (settled) return;
      settled = true;
      resolve({ ...answer, sentAt, answeredAt: performance.now() });
    };
    const request = http.request(
      `${base}${call.path}`,
      { method: call.method, headers: call.headers, agent, timeout: call.timeoutMs ?? 30_000 },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          finish({
            status: response.statusCode ?? 0,
            retryAfter: (response.headers['retry-after'] as string | undefined) ?? null,
            body: Buffer.concat(chunks).toString(),
            error: null,
          }),
        );
        response.on('error', (error) =>
          finish({ status: 0, retryAfter: null, body: '', error: error.message }),
        );
      },
    );
    request.on('timeout', () => request.destroy(new Error('timeout')));
    request.on('error', (error) => finish({ status: 0, retryAfter: null, body: '', error: error.message }));
    request.end(call.body);
  });
}

/** A client address for X-Forwarded-For (the product runs with TRUST_PROXY=on), from 198.18.0.0/15. */
export function randomAddress(): string {
  return `198.18.${Math.floor(Math.random() * 256)}.${1 + Math.floor(Math.random() * 254)}`;
}

/** A dashboard API call as a signed-in user; the body is JSON. */
export function api(base: string, token: string, method: string, path: string, body?: unknown) {
  return send(base, {
    method,
    path,
    headers: {
      authorization: `Bearer ${token}`,
      host: 'localhost',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/** Like {@link api}, but a non-2xx answer is an error: for setting up, not for measuring. */
export async function apiOk<T>(base: string, token: string, method: string, path: string, body?: unknown) {
  const answer = await api(base, token, method, path, body);
  if (answer.status < 200 || answer.status >= 300)
    throw new Error(`${method} ${path}: ${answer.status} ${answer.error ?? answer.body.slice(0, 300)}`);
  return (answer.body ? JSON.parse(answer.body) : null) as T;
}

export async function signIn(base: string, domain: string, username: string, password: string) {
  const answer = await send(base, {
    method: 'POST',
    path: '/api/authenticate',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': randomAddress(), host: 'localhost' },
    body: JSON.stringify({ username, password, domain }),
  });
  if (answer.status !== 200) throw new Error(`sign-in to ${domain} failed: ${answer.status} ${answer.body}`);
  return (JSON.parse(answer.body) as { id_token: string }).id_token;
}

/** Runs `task` over `items`, `width` at a time. */
export async function inPool<T, R>(items: readonly T[], width: number, task: (item: T) => Promise<R>) {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, items.length) }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await task(items[index]!);
      }
    }),
  );
  return results;
}

export type Shot = Answer & { tag: string; weight: number };
export type Planned = Call & { tag: string; weight: number };

/**
 * Sends `make(i)` at `rate` per second for `durationMs`, open loop (a slow answer does not slow the
 * sender), and resolves once every answer is in. Past `maxInFlight` waiting answers a due request is
 * skipped and counted, so the battery's memory stays bounded.
 */
export function atFixedRate(options: {
  base: string;
  rate: number;
  durationMs: number;
  make: (i: number) => Planned;
  maxInFlight?: number;
}) {
  const { base, rate, durationMs, make } = options;
  const maxInFlight = options.maxInFlight ?? 1500;
  const shots: Shot[] = [];
  const pending = new Set<Promise<void>>();
  let stopped = false;
  let skipped = 0;
  const done = (async () => {
    const start = performance.now();
    let sent = 0;
    for (;;) {
      const elapsed = performance.now() - start;
      if (stopped || elapsed >= durationMs) break;
      const due = Math.floor((rate * elapsed) / 1000);
      while (sent < due) {
        const planned = make(sent);
        sent += 1;
        if (pending.size >= maxInFlight) {
          skipped += 1;
          continue;
        }
        const shot = send(base, planned).then((answer) => {
          shots.push({ ...answer, tag: planned.tag, weight: planned.weight });
          pending.delete(shot);
        });
        pending.add(shot);
      }
      await delay(4);
    }
    while (pending.size > 0) await Promise.all([...pending]);
    return { shots, skipped };
  })();
  return {
    done,
    stop() {
      stopped = true;
    },
  };
}

export function percentile(samples: number[], q: number): number {
  if (samples.length === 0) return NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}
