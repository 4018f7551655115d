/**
 * The SDK payload after one change (docs/architecture.md "Scale"), in this process on PGlite (a data
 * directory of its own): the time from a control's change event to the new snapshot installed (its
 * streams told), for an environment of 1,000 and one of 10,000 flags, over 20 toggles of one control
 * each. Beside it, in the same run: the floor, serialising the same payload afresh and hashing it
 * (`JSON.stringify` + SHA-256, what any change to a whole-body ETag costs at least), and the full
 * rebuild of the environment from the database, which is what every change cost before patches.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { FastifyBaseLogger } from 'fastify';
import { eq } from 'drizzle-orm';
import { openDatabase, type Database } from '@vexil/server/src/db/client';
import {
  environments,
  featureControls,
  features,
  organisations,
  projects,
  variants,
} from '@vexil/server/src/db/schema/index';
import { createChangeEvents } from '@vexil/server/src/lib/change-events';
import { createSdkStore, type SdkStore } from '@vexil/server/src/sdk/sdk-store';

const SIZES = [
  { flags: 1_000, targetMs: 20 },
  { flags: 10_000, targetMs: 200 },
] as const;
const TOGGLES = 20;
const REBUILDS = 10;
const BATCH = 1_000;

type Row = { figure: string; vexil: string; floor: string; ratio: string; target: string; verdict: string };

const number = (n: number) => Math.round(n).toLocaleString('en-GB');
const verdict = (ok: boolean) => (ok ? 'met' : '**missed**');

function percentile(samples: number[], q: number) {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}
const summary = (samples: number[]) => ({ p50: percentile(samples, 0.5), p99: percentile(samples, 0.99) });
const shown = ({ p50, p99 }: { p50: number; p99: number }) => `${p50.toFixed(1)} (${p99.toFixed(1)})`;

function silentLogger(): FastifyBaseLogger {
  const ignore = () => {};
  const logger = {
    level: 'silent',
    fatal: ignore,
    error: ignore,
    warn: ignore,
    info: ignore,
    debug: ignore,
    trace: ignore,
    silent: ignore,
    child: () => logger,
  };
  return logger as unknown as FastifyBaseLogger;
}

/**
 * A project of `count` features with one environment, each control on with a targeting rule and a
 * 50/50 split (as bench/sdk.bench.ts seeds them): about 400 bytes of payload a flag.
 */
async function seed(db: Database, organisationId: string, count: number) {
  const key = `p${count}`;
  const [project] = await db
    .insert(projects)
    .values({ organisationId, name: `Payload ${count}`, key })
    .returning({ id: projects.id });
  const [environment] = await db
    .insert(environments)
    .values({
      organisationId,
      projectId: project!.id,
      name: 'Development',
      key: 'development',
      serverApiKey: `sdk-srv-env-${createHash('md5').update(`${key}srv`).digest('hex')}`,
      jsApiKey: `sdk-js-env-${createHash('md5').update(`${key}js`).digest('hex')}`,
    })
    .returning({ id: environments.id });
  const rules = [
    {
      defaultRule: false,
      audience: { conditions: [{ target: 'tier', operator: 'equals' as const, values: ['gold'] }] },
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
  const controls: { controlId: string; featureId: string }[] = [];
  for (let start = 0; start < count; start += BATCH) {
    const created = await db
      .insert(features)
      .values(
        Array.from({ length: Math.min(BATCH, count - start) }, (_, j) => ({
          organisationId,
          projectId: project!.id,
          name: `Feature ${start + j}`,
          key: `feature-${String(start + j).padStart(5, '0')}`,
        })),
      )
      .returning({ id: features.id });
    await db.insert(variants).values(
      created.flatMap(({ id }) => [
        { organisationId, featureId: id, key: 'on', name: 'On', position: 0 },
        { organisationId, featureId: id, key: 'off', name: 'Off', position: 1 },
      ]),
    );
    const rows = await db
      .insert(featureControls)
      .values(
        created.map(({ id }) => ({
          organisationId,
          featureId: id,
          environmentId: environment!.id,
          enabled: true,
          offVariantKey: 'off',
          rules,
        })),
      )
      .returning({ controlId: featureControls.id, featureId: featureControls.featureId });
    controls.push(...rows);
  }
  return { environmentId: environment!.id, controls };
}

/** Milliseconds from publishing `publish`'s event to the environment's new snapshot being installed. */
async function timeChange(store: SdkStore, environmentId: string, publish: () => void): Promise<number> {
  const installed = new Promise<number>((resolve) => {
    const stop = store.listen(environmentId, () => {
      stop();
      resolve(performance.now());
    });
  });
  const start = performance.now();
  publish();
  const end = await installed;
  await store.settled();
  return end - start;
}

export async function payload(): Promise<void> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'vexil-payload-'));
  const database = openDatabase({ kind: 'pglite', dataDir: path.join(dataDir, 'db') });
  const rows: Row[] = [];
  try {
    await database.migrate();
    const { db } = database;
    const [organisation] = await db
      .insert(organisations)
      .values({ name: 'Payload bench', domain: 'payload-bench' })
      .returning({ id: organisations.id });
    const organisationId = organisation!.id;
    const seeded = [];
    for (const size of SIZES) seeded.push({ ...size, ...(await seed(db, organisationId, size.flags)) });

    const events = createChangeEvents(() => {});
    const store = createSdkStore({ db, events, logger: silentLogger() });
    await store.start();
    try {
      for (const { flags, targetMs, environmentId, controls } of seeded) {
        const bytes = store.get(environmentId)!.bytes.length;
        const enabled = new Map<string, boolean>();
        const toggle = async (round: number) => {
          // Controls spread over the key range, each toggled in the database, then announced.
          const { controlId, featureId } = controls[(round * 7919) % controls.length]!;
          const next = !(enabled.get(controlId) ?? true);
          enabled.set(controlId, next);
          await db.update(featureControls).set({ enabled: next }).where(eq(featureControls.id, controlId));
          return timeChange(store, environmentId, () =>
            events.publish({
              type: 'environment.changed',
              organisationId,
              environmentId,
              featureIds: [featureId],
            }),
          );
        };
        for (let round = 0; round < 3; round++) await toggle(round);
        const patches: number[] = [];
        for (let round = 3; round < 3 + TOGGLES; round++) patches.push(await toggle(round));

        const rebuilds: number[] = [];
        for (let round = 0; round < REBUILDS; round++) {
          // A toggle announced without its feature: the whole environment is read again.
          const { controlId } = controls[(round * 104_729) % controls.length]!;
          const next = !(enabled.get(controlId) ?? true);
          enabled.set(controlId, next);
          await db.update(featureControls).set({ enabled: next }).where(eq(featureControls.id, controlId));
          rebuilds.push(
            await timeChange(store, environmentId, () =>
              events.publish({ type: 'environment.changed', organisationId, environmentId }),
            ),
          );
        }

        const parsed = JSON.parse(store.get(environmentId)!.body) as unknown;
        const floors: number[] = [];
        for (let round = 0; round < 3 + TOGGLES; round++) {
          const start = performance.now();
          const body = Buffer.from(JSON.stringify(parsed));
          createHash('sha256').update(body).digest('base64url');
          if (round >= 3) floors.push(performance.now() - start);
        }

        const patch = summary(patches);
        const rebuild = summary(rebuilds);
        const floor = summary(floors);
        rows.push({
          figure: `toggle → snapshot installed, ${number(flags)} flags (${number(bytes / 1024)} KiB), p50 (p99) ms`,
          vexil: shown(patch),
          floor: shown(floor),
          ratio: `${(patch.p50 / floor.p50).toFixed(1)}×`,
          target: `≤ ${targetMs} ms`,
          verdict: verdict(patch.p99 <= targetMs),
        });
        rows.push({
          figure: `the same toggle as a full rebuild (before patches), ${number(flags)} flags, p50 (p99) ms`,
          vexil: shown(rebuild),
          floor: shown(floor),
          ratio: `${(rebuild.p50 / floor.p50).toFixed(1)}×`,
          target: '(reference)',
          verdict: `patch ${(rebuild.p50 / patch.p50).toFixed(0)}× faster`,
        });
      }
    } finally {
      store.stop();
      await store.settled();
    }
  } finally {
    await database.close();
    await rm(dataDir, { recursive: true, force: true });
  }
  console.log('| figure | Vexil | floor (same run) | ratio | target | |');
  console.log('|---|---|---|---|---|---|');
  for (const r of rows)
    console.log(`| ${r.figure} | ${r.vexil} | ${r.floor} | ${r.ratio} | ${r.target} | ${r.verdict} |`);
  console.log(
    `\nIn this process on PGlite: ${TOGGLES} toggles of one control each (after 3 warm-ups), each written to the database ` +
      'and announced with its feature; time from the change event to the new snapshot installed (its listeners told). ' +
      'Floor: JSON.stringify of the same payload, encoded and hashed with SHA-256 (what re-serialising it whole costs). ' +
      `Full rebuild: ${REBUILDS} toggles announced without their feature.`,
  );
}
