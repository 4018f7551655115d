/**
 * An environment's feature list with 10,000 features (docs/product.md §2 "Feature list"), against the
 * real server in its own process on PGlite: the first page through the API, searches with varied
 * text, and in Chromium the time from navigation to the first row on screen. Each figure is printed
 * beside a floor measured in the same run (a bare GET of /healthz on the same server; navigation to
 * a page with no data) and against its target: the first page on screen within 1 s, a search
 * answered within 200 ms at p95.
 */
import { performance } from 'node:perf_hooks';
import { and, eq } from 'drizzle-orm';
import { chromium, type Page } from 'playwright-core';
import {
  environments,
  featureControls,
  features,
  organisations,
  projects,
  users,
  variants,
} from '@vexil/server/src/db/schema/index';
import type { Database } from '@vexil/server/src/db/client';
import { ADMIN_EMAIL, ADMIN_PASSWORD, DEMO_DOMAIN, startServer } from '../e2e/support/server';

const FEATURES = 10_000;
const BATCH = 500;
const PROJECT = 'sp';
const ENVIRONMENT = 'development';
const LIST = `/api/v1/projects/${PROJECT}/environments/${ENVIRONMENT}/features`;
const DAY_MS = 24 * 60 * 60 * 1000;

const TARGET_FIRST_PAGE_MS = 1000;
const TARGET_SEARCH_P95_MS = 200;

const AREAS = [
  'checkout',
  'search',
  'billing',
  'profile',
  'onboarding',
  'cart',
  'payments',
  'inbox',
  'reports',
  'admin',
];
const THINGS = [
  'banner',
  'redesign',
  'ranking',
  'export',
  'wizard',
  'tooltip',
  'limits',
  'cache',
  'dialog',
  'sync',
];
const TAGS = [
  'team-payments',
  'team-search',
  'team-growth',
  'team-platform',
  'beta',
  'mobile',
  'web',
  'experiment',
  'ops',
  'kill-switch',
  'q1',
  'q2',
  'q3',
  'q4',
  'release',
  'permission',
  'legacy',
  'cleanup',
  'ab-test',
  'backend',
];

/** A small deterministic generator, so every run seeds the same features. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/**
 * Seeds the demo's Sample Project with 10,000 features in bulk, before the server starts: varied
 * names, up to three tags, changes spread over 200 days; in Development 40 % on, a fifth of those with
 * a 50/50 split, and impressions from none to a month old (so some are stale).
 */
async function seedFeatures(db: Database): Promise<void> {
  const [project] = await db
    .select({ id: projects.id, organisationId: projects.organisationId })
    .from(projects)
    .innerJoin(organisations, eq(organisations.id, projects.organisationId))
    .where(and(eq(organisations.domain, DEMO_DOMAIN), eq(projects.key, PROJECT)));
  const { id: projectId, organisationId } = project!;
  const [admin] = await db.select({ id: users.id }).from(users).where(eq(users.email, ADMIN_EMAIL));
  const envs = await db
    .select({ id: environments.id, key: environments.key })
    .from(environments)
    .where(eq(environments.projectId, projectId));
  const next = random(42);
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]!;
  const now = Date.now();
  for (let start = 0; start < FEATURES; start += BATCH) {
    const rows = Array.from({ length: Math.min(BATCH, FEATURES - start) }, (_, j) => {
      const n = start + j;
      const area = pick(AREAS);
      const thing = pick(THINGS);
      const tags = [...new Set(Array.from({ length: Math.floor(next() * 4) }, () => pick(TAGS)))];
      const changed = new Date(now - Math.floor(next() * 200 * DAY_MS));
      return {
        organisationId,
        projectId,
        name: `${area[0]!.toUpperCase()}${area.slice(1)} ${thing} ${n}`,
        key: `${area}-${thing}-${n}`,
        description: next() < 0.5 ? `The ${thing} of ${area}, variant ${n % 97}.` : '',
        tags,
        maintainerId: next() < 0.5 ? admin!.id : null,
        createdAt: changed,
        updatedAt: changed,
      };
    });
    const created = await db
      .insert(features)
      .values(rows)
      .returning({ id: features.id, updatedAt: features.updatedAt });
    await db.insert(variants).values(
      created.flatMap(({ id }) => [
        { organisationId, featureId: id, key: 'on', name: 'On', position: 0 },
        { organisationId, featureId: id, key: 'off', name: 'Off', position: 1 },
      ]),
    );
    await db.insert(featureControls).values(
      created.flatMap(({ id, updatedAt }) =>
        envs.map((env) => {
          const here = env.key === ENVIRONMENT;
          const enabled = here && next() < 0.4;
          const split = enabled && next() < 0.2;
          const impression = next();
          return {
            organisationId,
            featureId: id,
            environmentId: env.id,
            enabled,
            offVariantKey: 'off',
            rules: [
              {
                defaultRule: true,
                audience: null,
                variantSplits: split
                  ? [
                      { variantKey: 'on', split: 50 },
                      { variantKey: 'off', split: 50 },
                    ]
                  : [{ variantKey: 'on', split: 100 }],
              },
            ],
            lastImpressionAt:
              !here || impression < 0.3
                ? null
                : new Date(now - Math.floor(((impression - 0.3) / 0.7) * 30 * DAY_MS)),
            createdAt: updatedAt,
            updatedAt: new Date(updatedAt.getTime() + Math.floor(next() * 10 * DAY_MS)),
          };
        }),
      ),
    );
  }
}

type Stats = { n: number; p50: number; p95: number };

function stats(samples: number[]): Stats {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return { n: sorted.length, p50: at(0.5), p95: at(0.95) };
}

const ms = (value: number) => `${value.toFixed(1)} ms`;

async function timeRequests(paths: string[], headers: Record<string, string>, base: string): Promise<Stats> {
  const samples: number[] = [];
  for (const path of paths) {
    const start = performance.now();
    const res = await fetch(`${base}${path}`, { headers });
    await res.arrayBuffer();
    samples.push(performance.now() - start);
    if (!res.ok) throw new Error(`GET ${path}: ${res.status}`);
  }
  return stats(samples);
}

/** Median time from `goto` until `ready` is on screen, over `count` navigations (after one warm-up). */
async function timeNavigation(page: Page, url: string, ready: () => Promise<void>, count: number) {
  const samples: number[] = [];
  for (let i = 0; i <= count; i++) {
    await page.goto('about:blank');
    const start = performance.now();
    await page.goto(url);
    await ready();
    if (i > 0) samples.push(performance.now() - start);
  }
  return stats(samples);
}

/** Varied search text: words of names and keys, parts of them, numbers, and text found nowhere. */
function searches(count: number): string[] {
  const next = random(7);
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]!;
  return Array.from({ length: count }, (_, i) => {
    switch (i % 6) {
      case 0:
        return pick(AREAS);
      case 1:
        return `${pick(AREAS)} ${pick(THINGS)}`;
      case 2:
        return pick(THINGS).slice(0, 3);
      case 3:
        return String(Math.floor(next() * FEATURES));
      case 4:
        return `${pick(AREAS)}-${pick(THINGS)}-${Math.floor(next() * 100)}`;
      default:
        return `nothing-${i}`;
    }
  });
}

export async function featureList(): Promise<void> {
  const seeding = performance.now();
  const server = await startServer({ LOG_LEVEL: 'error' }, { prepare: seedFeatures });
  console.log(
    `seeded ${FEATURES.toLocaleString('en-GB')} features and started in ${((performance.now() - seeding) / 1000).toFixed(1)} s`,
  );
  const base = server.url.replace('localhost', '127.0.0.1');
  // The Chromium the browser tests drive (e2e/support/browser.ts).
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox'],
    headless: true,
  });
  try {
    const login = await fetch(`${base}/api/authenticate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', host: 'localhost' },
      body: JSON.stringify({ username: ADMIN_EMAIL, password: ADMIN_PASSWORD, domain: DEMO_DOMAIN }),
    });
    const token = ((await login.json()) as { id_token: string }).id_token;
    const headers = { authorization: `Bearer ${token}`, host: 'localhost' };
    const first = (await (await fetch(`${base}${LIST}`, { headers })).json()) as { totalElements: number };
    console.log(`the list holds ${first.totalElements.toLocaleString('en-GB')} features`);

    const repeat = (path: string, n: number) => Array.from({ length: n }, () => path);
    // Warm-up: the server's first requests compile and cache.
    await timeRequests(repeat(LIST, 10), headers, base);
    await timeRequests(repeat('/healthz', 10), headers, base);

    const floor = await timeRequests(repeat('/healthz', 200), headers, base);
    const rows: { what: string; p50: number; p95: number; target: string; meets: string }[] = [];
    const add = (what: string, s: Stats, target?: number) =>
      rows.push({
        what,
        p50: s.p50,
        p95: s.p95,
        target: target ? `p95 ≤ ${target} ms` : '—',
        meets: target ? (s.p95 <= target ? 'yes' : 'NO') : '—',
      });

    add('floor: GET /healthz', floor);
    add('first page (50, by name)', await timeRequests(repeat(LIST, 100), headers, base));
    add(
      'first page, last changed first',
      await timeRequests(repeat(`${LIST}?sortBy=lastChanged`, 100), headers, base),
    );
    add(
      'first page, tag + on + targeting',
      await timeRequests(repeat(`${LIST}?tag=beta&state=on&targeting=single`, 100), headers, base),
    );
    add('first page, stale', await timeRequests(repeat(`${LIST}?stale=true&sortBy=key`, 100), headers, base));
    add('first page of 500', await timeRequests(repeat(`${LIST}?pageSize=500`, 20), headers, base));
    add('page 150 (of 200)', await timeRequests(repeat(`${LIST}?page=150`, 50), headers, base));
    const texts = searches(200);
    add(
      'search, varied text (200)',
      await timeRequests(
        texts.map((text) => `${LIST}?query=${encodeURIComponent(text)}`),
        headers,
        base,
      ),
      TARGET_SEARCH_P95_MS,
    );
    console.table(
      rows.map((r) => ({
        request: r.what,
        'p50 ms': r.p50.toFixed(1),
        'p95 ms': r.p95.toFixed(1),
        'p50 ÷ floor': (r.p50 / floor.p50).toFixed(1),
        target: r.target,
        meets: r.meets,
      })),
    );

    const context = await browser.newContext({ baseURL: server.url, viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    // Signed in as a user does, from /demo/login.
    await page.goto(`/${DEMO_DOMAIN}/login`);
    await page.getByLabel('Email').fill(ADMIN_EMAIL);
    await page.getByLabel('Password', { exact: true }).fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();
    const listUrl = `/projects/${PROJECT}/environments/${ENVIRONMENT}/features`;
    const firstRow = page.locator('table[aria-label^="Features in"] tbody tr:not([data-testid]) a').first();
    const onScreen = await timeNavigation(page, listUrl, () => firstRow.waitFor({ state: 'visible' }), 5);
    const notFound = await timeNavigation(
      page,
      '/no/such/page',
      () => page.getByRole('heading', { name: 'Page not found' }).waitFor(),
      5,
    );
    await context.close();
    console.log(
      `Chromium, navigation → first row on screen: median ${ms(onScreen.p50)} (floor, navigation → Page not found: ${ms(notFound.p50)}; ×${(onScreen.p50 / notFound.p50).toFixed(1)}); target ≤ ${TARGET_FIRST_PAGE_MS} ms: ${onScreen.p50 <= TARGET_FIRST_PAGE_MS ? 'met' : 'MISSED'}`,
    );
  } finally {
    await browser.close();
    await server.stop();
  }
}
