/**
 * R1 (SDK polling at a fixed rate), R2 (event ingestion with one tenant flooding) and R5 (SIGKILL
 * in the middle of R2's load, then a restart on the same database).
 */
import { atFixedRate, type Shot } from './client';
import { storedAfterStop, type Context } from './context';
import { describeTally, eventBatch, eventPost, tally } from './events';
import { delay } from './product';
import { fmt, verdictOf, type Outcome } from './report';
import { pollMix, sdkFetch, startFloor } from './sdk-fetch';

const POLL_RATE = 2000;
/** 100 events a post: 10,000 events/s is 100 posts/s. */
const BATCH = 100;
const EVENT_POSTS_PER_S = 100;
/** The quiet tenant: 10 posts of 10 events a second, whatever the flood does. */
const QUIET_POSTS_PER_S = 10;
/** The quiet tenant's p99 while the other floods: the few milliseconds of a commit, not the flood's. */
const QUIET_P99_MS = 50;

export async function r1(ctx: Context): Promise<Outcome> {
  const base = ctx.product.base;
  const seconds = ctx.seconds(60, 10);
  const { polls, bytes } = await pollMix(base, ctx.tenants);
  await sdkFetch(base, polls, POLL_RATE, ctx.quick ? 2 : 5);
  const before = ctx.product.rssMb();
  let peak = before;
  const sampler = setInterval(() => {
    if (ctx.product.alive) peak = Math.max(peak, ctx.product.rssMb());
  }, 1000);
  const run = await sdkFetch(base, polls, POLL_RATE, seconds);
  clearInterval(sampler);
  const after = ctx.product.rssMb();
  const floor = await startFloor(bytes);
  let floorRun;
  try {
    // Warmed up as the product was: a cold process measures its JIT and its first connections.
    await sdkFetch(floor.base, polls, POLL_RATE, ctx.quick ? 2 : 5);
    floorRun = await sdkFetch(floor.base, polls, POLL_RATE, Math.min(seconds, 20));
  } finally {
    floor.stop();
  }
  return {
    figures: [
      `p50 ${fmt.ms(run.p50)}, p99 ${fmt.ms(run.p99)} at ${fmt.n(Math.round(run.achieved))} req/s for ${seconds} s (${(bytes / 1024).toFixed(0)} KiB full body, half 304)`,
      `errors ${run.failed}${run.failures ? ` (${run.failures})` : ''}`,
      `RSS ${fmt.mb(before)} → ${fmt.mb(after)} (growth ${fmt.mb(after - before)}, peak ${fmt.mb(peak)})`,
    ],
    floor:
      `bare node:http p50 ${fmt.ms(floorRun.p50)}, p99 ${fmt.ms(floorRun.p99)} at ${fmt.n(Math.round(floorRun.achieved))} req/s` +
      (floorRun.p99 > 25
        ? ' (the floor itself is over 25 ms: this machine is saturated, so the p99 verdict is not conclusive)'
        : ''),
    ...verdictOf({
      [`p99 ${fmt.ms(run.p99)} > 25 ms`]: run.p99 <= 25,
      [`${run.failed} errors`]: run.failed === 0,
      [`RSS grew ${fmt.mb(after - before)}`]: after - before < 50,
      [`only ${fmt.n(Math.round(run.achieved))} req/s sent`]: run.achieved >= POLL_RATE * 0.98,
    }),
  };
}

/** Flood (tenant-a) at 10,000 events/s then 3×, quiet tenant-b alongside; returns every answer. */
async function ingestionLoad(
  ctx: Context,
  prefix: string,
  phases: { postsPerS: number; seconds: number }[],
  during?: (stop: () => void) => Promise<void>,
) {
  const [flood, quiet] = ctx.tenants as [Context['tenants'][0], Context['tenants'][0]];
  const big = eventBatch(prefix, BATCH);
  const small = eventBatch(prefix, 10);
  const total = phases.reduce((sum, phase) => sum + phase.seconds, 0);
  const quietRun = atFixedRate({
    base: ctx.product.base,
    rate: QUIET_POSTS_PER_S,
    durationMs: total * 1000,
    make: (i) => eventPost(quiet.production, small, i, 'quiet'),
  });
  const shots: Shot[] = [];
  let skipped = 0;
  let stopped = false;
  const current: { stop: () => void }[] = [quietRun];
  const stop = () => {
    stopped = true;
    for (const run of current) run.stop();
  };
  const flooding = (async () => {
    for (const phase of phases) {
      if (stopped) break;
      const run = atFixedRate({
        base: ctx.product.base,
        rate: phase.postsPerS,
        durationMs: phase.seconds * 1000,
        make: (i) => eventPost(flood.production, big, i, 'flood'),
      });
      current.push(run);
      const result = await run.done;
      shots.push(...result.shots);
      skipped += result.skipped;
    }
  })();
  await during?.(stop);
  await flooding;
  const quietResult = await quietRun.done;
  shots.push(...quietResult.shots);
  skipped += quietResult.skipped;
  return { shots, skipped, flood: flood.domain, quiet: quiet.domain };
}

/** The quiet tenant's posts with nobody else sending: the figure its p99 under the flood compares with. */
async function quietAlone(ctx: Context, prefix: string, seconds: number) {
  const quiet = ctx.tenants[1]!;
  const small = eventBatch(prefix, 10);
  const run = atFixedRate({
    base: ctx.product.base,
    rate: QUIET_POSTS_PER_S,
    durationMs: seconds * 1000,
    make: (i) => eventPost(quiet.production, small, i, 'quiet'),
  });
  return (await run.done).shots;
}

export async function r2(ctx: Context): Promise<Outcome> {
  const aloneShots = await quietAlone(ctx, 'r2', ctx.seconds(10, 5));
  const alone = tally(aloneShots, 'quiet');
  const phases = [
    { postsPerS: EVENT_POSTS_PER_S, seconds: ctx.seconds(60, 10) },
    { postsPerS: EVENT_POSTS_PER_S * 3, seconds: ctx.seconds(20, 5) },
  ];
  const load = await ingestionLoad(ctx, 'r2', phases);
  const { stored, cleanStop } = await storedAfterStop(ctx, 'r2');
  const flood = tally(load.shots, 'flood');
  const quiet = tally(load.shots, 'quiet');
  const storedFlood = stored.get(load.flood) ?? 0;
  // Stored counts both phases of the quiet tenant.
  const storedQuiet = stored.get(load.quiet) ?? 0;
  const quietAcked = quiet.ackedImpressions + alone.ackedImpressions;
  return {
    figures: [
      `flood ${describeTally(flood)}, p99 ${fmt.ms(flood.p99)}`,
      `quiet ${describeTally(quiet)}, p50 ${fmt.ms(quiet.p50)}, p99 ${fmt.ms(quiet.p99)} (alone before the flood: p50 ${fmt.ms(alone.p50)}, p99 ${fmt.ms(alone.p99)})`,
      `stored/acked impressions: flood ${fmt.n(storedFlood)}/${fmt.n(flood.ackedImpressions)}, quiet ${fmt.n(storedQuiet)}/${fmt.n(quietAcked)}`,
      ...(load.skipped ? [`${load.skipped} posts not sent (over 1,500 unanswered)`] : []),
      ...(cleanStop ? [] : ['SIGTERM did not stop it within 20 s']),
    ],
    ...verdictOf({
      [`${flood.violations + quiet.violations + alone.violations} answers neither 2xx nor 429/503 with Retry-After`]:
        flood.violations + quiet.violations + alone.violations === 0 && load.skipped === 0,
      'stored ≠ acknowledged': storedFlood === flood.ackedImpressions && storedQuiet === quietAcked,
      [`quiet tenant got ${quiet.status429}× 429`]: quiet.status429 === 0,
      [`quiet tenant's p99 ${fmt.ms(quiet.p99)} > ${QUIET_P99_MS} ms during the flood`]:
        quiet.p99 <= QUIET_P99_MS,
    }),
  };
}

export async function r5(ctx: Context): Promise<Outcome> {
  const seconds = ctx.seconds(20, 8);
  let killedAt = 0;
  const load = await ingestionLoad(ctx, 'r5', [{ postsPerS: EVENT_POSTS_PER_S, seconds }], async (stop) => {
    await delay((seconds * 1000) / 2);
    await ctx.product.kill();
    killedAt = performance.now();
    stop();
  });
  const restart = performance.now();
  try {
    await ctx.product.start();
  } catch (error) {
    return {
      verdict: 'FAIL',
      figures: [`killed after ${seconds / 2} s of load`],
      why: [`restart on the same database failed: ${(error as Error).message.split('\n')[0]}`],
    };
  }
  const restartMs = performance.now() - restart;
  const { stored } = await storedAfterStop(ctx, 'r5');
  const figures = [
    `SIGKILL after ${seconds / 2} s of load; restart ready in ${(restartMs / 1000).toFixed(1)} s`,
  ];
  const checks: Record<string, boolean> = {};
  for (const [tag, domain] of [
    ['flood', load.flood],
    ['quiet', load.quiet],
  ] as const) {
    const before = tally(load.shots, tag);
    const unanswered = load.shots
      .filter((shot) => shot.tag === tag && shot.status === 0 && shot.sentAt < killedAt)
      .reduce((sum, shot) => sum + shot.weight, 0);
    const got = stored.get(domain) ?? 0;
    const lost = Math.max(0, before.ackedImpressions - got);
    figures.push(
      `${tag}: acked ${fmt.n(before.ackedImpressions)} impressions, stored ${fmt.n(got)}, lost ${fmt.n(lost)} (${fmt.n(unanswered)} in flight at the kill)`,
    );
    checks[`${tag} lost ${fmt.n(lost)} acknowledged impressions`] = lost === 0;
  }
  return { figures, ...verdictOf(checks) };
}
