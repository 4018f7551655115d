/**
 * The SDK API under load, against the real server in its own process on loopback (PGlite):
 * server SDK fetch of 200 features (full body and 304), the JS evaluate endpoint, OFREP bulk,
 * event ingestion, and toggle-to-SSE propagation with 1,000 open streams.
 */
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { ADMIN_PASSWORD, startServer } from '../e2e/support/server';

/** The target: events per second kept while answering each request only once stored. */
const INGESTION_TARGET = 50_000;

type Row = { name: string; rps: number; p50: number; p99: number; errors: number; target: string };

async function cannon(
  name: string,
  target: string,
  options: Omit<autocannon.Options, 'duration' | 'connections'> & { connections?: number },
): Promise<Row> {
  const result = await autocannon({ connections: 50, duration: 10, ...options });
  return {
    name,
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    // A 304 is the answer wanted there, not an error.
    errors: result.errors + (name.includes('304') ? 0 : result.non2xx),
    target,
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

function percentile(samples: number[], q: number) {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

/** Opens `count` SSE streams and resolves with a function that waits for the next update on all of them. */
async function openStreams(base: string, key: string, count: number) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
  const pending = new Set<number>();
  let arrivals: number[] = [];
  let resolveAll: (() => void) | null = null;
  const requests: http.ClientRequest[] = [];
  await Promise.all(
    Array.from(
      { length: count },
      (_, i) =>
        new Promise<void>((resolve, reject) => {
          const request = http.get(
            `${base}/api/sdk/v1/features`,
            { agent, headers: { authorization: `Bearer ${key}`, accept: 'text/event-stream' } },
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
        }),
    ),
  );
  return {
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

export async function sdk(): Promise<void> {
  const server = await startServer({ LOG_LEVEL: 'error' });
  const base = server.url.replace('localhost', '127.0.0.1');
  try {
    const login = await fetch(`${base}/api/authenticate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin@example.com', password: ADMIN_PASSWORD, domain: 'demo' }),
    });
    const token = ((await login.json()) as { id_token: string }).id_token;
    const project = (await api(base, token, 'POST', '/api/v1/projects/', {
      name: 'Bench',
      key: 'bench',
    })) as {
      environments: { key: string; apiKey: string; jsApiKey: string }[];
    };
    const development = project.environments.find((e) => e.key === 'development')!;
    let firstControl: { id: string; offVariantKey: string; rules: unknown[] } | null = null;
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
          const control = (feature as { controls: Record<string, { id: string; offVariantKey: string }> })
            .controls.development!;
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
          firstControl ??= { id: control.id, offVariantKey: control.offVariantKey, rules };
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
    const bodyBytes = (await full.text()).length;
    const user = Buffer.from(
      JSON.stringify({ id: 'user-42', attributes: { tier: 'silver', country: 'nz' } }),
    ).toString('base64');
    const events = JSON.stringify(
      Array.from({ length: 50 }, (_, i) => ({
        featureKey: `feature-${i}`,
        evaluatedVariant: i % 2 ? 'on' : 'off',
        user: { id: `user-${i}` },
      })),
    );

    const rows: Row[] = [];
    rows.push(
      await cannon(
        `SDK features, full body (${(bodyBytes / 1024).toFixed(0)} KiB, 200 features)`,
        '≥ 2,500/s, p99 ≤ 20 ms',
        { url: `${base}/api/sdk/v1/features`, headers: auth },
      ),
    );
    rows.push(
      await cannon('SDK features, 304 Not Modified', '≥ 10,000/s, p99 ≤ 20 ms', {
        url: `${base}/api/sdk/v1/features`,
        headers: { ...auth, 'if-none-match': etag },
      }),
    );
    rows.push(
      await cannon('JS evaluate, one user over 200 features', '≥ 2,500/s', {
        url: `${base}/api/js/v1/evaluate/${development.jsApiKey}/user/${user}`,
      }),
    );
    rows.push(
      await cannon('OFREP bulk, 200 flags', '—', {
        url: `${base}/ofrep/v1/evaluate/flags`,
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ context: { targetingKey: 'user-42', tier: 'silver' } }),
      }),
    );
    const ingestion = await cannon('Event ingestion, batches of 50 (requests/s)', '≥ 50,000 events/s', {
      url: `${base}/api/sdk/v1/events`,
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: events,
    });
    rows.push(ingestion);

    console.table(
      rows.map((r) => ({
        benchmark: r.name,
        'req/s': r.rps.toLocaleString('en-GB'),
        'p50 ms': r.p50,
        'p99 ms': r.p99,
        'errors/non-2xx': r.errors,
        target: r.target,
      })),
    );
    // Each 200 waits for the commit that stores its events (docs/adr/0008-event-ingestion-group-commit.md).
    const eventsPerSecond = ingestion.rps * 50;
    console.log(
      `event ingestion, acknowledged once stored: ${eventsPerSecond.toLocaleString('en-GB')} events/s ` +
        `(target ≥ ${INGESTION_TARGET.toLocaleString('en-GB')} events/s: ×${(eventsPerSecond / INGESTION_TARGET).toFixed(2)})`,
    );

    const streams = await openStreams(base, development.apiKey, 1000);
    const latencies: number[] = [];
    const saves: number[] = [];
    let enabled = true;
    for (let round = 0; round < 20; round++) {
      enabled = !enabled;
      const control = firstControl!;
      latencies.push(
        ...(await streams.next(async () => {
          const start = performance.now();
          await api(base, token, 'PUT', '/api/v1/feature-controls/', {
            id: control.id,
            enabled,
            offVariantKey: control.offVariantKey,
            rules: control.rules,
          });
          saves.push(performance.now() - start);
        })),
      );
    }
    console.log(
      `  of which the PUT itself (transaction, audit item, response): p50 ${percentile(saves, 0.5).toFixed(1)} ms, p99 ${percentile(saves, 0.99).toFixed(1)} ms`,
    );
    streams.close();
    console.log(
      `toggle → SSE with 1,000 open streams (20 toggles, ${latencies.length} deliveries): p50 ${percentile(latencies, 0.5).toFixed(1)} ms, p99 ${percentile(latencies, 0.99).toFixed(1)} ms (target p99 ≤ 50 ms; includes the PUT itself)`,
    );
  } finally {
    await server.stop();
  }
}
