/**
 * The scheduler (issue #33, docs/adr/0023-durable-queue.md for the queue it runs on) against the real
 * server in its own process (the compiled product, as `npm run serve` runs it) over HTTP on loopback,
 * on PGlite and then on PostgreSQL (PG_ADMIN_URL, skipped when unreachable). Each figure is printed
 * beside a floor measured in the same run, with its target:
 *
 * 1. Step latency: 50 one-off schedules on distinct controls, due 250 ms apart from about 3 s after
 *    they are made. Lateness = the applied version's `createdDate` (server clock, same machine) minus
 *    the schedule's `at`. Floor: `setTimeout` armed for the same due times in a small Node process of
 *    its own, running at the same time. Target: p99 ≤ 2 s.
 * 2. Reaching SDK streams: 1,000 SSE streams open on the environment (GET /api/sdk/v1/features with
 *    the server key and `accept: text/event-stream`); 10 scheduled steps 500 ms apart; for each stream
 *    and step, the stream's arrival minus the step's version `createdDate`. Floor: the same measure for
 *    10 direct saves through the dashboard API (PUT /api/v1/feature-controls/{id}/enabled). Target:
 *    p99 ≤ 250 ms.
 * 3. 1,000 due at once: 1,000 one-off schedules (500 features × 2 environments) due at the same
 *    instant T; the time from T to the last applied version, with a check that each schedule applied
 *    exactly once (one version with source `schedule` per control, one `applied` entry per schedule's
 *    history). Floor: the same 1,000 changes as direct saves by 10 concurrent API clients. Target:
 *    all applied within 60 s.
 *
 * A version's `createdDate` is the database's `now()` in the transaction that wrote it: its start,
 * a few milliseconds before its commit. On PostgreSQL the bench also reads the queue's own records
 * (`jobs`, `job_attempts`) to show where the time goes; PGlite is held by the server process, so
 * there everything is read through the API.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import os from 'node:os';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { openDatabase, type Database } from '@vexil/server/src/db/client';
import { jobAttempts, jobs, scheduleEvents, versions } from '@vexil/server/src/db/schema/index';
import { seed } from '@vexil/server/src/seed';
import { ADMIN_EMAIL, ADMIN_PASSWORD, DEMO_DOMAIN, startServer } from '../e2e/support/server';
import { DEFAULT_PG_ADMIN_URL } from './battery/store';

const STEP_SCHEDULES = 50;
const STEP_GAP_MS = 250;
const FIRST_DUE_MS = 3_000;
const STREAMS = 1_000;
const STREAM_STEPS = 10;
const STREAM_GAP_MS = 500;
/** 500 features × 2 environments. */
const MASS_FEATURES = 500;
const MASS = MASS_FEATURES * 2;
const CLIENTS = 10;

const TARGET_STEP_P99_MS = 2_000;
const TARGET_STREAM_P99_MS = 250;
const TARGET_MASS_MS = 60_000;

/** Project of figures 1 and 2: 50 + 10 + 10 features, measured in development. */
const PROJECT = 'sch';
const ENVIRONMENT = 'development';
/** Project of figure 3: 500 features, both environments. */
const MASS_PROJECT = 'schm';

type Control = { featureKey: string; environmentKey: string; id: string };
type Api = (method: string, path: string, body?: unknown) => Promise<unknown>;
type Schedule = {
  id: string;
  state: string;
  nextDueDate: string | null;
  reason: string | null;
  history?: { kind: string; version: number | null; date: string }[];
};
type VersionPage = { content: { number: number; source: string; createdDate: string }[]; last: boolean };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
const ms = (n: number) => `${Math.round(n).toLocaleString('en-GB')} ms`;
const seconds = (n: number) => `${(n / 1000).toFixed(1)} s`;
const verdict = (ok: boolean) => (ok ? 'met' : '**missed**');

function percentile(samples: readonly number[], q: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
}

const spread = (samples: readonly number[]) =>
  `p50 ${ms(percentile(samples, 0.5))}, p95 ${ms(percentile(samples, 0.95))}, p99 ${ms(percentile(samples, 0.99))}, max ${ms(Math.max(...samples))}`;

/** Runs `fn` over `items` with `clients` requests under way at a time; results in the items' order. */
async function inParallel<T, R>(
  items: readonly T[],
  clients: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(clients, items.length) }, async () => {
      for (let i = next++; i < items.length; i = next++) results[i] = await fn(items[i]!, i);
    }),
  );
  return results;
}

async function signIn(base: string): Promise<Api> {
  const login = await fetch(`${base}/api/authenticate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', host: 'localhost' },
    body: JSON.stringify({ username: ADMIN_EMAIL, password: ADMIN_PASSWORD, domain: DEMO_DOMAIN }),
  });
  if (!login.ok) throw new Error(`Sign-in: ${login.status} ${await login.text()}`);
  const token = ((await login.json()) as { id_token: string }).id_token;
  return async (method, path, body) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', host: 'localhost' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return res.status === 204 ? null : ((await res.json()) as unknown);
  };
}

/** A project of `count` features; its controls by environment, and the server SDK key of development. */
async function makeProject(api: Api, key: string, name: string, count: number) {
  const project = (await api('POST', '/api/v1/projects/', { name, key })) as {
    environments: { key: string; apiKey: string }[];
  };
  const features = await inParallel(
    Array.from({ length: count }, (_, i) => i),
    CLIENTS,
    async (i) =>
      (await api('POST', `/api/v1/projects/${key}/features`, {
        name: `Scheduled ${i}`,
        key: `scheduled-${i}`,
      })) as { id: string; key: string; controls: Record<string, { id: string; enabled: boolean }> },
  );
  const controls = (environmentKey: string): Control[] =>
    features.map((f) => ({ featureKey: f.key, environmentKey, id: f.controls[environmentKey]!.id }));
  return {
    controls,
    featureIds: features.map((f) => f.id),
    serverKeys: Object.fromEntries(project.environments.map((e) => [e.key, e.apiKey])),
  };
}

const schedulePath = (project: string, id = '') =>
  `/api/v1/projects/${project}/schedules${id ? `/${id}` : ''}`;

function scheduleOnce(api: Api, project: string, control: Control, at: number, enabled = true) {
  return api('POST', schedulePath(project), {
    kind: 'once',
    featureKey: control.featureKey,
    environmentKey: control.environmentKey,
    at: new Date(at).toISOString(),
    change: { enabled },
  }) as Promise<Schedule>;
}

/** The control's newest version of `source`: its number and commit time (ms). */
async function versionOf(api: Api, project: string, control: Control, source: string, number?: number) {
  const page = (await api(
    'GET',
    `/api/v1/projects/${project}/features/${control.featureKey}/versions?environmentKey=${control.environmentKey}`,
  )) as VersionPage;
  const all = page.content.filter((v) => v.source === source);
  const found = number === undefined ? all[0] : all.find((v) => v.number === number);
  return {
    found: found ? { number: found.number, at: Date.parse(found.createdDate) } : null,
    count: all.length,
  };
}

/** Polls the schedules until each is finished (or suspended, paused), or the deadline passes. */
async function finished(api: Api, project: string, ids: readonly string[], deadline: number) {
  const done = new Map<string, Schedule>();
  while (done.size < ids.length && Date.now() < deadline) {
    const open = ids.filter((id) => !done.has(id));
    await inParallel(open, CLIENTS, async (id) => {
      const schedule = (await api('GET', schedulePath(project, id))) as Schedule;
      if (schedule.state !== 'ready' && schedule.state !== 'running') done.set(id, schedule);
    });
    if (done.size < ids.length) await sleep(250);
  }
  return done;
}

/** `setTimeout` armed for the same due times in a small Node process of its own: how late each fires. */
function timerFloor(dues: readonly number[]): Promise<number[]> {
  const code = `
    const dues = JSON.parse(process.env.VEXIL_DUES);
    const late = [];
    for (const due of dues)
      setTimeout(() => {
        late.push(Date.now() - due);
        if (late.length === dues.length) process.stdout.write(JSON.stringify(late));
      }, due - Date.now());
  `;
  const child = spawn(process.execPath, ['-e', code], {
    env: { ...process.env, VEXIL_DUES: JSON.stringify(dues) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  return new Promise((resolve, reject) =>
    child.once('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out) as number[]) : reject(new Error(`timer floor exited ${code}`)),
    ),
  );
}

/**
 * Opens `count` SSE streams on the SDK route and records, per feature key watched, when each stream
 * first received a `features.updated` frame naming it (this process's clock, ms).
 */
async function openStreams(url: string, serverKey: string, count: number) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
  const arrivals = new Map<string, Float64Array>();
  const requests: http.ClientRequest[] = [];
  let pending = 0;
  let allArrived: (() => void) | null = null;
  const open = (index: number) =>
    new Promise<void>((resolve, reject) => {
      const request = http.get(
        url,
        { agent, headers: { authorization: `Bearer ${serverKey}`, accept: 'text/event-stream' } },
        (response) => {
          if (response.statusCode !== 200) {
            reject(new Error(`SSE stream: ${response.statusCode}`));
            return;
          }
          response.setEncoding('utf8');
          let buffer = '';
          let opened = false;
          response.on('data', (chunk: string) => {
            const at = Date.now();
            buffer += chunk;
            for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
              const block = buffer.slice(0, end);
              buffer = buffer.slice(end + 2);
              if (!opened) {
                // The first frame: the whole payload.
                opened = true;
                resolve();
                continue;
              }
              if (!block.startsWith('event: features.updated')) continue;
              const data = JSON.parse(block.slice(block.indexOf('data: ') + 6)) as Record<string, unknown>;
              for (const key of Object.keys(data)) {
                const list = arrivals.get(key);
                if (!list || list[index] !== 0) continue;
                list[index] = at;
                if (--pending === 0) allArrived?.();
              }
            }
          });
        },
      );
      request.on('error', reject);
      requests.push(request);
    });
  for (let i = 0; i < count; i += 200)
    await Promise.all(Array.from({ length: Math.min(200, count - i) }, (_, j) => open(i + j)));
  return {
    /** Starts recording arrivals of these features' changes. */
    watch(keys: readonly string[]) {
      for (const key of keys) arrivals.set(key, new Float64Array(count));
      pending += keys.length * count;
    },
    /** Resolves once every watched feature reached every stream, or at the deadline. */
    async arrived(deadline: number): Promise<void> {
      if (pending === 0) return;
      await Promise.race([
        new Promise<void>((resolve) => (allArrived = resolve)),
        sleep(deadline - Date.now()),
      ]);
    },
    /** Arrival times of one feature's change, one per stream (0: never arrived). */
    of: (key: string) => arrivals.get(key)!,
    close() {
      for (const request of requests) request.destroy();
      agent.destroy();
    },
  };
}

type Row = { figure: string; vexil: string; floor: string; ratio: string; target: string; verdict: string };

/** Figure 1: lateness of 50 staggered one-off schedules, against `setTimeout` in its own process. */
async function stepLatency(api: Api, controls: Control[], pg: Database | null, rows: Row[], notes: string[]) {
  const first = Date.now() + FIRST_DUE_MS;
  const dues = controls.map((_, i) => first + i * STEP_GAP_MS);
  const floor = timerFloor(dues);
  const createTimes: number[] = [];
  const created: Schedule[] = [];
  for (const [i, control] of controls.entries()) {
    const start = performance.now();
    created.push(await scheduleOnce(api, PROJECT, control, dues[i]!));
    createTimes.push(performance.now() - start);
  }
  const margin = first - Date.now();
  await sleep(dues.at(-1)! - Date.now() + 500);
  const ids = created.map((s) => s.id);
  const done = await finished(api, PROJECT, ids, Date.now() + 60_000);
  const lateness: number[] = [];
  const problems: string[] = [];
  await inParallel(controls, CLIENTS, async (control, i) => {
    const schedule = done.get(ids[i]!);
    const applied = schedule?.history?.filter((e) => e.kind === 'applied') ?? [];
    if (schedule?.state !== 'completed' || applied.length !== 1) {
      problems.push(`${control.featureKey}: ${schedule?.state ?? 'not finished'} ${schedule?.reason ?? ''}`);
      return;
    }
    const { found } = await versionOf(api, PROJECT, control, 'schedule', applied[0]!.version ?? undefined);
    if (!found) problems.push(`${control.featureKey}: no version with source schedule`);
    else lateness.push(found.at - dues[i]!);
  });
  const timer = await floor;
  const p99 = percentile(lateness, 0.99);
  rows.push({
    figure: `step latency: ${STEP_SCHEDULES} one-off schedules ${STEP_GAP_MS} ms apart, version createdDate − at`,
    vexil: spread(lateness),
    floor: `setTimeout in its own process: ${spread(timer)}`,
    ratio: `p99 ${(p99 / Math.max(1, percentile(timer, 0.99))).toFixed(0)}×, +${ms(p99 - percentile(timer, 0.99))}`,
    target: `p99 ≤ ${ms(TARGET_STEP_P99_MS)}`,
    verdict: verdict(problems.length === 0 && p99 <= TARGET_STEP_P99_MS),
  });
  notes.push(
    `1. ${lateness.length} of ${STEP_SCHEDULES} applied once each; made one at a time in p50 ${ms(percentile(createTimes, 0.5))} (p99 ${ms(percentile(createTimes, 0.99))}) per POST, the last ${ms(margin)} before the first was due; lateness in due order: ${lateness.length === STEP_SCHEDULES ? '' : '(incomplete) '}first 5 ${lateness
      .slice(0, 5)
      .map((n) => Math.round(n))
      .join(', ')} ms`,
  );
  if (problems.length > 0) notes.push(`   problems: ${problems.slice(0, 5).join('; ')}`);
  if (pg) notes.push(...(await queueTimes(pg, ids, '1.')));
  return percentile(createTimes, 0.5);
}

/**
 * The queue's record of the schedules' jobs (PostgreSQL): when each attempt began after its due time,
 * how long it took, and how many ran at once.
 */
async function queueTimes(pg: Database, scheduleIds: readonly string[], label: string): Promise<string[]> {
  const rows = await pg
    .select({ dueAt: jobs.dueAt, startedAt: jobAttempts.startedAt, durationMs: jobAttempts.durationMs })
    .from(jobs)
    .innerJoin(jobAttempts, eq(jobAttempts.jobId, jobs.id))
    .where(
      and(eq(jobs.kind, 'schedules.due'), inArray(sql`${jobs.payload}->>'scheduleId'`, [...scheduleIds])),
    );
  if (rows.length === 0) return [`   ${label} the queue recorded no attempt`];
  const wait = rows.map((r) => r.startedAt.getTime() - r.dueAt.getTime());
  const duration = rows.map((r) => r.durationMs);
  const begin = Math.min(...rows.map((r) => r.startedAt.getTime()));
  const end = Math.max(...rows.map((r) => r.startedAt.getTime() + r.durationMs));
  const busy = duration.reduce((a, b) => a + b, 0);
  return [
    `   queue (job_attempts, ${rows.length} attempts): attempt began after due ${spread(wait)}; attempt (one transaction) ${spread(duration)}; attempts under way at once on average ${(busy / Math.max(1, end - begin)).toFixed(1)}`,
  ];
}

/** Figure 2: scheduled steps and direct saves reaching 1,000 open SDK streams. */
async function streamReach(
  api: Api,
  base: string,
  serverKey: string,
  scheduled: Control[],
  saved: Control[],
  pg: Database | null,
  rows: Row[],
  notes: string[],
) {
  const streams = await openStreams(`${base}/api/sdk/v1/features`, serverKey, STREAMS);
  try {
    // Scheduled steps, 500 ms apart.
    streams.watch(scheduled.map((c) => c.featureKey));
    const first = Date.now() + FIRST_DUE_MS;
    const created: Schedule[] = [];
    for (const [i, control] of scheduled.entries())
      created.push(await scheduleOnce(api, PROJECT, control, first + i * STREAM_GAP_MS));
    const lastDue = first + (scheduled.length - 1) * STREAM_GAP_MS;
    await streams.arrived(lastDue + 15_000);
    const done = await finished(
      api,
      PROJECT,
      created.map((s) => s.id),
      Date.now() + 10_000,
    );
    const viaSchedule = await reach(api, streams, scheduled, 'schedule');
    // Direct saves, 500 ms apart.
    streams.watch(saved.map((c) => c.featureKey));
    for (const control of saved) {
      await api('PUT', `/api/v1/feature-controls/${control.id}/enabled`, { enabled: true });
      await sleep(STREAM_GAP_MS);
    }
    await streams.arrived(Date.now() + 10_000);
    const viaSave = await reach(api, streams, saved, 'ui');
    const p99 = percentile(viaSchedule.delays, 0.99);
    const floorP99 = percentile(viaSave.delays, 0.99);
    rows.push({
      figure: `${STREAM_STEPS} scheduled steps → ${STREAMS.toLocaleString('en-GB')} open SDK streams, arrival − version createdDate`,
      vexil: `p50 ${ms(percentile(viaSchedule.delays, 0.5))}, p99 ${ms(p99)}, max ${ms(Math.max(...viaSchedule.delays))}`,
      floor: `${saved.length} direct saves (PUT …/enabled): p50 ${ms(percentile(viaSave.delays, 0.5))}, p99 ${ms(floorP99)}, max ${ms(Math.max(...viaSave.delays))}`,
      ratio: `p99 ${(p99 / Math.max(1, floorP99)).toFixed(1)}× (schedule ÷ save)`,
      target: `p99 ≤ ${ms(TARGET_STREAM_P99_MS)}`,
      verdict: verdict(viaSchedule.missing === 0 && p99 <= TARGET_STREAM_P99_MS),
    });
    const completed = [...done.values()].filter((s) => s.state === 'completed').length;
    const perStep = (list: { first: number; last: number }[]) =>
      list.map((step) => `${Math.round(step.first)}/${Math.round(step.last)}`).join(', ');
    notes.push(
      `2. ${completed} of ${STREAM_STEPS} steps completed; ${viaSchedule.delays.length.toLocaleString('en-GB')} stream × step arrivals (${viaSchedule.missing} missing), ${viaSave.delays.length.toLocaleString('en-GB')} stream × save arrivals (${viaSave.missing} missing); the first stream to receive each step, after its createdDate: p50 ${ms(percentile(viaSchedule.firsts, 0.5))} (saves ${ms(percentile(viaSave.firsts, 0.5))}); the spread from the first stream to the last: p50 ${ms(percentile(viaSchedule.spans, 0.5))} (saves ${ms(percentile(viaSave.spans, 0.5))})`,
      `   per step, ms from createdDate to the first/last stream: scheduled ${perStep(viaSchedule.steps)}; saves ${perStep(viaSave.steps)}`,
    );
    if (pg) {
      // The job's transaction began at createdDate (its now()); its attempt's end is just before its commit.
      const attempts = await pg
        .select({
          scheduleId: sql<string>`${jobs.payload}->>'scheduleId'`,
          startedAt: jobAttempts.startedAt,
          durationMs: jobAttempts.durationMs,
        })
        .from(jobs)
        .innerJoin(jobAttempts, eq(jobAttempts.jobId, jobs.id))
        .where(
          and(
            eq(jobs.kind, 'schedules.due'),
            inArray(
              sql`${jobs.payload}->>'scheduleId'`,
              created.map((s) => s.id),
            ),
          ),
        )
        .orderBy(jobAttempts.startedAt);
      notes.push(
        `   per step, ms from createdDate to the job's commit (job_attempts: start + duration): ${attempts
          .map((a) => {
            const key = scheduled[created.findIndex((s) => s.id === a.scheduleId)]?.featureKey;
            const step = viaSchedule.steps.find((one) => one.key === key);
            return step ? Math.round(a.startedAt.getTime() + a.durationMs - step.at) : '?';
          })
          .join(', ')}`,
      );
    }
  } finally {
    streams.close();
  }
}

/** Each stream's arrival minus its change's version createdDate, for each control. */
async function reach(
  api: Api,
  streams: Awaited<ReturnType<typeof openStreams>>,
  controls: Control[],
  source: string,
) {
  const delays: number[] = [];
  const firsts: number[] = [];
  const spans: number[] = [];
  /** Per control: its version's createdDate (ms), and the first and last stream's arrival after it. */
  const steps: { key: string; at: number; first: number; last: number }[] = [];
  let missing = 0;
  for (const control of controls) {
    const { found } = await versionOf(api, PROJECT, control, source);
    const arrivals = [...streams.of(control.featureKey)];
    const got = arrivals.filter((at) => at > 0);
    missing += arrivals.length - got.length;
    if (!found || got.length === 0) continue;
    for (const at of got) delays.push(at - found.at);
    const first = Math.min(...got);
    const last = Math.max(...got);
    firsts.push(first - found.at);
    spans.push(last - first);
    steps.push({ key: control.featureKey, at: found.at, first: first - found.at, last: last - found.at });
  }
  return { delays, firsts, spans, steps, missing };
}

/** Figure 3: 1,000 schedules due at the same instant; against 1,000 direct saves by 10 clients. */
async function massDue(
  api: Api,
  base: string,
  mass: { controls: Control[]; featureIds: string[]; serverKeys: Record<string, string> },
  perCreateMs: number,
  pg: Database | null,
  rows: Row[],
  notes: string[],
) {
  const { controls } = mass;
  // Due once all are made: the time one POST took in figure 1 (one at a time), with room to spare.
  const lead = Math.min(120_000, Math.max(15_000, controls.length * perCreateMs * 1.1 + 5_000));
  const due = Math.ceil((Date.now() + lead) / 1000) * 1000;
  const createStart = Date.now();
  const created = await inParallel(controls, CLIENTS, (control) =>
    scheduleOnce(api, MASS_PROJECT, control, due),
  );
  const createdAt = Date.now();
  const ids = created.map((s) => s.id);

  // Progress, as the SDKs see it: the controls turned on in both environments' payloads, every 250 ms.
  // The payloads are served from memory, so the polling asks nothing of the database.
  const enabledIn = async (key: string) => {
    const res = await fetch(`${base}/api/sdk/v1/features`, { headers: { authorization: `Bearer ${key}` } });
    const payload = (await res.json()) as Record<string, { enabled: boolean }>;
    return Object.values(payload).filter((control) => control.enabled).length;
  };
  const keys = [...new Set(controls.map((c) => c.environmentKey))].map((e) => mass.serverKeys[e]!);
  let seenDone = NaN;
  let seenOn = 0;
  await sleep(due - Date.now());
  // Whether the server still reads requests meanwhile: GET /healthz (no database) every 250 ms.
  const probes: { at: number; took: number }[] = [];
  let probing = true;
  const probe = (async () => {
    while (probing) {
      const start = Date.now();
      await fetch(`${base}/healthz`);
      probes.push({ at: start - due, took: Date.now() - start });
      await sleep(250);
    }
  })();
  const deadline = due + 2 * TARGET_MASS_MS;
  while (Date.now() < deadline) {
    seenOn = (await Promise.all(keys.map(enabledIn))).reduce((a, b) => a + b, 0);
    if (seenOn >= controls.length) {
      seenDone = Date.now() - due;
      break;
    }
    await sleep(250);
  }
  probing = false;
  await probe;
  const slowest = probes.reduce((a, b) => (b.took > a.took ? b : a), { at: 0, took: 0 });

  // Exactly once: each schedule completed with one `applied` entry, each control one `schedule` version.
  const problems: string[] = [];
  const applied: number[] = [];
  let scheduleVersions = 0;
  await inParallel(controls, CLIENTS, async (control, i) => {
    const schedule = (await api('GET', schedulePath(MASS_PROJECT, ids[i]!))) as Schedule;
    const entries = schedule.history?.filter((e) => e.kind === 'applied') ?? [];
    if (schedule.state !== 'completed' || entries.length !== 1)
      problems.push(
        `${control.featureKey}/${control.environmentKey}: ${schedule.state}, ${entries.length} applied ${schedule.reason ?? ''}`,
      );
    const { found, count } = await versionOf(api, MASS_PROJECT, control, 'schedule');
    scheduleVersions += count;
    if (count !== 1)
      problems.push(`${control.featureKey}/${control.environmentKey}: ${count} schedule versions`);
    if (found) applied.push(found.at - due);
  });
  const allApplied = applied.length > 0 ? Math.max(...applied) : NaN;
  let databaseCheck = '';
  if (pg) {
    const [versionCount] = await pg
      .select({ n: sql<number>`count(*)::int` })
      .from(versions)
      .where(and(eq(versions.source, 'schedule'), inArray(versions.featureId, mass.featureIds)));
    const entries = await pg
      .select({ n: sql<number>`count(*)::int` })
      .from(scheduleEvents)
      .where(and(eq(scheduleEvents.kind, 'applied'), inArray(scheduleEvents.scheduleId, ids)))
      .groupBy(scheduleEvents.scheduleId);
    const once = entries.filter((e) => e.n === 1).length;
    databaseCheck = `; in the database: ${versionCount!.n} versions with source schedule, ${once} schedules with exactly one applied entry, ${entries.length - once} with more`;
    if (versionCount!.n !== controls.length || once !== controls.length) problems.push('database count');
  }

  // Floor: the same number of changes as direct saves, by 10 concurrent clients (turning them off again).
  const floorStart = performance.now();
  const saveTimes = await inParallel(controls, CLIENTS, async (control) => {
    const start = performance.now();
    await api('PUT', `/api/v1/feature-controls/${control.id}/enabled`, { enabled: false });
    return performance.now() - start;
  });
  const floor = performance.now() - floorStart;

  const ok = problems.length === 0 && scheduleVersions === controls.length && allApplied <= TARGET_MASS_MS;
  rows.push({
    figure: `${controls.length.toLocaleString('en-GB')} one-off schedules due at the same instant T: T → last applied version`,
    vexil: `${seconds(allApplied)} (${(controls.length / (allApplied / 1000)).toFixed(0)} steps/s); ${scheduleVersions.toLocaleString('en-GB')} schedule versions, ${problems.length} problems`,
    floor: `${controls.length.toLocaleString('en-GB')} direct saves by ${CLIENTS} clients: ${seconds(floor)} (${(controls.length / (floor / 1000)).toFixed(0)} saves/s)`,
    ratio: `${(allApplied / floor).toFixed(1)}×`,
    target: `all within ${seconds(TARGET_MASS_MS)}`,
    verdict: verdict(ok),
  });
  notes.push(
    `3. made ${controls.length.toLocaleString('en-GB')} schedules by ${CLIENTS} clients in ${seconds(createdAt - createStart)}, ${seconds(due - createdAt)} before T; applied after T: ${spread(applied)}; the SDK payloads served all ${controls.length.toLocaleString('en-GB')} on ${Number.isNaN(seenDone) ? `never (${seenOn} after ${seconds(deadline - due)})` : `at T + ${seconds(seenDone)} (polled every 250 ms)`}; GET /healthz (no database) every 250 ms from T: ${probes.length} answers, p50 ${ms(
      percentile(
        probes.map((p) => p.took),
        0.5,
      ),
    )}, slowest ${ms(slowest.took)} (sent at T + ${seconds(slowest.at)})${databaseCheck}; a direct save took p50 ${ms(percentile(saveTimes, 0.5))}, p99 ${ms(percentile(saveTimes, 0.99))}`,
  );
  if (problems.length > 0) notes.push(`   problems (${problems.length}): ${problems.slice(0, 5).join('; ')}`);
  if (pg) notes.push(...(await queueTimes(pg, ids, '3.')));
}

/**
 * Waits until the server has caught up with the set-up (the SDK payloads rebuilt after 570 features
 * were made): three reads of a project in a row, each answered within 50 ms. The figures are of a
 * server at rest; a backlog is figure 3's subject.
 */
async function settled(api: Api): Promise<number> {
  const start = performance.now();
  let quick = 0;
  while (quick < 3 && performance.now() - start < 120_000) {
    const began = performance.now();
    await api('GET', `/api/v1/projects/${PROJECT}`);
    quick = performance.now() - began < 50 ? quick + 1 : 0;
    await sleep(100);
  }
  return performance.now() - start;
}

/** Every figure on one running server. */
async function measure(url: string, database: string, pg: Database | null): Promise<void> {
  const base = url.replace('localhost', '127.0.0.1');
  const load = () =>
    os
      .loadavg()
      .map((n) => n.toFixed(1))
      .join(', ');
  const loadBefore = load();
  const api = await signIn(base);
  const since = performance.now();
  const small = await makeProject(api, PROJECT, 'Schedules bench', STEP_SCHEDULES + 2 * STREAM_STEPS);
  const mass = await makeProject(api, MASS_PROJECT, 'Schedules bench, 1,000', MASS_FEATURES);
  const massControls = [...mass.controls('production'), ...mass.controls(ENVIRONMENT)];
  console.log(
    `${database}: made ${STEP_SCHEDULES + 2 * STREAM_STEPS + MASS_FEATURES} features (${MASS.toLocaleString('en-GB')} + ${(2 * (STEP_SCHEDULES + 2 * STREAM_STEPS)).toLocaleString('en-GB')} controls) in ${seconds(performance.now() - since)}`,
  );
  const rows: Row[] = [];
  const notes: string[] = [];
  const controls = small.controls(ENVIRONMENT);
  notes.push(`0. the server caught up with the set-up ${seconds(await settled(api))} after it`);
  const perCreate = await stepLatency(api, controls.slice(0, STEP_SCHEDULES), pg, rows, notes);
  await streamReach(
    api,
    base,
    small.serverKeys[ENVIRONMENT]!,
    controls.slice(STEP_SCHEDULES, STEP_SCHEDULES + STREAM_STEPS),
    controls.slice(STEP_SCHEDULES + STREAM_STEPS),
    pg,
    rows,
    notes,
  );
  await massDue(api, base, { ...mass, controls: massControls }, perCreate, pg, rows, notes);
  console.log();
  console.log(`| figure (${database}) | Vexil | floor (same run) | ratio | target | |`);
  console.log('|---|---|---|---|---|---|');
  for (const r of rows)
    console.log(`| ${r.figure} | ${r.vexil} | ${r.floor} | ${r.ratio} | ${r.target} | ${r.verdict} |`);
  console.log();
  console.log(notes.join('\n'));
  console.log(
    `load average (1, 5, 15 min) on ${os.cpus().length} cores: ${loadBefore} before, ${load()} after; whole run ${seconds(performance.now() - since)}`,
  );
}

/** The embedded database, as a default install runs. */
async function onPglite(): Promise<void> {
  const server = await startServer({ LOG_LEVEL: 'error' });
  try {
    await measure(server.url, 'PGlite', null);
  } finally {
    await server.stop();
  }
}

/** PostgreSQL (PG_ADMIN_URL), a database of the run's own: migrated, seeded, served. */
async function onPostgres(adminUrl: string): Promise<void> {
  const name = `vexil_schedules_${randomBytes(4).toString('hex')}`;
  const admin = openDatabase({ kind: 'postgres', url: adminUrl, max: 1, timeouts: { connectMs: 2_000 } });
  try {
    await admin.db.execute(sql.raw(`create database ${name}`));
  } catch (error) {
    await admin.close();
    const reason = error instanceof Error ? error.message : String(error);
    console.log(`PostgreSQL: not measured (${adminUrl}: ${reason})`);
    return;
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const database = openDatabase({ kind: 'postgres', url: url.toString(), max: 2 });
  try {
    await database.migrate();
    await seed(database.db, { adminPassword: ADMIN_PASSWORD, demo: true, hashCost: 'test' });
    const server = await startServer({
      LOG_LEVEL: 'error',
      DATABASE_URL: url.toString(),
      SECRETS_KEY: randomBytes(32).toString('hex'),
    });
    try {
      await measure(server.url, 'PostgreSQL', database.db);
    } finally {
      await server.stop();
    }
  } finally {
    await database.close();
    await admin.db.execute(sql.raw(`drop database if exists ${name} with (force)`));
    await admin.close();
  }
}

export async function schedules(): Promise<void> {
  console.log('`npm run bench -- schedules`\n');
  await onPglite();
  console.log();
  await onPostgres(process.env.PG_ADMIN_URL ?? DEFAULT_PG_ADMIN_URL);
}
