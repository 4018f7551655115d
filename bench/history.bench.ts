/**
 * A feature control's history with 10,000 versions (issue #31, docs/adr/0022-versions.md), against
 * the real server in its own process (the compiled product, as `npm run serve` runs it) over HTTP on
 * loopback, on PGlite and then on PostgreSQL (PG_ADMIN_URL, skipped when unreachable): the first page of the history
 * and the diff between two random versions, each beside a floor measured in the same run (a minimal
 * authenticated GET, one project, on the same server; a bare GET of /healthz) and against the issue's
 * targets: the first page and a diff each within 50 ms at p95.
 *
 * Requests of the figures and their floors are taken in turns, so that they share whatever else the
 * machine is doing. The versions are written straight through the versions repository before the server starts, as the
 * control's write path would have written them one save at a time: each a small edit of the one before
 * (a toggle, a rule added, removed or moved, a split or a condition's values changed) on a control of
 * three to eight targeted rules, with the changes in words computed against the parent by core's
 * `controlChanges`. Where the server's time goes is printed under the figures: the database's own time
 * for each query the two routes make (EXPLAIN ANALYZE on the seeded database) and the diff's
 * computation in this process.
 */
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import {
  controlChanges,
  controlSnapshotSchema,
  jsonPatch,
  type Condition,
  type ControlSnapshot,
  type Rule,
  type TargetType,
} from '@vexil/core';
import { openDatabase, type Database } from '@vexil/server/src/db/client';
import {
  environments,
  featureControls,
  features,
  organisations,
  projects,
  targets,
  users,
  variants,
  versions,
} from '@vexil/server/src/db/schema/index';
import type { Principal } from '@vexil/server/src/modules/auth/auth.service';
import { createControlHistory } from '@vexil/server/src/modules/controls/control-history';
import { findControlByKeys, variantsOf } from '@vexil/server/src/modules/controls/controls.repository';
import {
  byNumber as repoByNumber,
  insert,
  page as repoPage,
  type NewVersionRecord,
} from '@vexil/server/src/modules/versions/versions.repository';
import { createVersionsService } from '@vexil/server/src/modules/versions/versions.service';
import { seed } from '@vexil/server/src/seed';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  DEMO_DOMAIN,
  startServer,
  type RunningServer,
} from '../e2e/support/server';
import { DEFAULT_PG_ADMIN_URL } from './battery/store';

const VERSIONS = 10_000;
const BATCH = 500;
const PROJECT = 'sp';
const ENVIRONMENT = 'development';
/** The control with the long history, and one whose history is a single version. */
const FEATURE = 'new-checkout';
const SHORT_FEATURE = 'dark-mode';
const REQUESTS = 200;
const MINUTE_MS = 60 * 1000;

const TARGET_FIRST_PAGE_P95_MS = 50;
const TARGET_DIFF_P95_MS = 50;

const versionsPath = (feature: string, rest = '', query = '') =>
  `/api/v1/projects/${PROJECT}/features/${feature}/versions${rest}?environmentKey=${ENVIRONMENT}${query}`;

/** A small deterministic generator, so every run seeds the same history. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const VARIANTS = { on: 'On', off: 'Off', holdout: 'Holdout' } as const;
const TARGETS: { key: string; name: string; type: TargetType }[] = [
  { key: 'country', name: 'Country', type: 'string' },
  { key: 'plan', name: 'Plan', type: 'string' },
  { key: 'email', name: 'Email', type: 'string' },
  { key: 'orders', name: 'Orders', type: 'number' },
  { key: 'signupDate', name: 'Signed up', type: 'date' },
];
const TARGET_TYPES = Object.fromEntries(TARGETS.map((t) => [t.key, t.type]));
const COUNTRIES = ['NZ', 'AU', 'GB', 'IE', 'US', 'CA', 'DE', 'FR', 'NL', 'SE', 'JP', 'SG', 'BR', 'ZA'];
const PLANS = ['free', 'starter', 'team', 'business', 'enterprise'];
const DOMAINS = ['@example.com', '@acme.test', '@staff.example.com', '@beta.example.org'];
const COMMENTS = [
  'Widen the rollout',
  'Roll back: errors in checkout',
  'Beta for the support team',
  'As agreed in the launch review',
  'Hold out 10 % for the experiment',
];

type Next = () => number;

function condition(next: Next): Condition {
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]!;
  switch (Math.floor(next() * 5)) {
    case 0:
      return {
        target: 'country',
        operator: 'in',
        values: [...new Set(Array.from({ length: 1 + Math.floor(next() * 5) }, () => pick(COUNTRIES)))],
      };
    case 1:
      return { target: 'plan', operator: next() < 0.7 ? 'in' : 'notIn', values: [pick(PLANS), pick(PLANS)] };
    case 2:
      return { target: 'email', operator: 'endsWith', values: [pick(DOMAINS)] };
    case 3:
      return { target: 'orders', operator: 'greaterThan', values: [Math.floor(next() * 50)] };
    default:
      return {
        target: 'signupDate',
        operator: 'after',
        values: [new Date(Date.UTC(2025, Math.floor(next() * 12), 1)).toISOString()],
      };
  }
}

function splits(next: Next): Rule['variantSplits'] {
  const shape = next();
  if (shape < 0.5) return [{ variantKey: next() < 0.8 ? 'on' : 'off', split: 100 }];
  const on = 10 * (1 + Math.floor(next() * 9));
  if (shape < 0.8) {
    return [
      { variantKey: 'on', split: on },
      { variantKey: 'off', split: 100 - on },
    ];
  }
  const holdout = Math.min(10, 100 - on);
  return [
    { variantKey: 'on', split: on },
    { variantKey: 'off', split: 100 - on - holdout },
    { variantKey: 'holdout', split: holdout },
  ].filter((s) => s.split > 0);
}

function targetedRule(next: Next): Rule {
  return {
    defaultRule: false,
    audience: { conditions: Array.from({ length: 1 + Math.floor(next() * 3) }, () => condition(next)) },
    variantSplits: splits(next),
  };
}

/** The next version: one or two edits of the kind a member makes in one save. */
function edit(before: ControlSnapshot, next: Next): ControlSnapshot {
  const state = structuredClone(before);
  const targeted = state.rules.filter((r) => !r.defaultRule);
  const fallback = state.rules.find((r) => r.defaultRule)!;
  const edits = next() < 0.8 ? 1 : 2;
  for (let i = 0; i < edits; i++) {
    const kind = next();
    const at = Math.floor(next() * targeted.length);
    if (kind < 0.2) {
      state.enabled = !state.enabled;
    } else if (kind < 0.35 && targeted.length < 8) {
      targeted.splice(Math.floor(next() * (targeted.length + 1)), 0, targetedRule(next));
    } else if (kind < 0.45 && targeted.length > 3) {
      targeted.splice(at, 1);
    } else if (kind < 0.55 && targeted.length > 1) {
      const [moved] = targeted.splice(at, 1);
      targeted.splice(Math.floor(next() * (targeted.length + 1)), 0, moved!);
    } else if (kind < 0.75) {
      targeted[at]!.variantSplits = splits(next);
    } else if (kind < 0.92) {
      const conditions = targeted[at]!.audience!.conditions;
      conditions[Math.floor(next() * conditions.length)] = condition(next);
    } else if (kind < 0.97) {
      fallback.variantSplits = splits(next);
    } else {
      state.offVariantKey = state.offVariantKey === 'off' ? 'holdout' : 'off';
    }
  }
  state.rules = [...targeted, fallback];
  if (JSON.stringify(state) === JSON.stringify(before)) state.enabled = !state.enabled;
  return state;
}

/** Every version's snapshot, 1 first: a control created with four targeted rules, then edited. */
function snapshots(count: number): ControlSnapshot[] {
  const next = random(31);
  const first: ControlSnapshot = {
    enabled: false,
    offVariantKey: 'off',
    rules: [
      ...Array.from({ length: 4 }, () => targetedRule(next)),
      { defaultRule: true, audience: null, variantSplits: [{ variantKey: 'off', split: 100 }] },
    ],
  };
  const all = [first];
  for (let n = 2; n <= count; n++) all.push(edit(all[all.length - 1]!, next));
  return all;
}

type Seeded = { snapshots: ControlSnapshot[]; plans: string[]; parts: string[] };

async function explain(db: Database, query: SQL): Promise<string> {
  const result = (await db.execute(sql`explain (analyze, buffers off) ${query}`)) as unknown as {
    rows: { 'QUERY PLAN': string }[];
  };
  return result.rows.map((row) => `    ${row['QUERY PLAN']}`).join('\n');
}

/**
 * The diff and the first page as the server computes them, in this process on the seeded database
 * (control-history.ts with no HTTP, no authentication, no response schema), and each of their
 * queries alone through its repository: how the routes' time divides.
 */
async function timeParts(db: Database, organisationId: string): Promise<string[]> {
  const principal = { organisationId } as Principal;
  const keys = { projectKey: PROJECT, featureKey: FEATURE, environmentKey: ENVIRONMENT };
  const service = createControlHistory({ db, versions: createVersionsService(), change: undefined as never });
  const found = (await findControlByKeys(db, organisationId, keys))!;
  const ref = { organisationId, resourceType: 'feature_control' as const, resourceId: found.control.id };
  const count = 100;
  const list = pairs(count);
  const time = async (fn: (i: number) => Promise<unknown>) => {
    for (let i = 0; i < 10; i++) await fn(i); // warm-up
    const samples: number[] = [];
    for (let i = 0; i < count; i++) {
      const start = performance.now();
      await fn(i);
      samples.push(performance.now() - start);
    }
    return stats(samples);
  };
  const parts: [string, Stats][] = [
    [
      'first page, control-history page()',
      await time(() => service.page(principal, keys, { page: 0, pageSize: 20 })),
    ],
    ['diff, control-history diff()', await time((i) => service.diff(principal, keys, ...list[i % count]!))],
    [
      '  the control by its keys (findControlByKeys; a diff asks twice)',
      await time(() => findControlByKeys(db, organisationId, keys)),
    ],
    [
      '  one version (versions byNumber; a diff asks twice)',
      await time((i) => repoByNumber(db, ref, list[i % count]![0])),
    ],
    ['  a page of 21 summaries (versions page)', await time(() => repoPage(db, ref, 0, 20))],
    ['  the variants (variantsOf)', await time(() => variantsOf(db, organisationId, found.feature.id))],
  ];
  return parts.map(([what, s]) => `  ${what}: p50 ${s.p50.toFixed(2)} ms, p95 ${s.p95.toFixed(2)} ms`);
}

/**
 * Before the server starts: the demo project's New checkout control in Development gets 10,000
 * versions (and its state becomes the newest), Dark mode's a single one; the project gets the targets
 * and New checkout a third variant that the rules name. Then the plans of the routes' queries.
 */
async function seedHistory(db: Database): Promise<Seeded> {
  const [scope] = await db
    .select({ organisationId: projects.organisationId, projectId: projects.id })
    .from(projects)
    .innerJoin(organisations, eq(organisations.id, projects.organisationId))
    .where(and(eq(organisations.domain, DEMO_DOMAIN), eq(projects.key, PROJECT)));
  const { organisationId, projectId } = scope!;
  const [admin] = await db.select({ id: users.id }).from(users).where(eq(users.email, ADMIN_EMAIL));
  const [environment] = await db
    .select({ id: environments.id })
    .from(environments)
    .where(and(eq(environments.projectId, projectId), eq(environments.key, ENVIRONMENT)));
  const controlOf = async (featureKey: string) => {
    const [row] = await db
      .select({ id: featureControls.id, featureId: features.id })
      .from(featureControls)
      .innerJoin(features, eq(features.id, featureControls.featureId))
      .where(
        and(
          eq(features.projectId, projectId),
          eq(features.key, featureKey),
          eq(featureControls.environmentId, environment!.id),
        ),
      );
    return row!;
  };
  const long = await controlOf(FEATURE);
  const short = await controlOf(SHORT_FEATURE);
  // The demo's own first versions give way to the histories this bench writes.
  await db.delete(versions).where(inArray(versions.resourceId, [long.id, short.id]));
  await db.insert(targets).values(TARGETS.map((t) => ({ organisationId, projectId, ...t })));
  await db
    .insert(variants)
    .values({ organisationId, featureId: long.featureId, key: 'holdout', name: 'Holdout', position: 2 });

  const all = snapshots(VERSIONS);
  const next = random(7);
  const start = Date.now() - VERSIONS * 30 * MINUTE_MS;
  const row = (
    control: { id: string; featureId: string },
    n: number,
    snapshot: ControlSnapshot,
    before: ControlSnapshot | null,
  ): NewVersionRecord => {
    const byToken = next() < 0.2;
    return {
      organisationId,
      resourceType: 'feature_control',
      resourceId: control.id,
      featureId: control.featureId,
      environmentId: environment!.id,
      number: n,
      parentNumber: n > 1 ? n - 1 : null,
      authorId: admin!.id,
      authorName: ADMIN_EMAIL,
      source: n === 1 ? 'ui' : byToken ? 'api' : 'ui',
      comment: next() < 0.25 ? COMMENTS[Math.floor(next() * COMMENTS.length)]! : null,
      restoredFrom: null,
      changes: controlChanges(before, snapshot, { variants: VARIANTS, targetTypes: TARGET_TYPES }),
      snapshot,
      createdAt: new Date(start + n * 30 * MINUTE_MS),
    };
  };
  for (let from = 0; from < VERSIONS; from += BATCH) {
    await insert(
      db,
      all.slice(from, from + BATCH).map((snapshot, i) => {
        const n = from + i + 1;
        return row(long, n, snapshot, n > 1 ? all[n - 2]! : null);
      }),
    );
  }
  const newest = all[all.length - 1]!;
  await db
    .update(featureControls)
    .set({ enabled: newest.enabled, offVariantKey: newest.offVariantKey, rules: newest.rules })
    .where(eq(featureControls.id, long.id));
  const [shortControl] = await db
    .select({
      enabled: featureControls.enabled,
      offVariantKey: featureControls.offVariantKey,
      rules: featureControls.rules,
    })
    .from(featureControls)
    .where(eq(featureControls.id, short.id));
  const shortSnapshot = controlSnapshotSchema.parse(shortControl);
  await insert(db, [row(short, 1, shortSnapshot, null)]);

  // The plans of what GET …/versions and GET …/versions/{a}/diff/{b} ask the database
  // (versions.repository.ts page and byNumber), on this database, before the server holds it.
  const ref = sql`organisation_id = ${organisationId} and resource_type = 'feature_control' and resource_id = ${long.id}`;
  const summary = sql.raw(
    'number, parent_number, resource_type, author_id, author_name, source, comment, restored_from, changes, created_at',
  );
  return {
    snapshots: all,
    parts: await timeParts(db, organisationId),
    plans: [
      `  first page (versions.repository page, limit 21):\n${await explain(
        db,
        sql`select ${summary} from versions where ${ref} order by number desc limit 21 offset 0`,
      )}`,
      `  one version (versions.repository byNumber, twice a diff):\n${await explain(
        db,
        sql`select * from versions where ${ref} and number = ${Math.floor(VERSIONS / 3)} limit 1`,
      )}`,
      `  last page (page 499, offset 9,980):\n${await explain(
        db,
        sql`select ${summary} from versions where ${ref} order by number desc limit 21 offset 9980`,
      )}`,
    ],
  };
}

type Stats = { n: number; p50: number; p95: number };

function stats(samples: number[]): Stats {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return { n: sorted.length, p50: at(0.5), p95: at(0.95) };
}

/** Random pairs of distinct version numbers across the whole history. */
function pairs(count: number): [number, number][] {
  const next = random(11);
  const number = () => 1 + Math.floor(next() * VERSIONS);
  return Array.from({ length: count }, () => {
    const a = number();
    let b = number();
    while (b === a) b = number();
    return [a, b];
  });
}

/**
 * Times the requests of each series, taking them in turns (one of each, then again) so that the
 * floor and the figures share whatever else the machine was doing at the time.
 */
async function timeSeries(
  series: Record<string, string[]>,
  headers: Record<string, string>,
  base: string,
): Promise<Record<string, Stats & { bytes: number }>> {
  const samples: Record<string, number[]> = Object.fromEntries(Object.keys(series).map((k) => [k, []]));
  const bytes: Record<string, number> = Object.fromEntries(Object.keys(series).map((k) => [k, 0]));
  const rounds = Math.max(...Object.values(series).map((paths) => paths.length));
  for (let i = 0; i < rounds; i++) {
    for (const [name, paths] of Object.entries(series)) {
      const path = paths[i];
      if (path === undefined) continue;
      const start = performance.now();
      const res = await fetch(`${base}${path}`, { headers });
      const body = await res.arrayBuffer();
      samples[name]!.push(performance.now() - start);
      bytes[name]! += body.byteLength;
      if (!res.ok) throw new Error(`GET ${path}: ${res.status} ${Buffer.from(body).toString()}`);
    }
  }
  return Object.fromEntries(
    Object.entries(samples).map(([name, s]) => [
      name,
      { ...stats(s), bytes: Math.round(bytes[name]! / s.length) },
    ]),
  );
}

/** The diff's computation alone, as control-history.ts does it (parse both, patch, sentences). */
function timeDiffComputation(all: ControlSnapshot[], list: [number, number][]): Stats {
  const samples = list.map(([a, b]) => {
    const start = performance.now();
    const from = controlSnapshotSchema.parse(all[a - 1]);
    const to = controlSnapshotSchema.parse(all[b - 1]);
    jsonPatch(from, to);
    controlChanges(from, to, { variants: VARIANTS });
    return performance.now() - start;
  });
  return stats(samples);
}

/** The figures of one server, seeded and started: its table, then where its time goes. */
async function measure(server: RunningServer, seeded: Seeded, database: string): Promise<void> {
  const { snapshots: all, plans } = seeded;
  const base = server.url.replace('localhost', '127.0.0.1');
  const load = () =>
    os
      .loadavg()
      .map((n) => n.toFixed(1))
      .join(', ');
  const loadBefore = load();
  try {
    const login = await fetch(`${base}/api/authenticate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', host: 'localhost' },
      body: JSON.stringify({ username: ADMIN_EMAIL, password: ADMIN_PASSWORD, domain: DEMO_DOMAIN }),
    });
    const token = ((await login.json()) as { id_token: string }).id_token;
    const headers = { authorization: `Bearer ${token}`, host: 'localhost' };
    const first = (await (await fetch(`${base}${versionsPath(FEATURE)}`, { headers })).json()) as {
      content: { number: number; changes: string[] }[];
      last: boolean;
    };
    console.log(
      `the first page holds versions ${first.content[0]!.number}…${first.content[first.content.length - 1]!.number}; the newest says: ${first.content[0]!.changes.join('; ')}`,
    );

    const floorPath = `/api/v1/projects/${PROJECT}`;
    const firstPage = versionsPath(FEATURE);
    const diffs = pairs(REQUESTS).map(([a, b]) => versionsPath(FEATURE, `/${a}/diff/${b}`));
    const repeat = (path: string, n: number) => Array.from({ length: n }, () => path);
    // Warm-up: the server's first requests compile and cache.
    await timeSeries(
      {
        healthz: repeat('/healthz', 20),
        floor: repeat(floorPath, 20),
        page: repeat(firstPage, 20),
        diff: pairs(20).map(([a, b]) => versionsPath(FEATURE, `/${b}/diff/${a}`)),
      },
      headers,
      base,
    );

    const main = await timeSeries(
      {
        healthz: repeat('/healthz', REQUESTS),
        floor: repeat(floorPath, REQUESTS),
        short: repeat(versionsPath(SHORT_FEATURE), REQUESTS),
        page: repeat(firstPage, REQUESTS),
        diff: diffs,
        one: pairs(REQUESTS).map(([, b]) => versionsPath(FEATURE, `/${b}`)),
      },
      headers,
      base,
    );
    const more = await timeSeries(
      {
        floor: repeat(floorPath, 50),
        adjacent: pairs(50).map(([a]) =>
          versionsPath(FEATURE, `/${Math.max(1, a - 1)}/diff/${Math.max(2, a)}`),
        ),
        middle: repeat(versionsPath(FEATURE, '', '&page=250'), 50),
        last: repeat(versionsPath(FEATURE, '', '&page=499'), 50),
        big: repeat(versionsPath(FEATURE, '', '&pageSize=100'), 50),
      },
      headers,
      base,
    );
    // Each figure against the floor taken in turns with it.
    type Row = [string, Stats & { bytes: number }, Stats, number?];
    const rows: Row[] = [
      ['floor: GET /healthz', main.healthz!, main.floor!],
      [`floor: GET ${floorPath} (authenticated)`, main.floor!, main.floor!],
      ['first page, a history of 1 version', main.short!, main.floor!],
      ['first page (20), 10,000 versions', main.page!, main.floor!, TARGET_FIRST_PAGE_P95_MS],
      ['diff, random pairs across 1…10,000', main.diff!, main.floor!, TARGET_DIFF_P95_MS],
      ['one version with its snapshot', main.one!, main.floor!],
      [`floor again (50), for the rows below`, more.floor!, more.floor!],
      ['diff, neighbouring versions (50)', more.adjacent!, more.floor!],
      ['page 250 of 500 (50)', more.middle!, more.floor!],
      ['last page, 499 (50)', more.last!, more.floor!],
      ['first page of 100 (50)', more.big!, more.floor!],
    ];
    console.table(
      rows.map(([what, s, floor, target]) => ({
        request: what,
        n: s.n,
        'p50 ms': s.p50.toFixed(1),
        'p95 ms': s.p95.toFixed(1),
        'p50 ÷ floor': (s.p50 / floor.p50).toFixed(1),
        'p95 ÷ floor': (s.p95 / floor.p95).toFixed(1),
        'body bytes': s.bytes,
        target: target ? `p95 ≤ ${target} ms` : '—',
        meets: target ? (s.p95 <= target ? 'yes' : 'NO') : '—',
      })),
    );
    console.log(
      `load average (1, 5, 15 min) on ${os.cpus().length} cores: ${loadBefore} before, ${load()} after`,
    );
    const computation = timeDiffComputation(all, pairs(REQUESTS));
    console.log(
      `the diff's computation alone (2 snapshot parses, JSON Patch, sentences), in this process: p50 ${computation.p50.toFixed(2)} ms, p95 ${computation.p95.toFixed(2)} ms`,
    );
    console.log(
      `in the server's code, in this process on the seeded ${database} (100 each, before the server started):`,
    );
    console.log(seeded.parts.join('\n'));
    console.log(
      `the database's plans and own times (EXPLAIN ANALYZE on the seeded ${database}, before the server started):`,
    );
    console.log(plans.join('\n'));
  } finally {
    await server.stop();
  }
}

const startedIn = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)} s`;
const seededLine = (seeded: Seeded, database: string, since: number) =>
  `${database}: seeded ${VERSIONS.toLocaleString('en-GB')} versions of one control (${seeded.snapshots[seeded.snapshots.length - 1]!.rules.length} rules in the newest) and started in ${startedIn(since)}`;

/** The embedded database, as a default install runs: seeded in the server's data directory. */
async function onPglite(): Promise<void> {
  const since = performance.now();
  let seeded: Seeded | undefined;
  const server = await startServer(
    { LOG_LEVEL: 'error' },
    {
      prepare: async (db) => {
        seeded = await seedHistory(db);
      },
    },
  );
  console.log(seededLine(seeded!, 'PGlite', since));
  await measure(server, seeded!, 'PGlite');
}

/**
 * PostgreSQL (PG_ADMIN_URL, default postgres://postgres@127.0.0.1:5432/postgres), a database of
 * the run's own: migrated, seeded as a first start would, given the history, then served.
 */
async function onPostgres(adminUrl: string): Promise<void> {
  const name = `vexil_history_${randomBytes(4).toString('hex')}`;
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
  try {
    const since = performance.now();
    const database = openDatabase({ kind: 'postgres', url: url.toString(), max: 2 });
    let seeded: Seeded;
    try {
      await database.migrate();
      await seed(database.db, { adminPassword: ADMIN_PASSWORD, demo: true, hashCost: 'test' });
      seeded = await seedHistory(database.db);
    } finally {
      await database.close();
    }
    const server = await startServer({
      LOG_LEVEL: 'error',
      DATABASE_URL: url.toString(),
      SECRETS_KEY: randomBytes(32).toString('hex'),
    });
    console.log(seededLine(seeded, 'PostgreSQL', since));
    await measure(server, seeded, 'PostgreSQL');
  } finally {
    await admin.db.execute(sql.raw(`drop database if exists ${name} with (force)`));
    await admin.close();
  }
}

export async function history(): Promise<void> {
  await onPglite();
  console.log();
  await onPostgres(process.env.PG_ADMIN_URL ?? DEFAULT_PG_ADMIN_URL);
}
