/**
 * R3 (PostgreSQL backends terminated every 500 ms under load and dashboard writes) and R4 (the
 * database unreachable: the proxy holds every socket and forwards nothing). PostgreSQL only.
 */
import { api, atFixedRate, percentile, type Answer } from './client';
import { storedAfterStop, type Context } from './context';
import { describeTally, eventBatch, eventPost, tally } from './events';
import { delay } from './product';
import { fmt, verdictOf, type Outcome } from './report';
import { pollMix, sdkFetch } from './sdk-fetch';
import type { Tenant } from './setup';

const embedded = (): Outcome => ({
  verdict: 'n/a',
  figures: [],
  why: ['embedded database: no server to cut or terminate'],
});

/** Toggles one production control in a loop, one write at a time, as a person in the dashboard would. */
function writeLoop(base: string, tenant: Tenant) {
  const answers: Answer[] = [];
  let stopped = false;
  const done = (async () => {
    let enabled = false;
    while (!stopped) {
      enabled = !enabled;
      answers.push(
        await api(base, tenant.token, 'PUT', '/api/v1/feature-controls', {
          id: tenant.writable.id,
          enabled,
          offVariantKey: 'off',
          rules: tenant.writable.rules,
        }),
      );
      await delay(100);
    }
    return answers;
  })();
  return { done, stop: () => (stopped = true) };
}

const ok = (answer: Answer) => answer.status >= 200 && answer.status < 300;

/**
 * Failed writes, how long they took to fail, the longest wait from a failure to the next success
 * while backends were being terminated, and, once they no longer were (`calmAt`), how long until a
 * write succeeded.
 */
function writeFigures(answers: readonly Answer[], calmAt: number) {
  const failures = answers.filter((answer) => !ok(answer));
  const statuses = new Map<string, number>();
  for (const failure of failures) {
    const label = failure.status === 0 ? `no answer (${failure.error})` : String(failure.status);
    statuses.set(label, (statuses.get(label) ?? 0) + 1);
  }
  let recovery = 0;
  for (const failure of failures) {
    const next = answers.find((answer) => ok(answer) && answer.sentAt > failure.answeredAt);
    recovery = Math.max(recovery, next ? next.answeredAt - failure.answeredAt : Infinity);
  }
  const firstAfterCalm = answers.find((answer) => ok(answer) && answer.sentAt >= calmAt);
  return {
    total: answers.length,
    failed: failures.length,
    afterCalm: firstAfterCalm ? firstAfterCalm.answeredAt - calmAt : Infinity,
    all503: failures.every((failure) => failure.status === 503),
    slowestFailure: failures.length ? Math.max(...failures.map((f) => f.answeredAt - f.sentAt)) : 0,
    recovery,
    statuses: [...statuses].map(([label, count]) => `${count}× ${label}`).join(', '),
  };
}

export async function r3(ctx: Context): Promise<Outcome> {
  if (ctx.store.kind !== 'pg') return embedded();
  const base = ctx.product.base;
  const seconds = ctx.seconds(60, 10);
  const [flood, quiet, writer] = ctx.tenants as [Tenant, Tenant, Tenant];
  const { polls } = await pollMix(base, ctx.tenants);
  const writes = writeLoop(base, writer);
  let terminated = 0;
  let terminating = true;
  const terminator = (async () => {
    while (terminating) {
      terminated += await ctx.store.terminateBackends();
      await delay(500);
    }
  })();
  const big = eventBatch('r3', 100);
  const small = eventBatch('r3', 10);
  const floodRun = atFixedRate({
    base,
    rate: 100,
    durationMs: seconds * 1000,
    make: (i) => eventPost(flood.production, big, i, 'flood'),
  });
  const quietRun = atFixedRate({
    base,
    rate: 10,
    durationMs: seconds * 1000,
    make: (i) => eventPost(quiet.production, small, i, 'quiet'),
  });
  const fetched = await sdkFetch(base, polls, 2000, seconds);
  terminating = false;
  await terminator;
  const calmAt = performance.now();
  const events = [...(await floodRun.done).shots, ...(await quietRun.done).shots];
  // Writes go on after the storm: the last failure must be followed by a success within 5 s.
  await delay(ctx.seconds(10, 6) * 1000);
  writes.stop();
  const w = writeFigures(await writes.done, calmAt);
  const alive = ctx.product.alive;
  const exit = alive ? '' : ctx.product.lastExit;
  const { stored } = await storedAfterStop(ctx, 'r3');
  const floodTally = tally(events, 'flood');
  const quietTally = tally(events, 'quiet');
  const storedFlood = stored.get(flood.domain) ?? 0;
  const storedQuiet = stored.get(quiet.domain) ?? 0;
  const share = fetched.total ? fetched.ok / fetched.total : 0;
  return {
    figures: [
      `${terminated} backends terminated over ${seconds} s; process ${alive ? 'alive' : `died (${exit})`}`,
      `SDK ${fmt.pct(share)} 2xx/304 of ${fmt.n(fetched.total)}, p99 ${fmt.ms(fetched.p99)}${fetched.failures ? ` (${fetched.failures})` : ''}`,
      `writes: ${w.failed}/${w.total} failed${w.statuses ? ` (${w.statuses})` : ''}, slowest failure ${fmt.ms(w.slowestFailure)}, longest failure→success during the terminations ${fmt.ms(w.recovery)}, first success ${fmt.ms(w.afterCalm)} after they stopped`,
      `events: flood ${describeTally(floodTally)}; quiet ${describeTally(quietTally)}`,
      `stored/acked impressions: flood ${fmt.n(storedFlood)}/${fmt.n(floodTally.ackedImpressions)}, quiet ${fmt.n(storedQuiet)}/${fmt.n(quietTally.ackedImpressions)}`,
    ],
    ...verdictOf({
      'process died': alive,
      [`SDK ${fmt.pct(share)} 2xx`]: share >= 0.999,
      'failed writes not all 503': w.all503,
      [`a write took ${fmt.ms(w.slowestFailure)} to fail`]: w.slowestFailure <= 2000,
      [`writes succeeded ${fmt.ms(w.afterCalm)} after the terminations stopped`]: w.afterCalm <= 5000,
      'stored ≠ acknowledged':
        storedFlood === floodTally.ackedImpressions && storedQuiet === quietTally.ackedImpressions,
    }),
  };
}

export async function r4(ctx: Context): Promise<Outcome> {
  if (ctx.store.kind !== 'pg' || !ctx.store.proxy) return embedded();
  const proxy = ctx.store.proxy;
  const base = ctx.product.base;
  const [pre, cut, post] = [ctx.seconds(5, 3), ctx.seconds(30, 20), ctx.seconds(10, 8)];
  const total = (pre + cut + post) * 1000;
  const [flood, , writer] = ctx.tenants as [Tenant, Tenant, Tenant];
  const { polls } = await pollMix(base, ctx.tenants);
  const readiness = atFixedRate({
    base,
    rate: 10,
    durationMs: total,
    make: () => ({ method: 'GET', path: '/readyz', timeoutMs: 10_000, tag: 'readyz', weight: 0 }),
  });
  const sdk = atFixedRate({
    base,
    rate: 100,
    durationMs: total,
    make: (i) => ({
      method: 'GET',
      path: '/api/sdk/v1/features',
      ...polls[i % polls.length]!,
      tag: 'sdk',
      weight: 0,
    }),
  });
  const batch = eventBatch('r4', 100);
  const events = atFixedRate({
    base,
    rate: 20,
    durationMs: total,
    make: (i) => eventPost(flood.production, batch, i, 'flood'),
  });
  const writes = writeLoop(base, writer);
  await delay(pre * 1000);
  const cutAt = performance.now();
  proxy.cut();
  await delay(cut * 1000);
  const resumeAt = performance.now();
  proxy.resume();
  await delay(post * 1000);
  writes.stop();
  const [ready, polled, posted, written] = await Promise.all([
    readiness.done,
    sdk.done,
    events.done,
    writes.done,
  ]);
  const alive = ctx.product.alive;
  const { stored } = await storedAfterStop(ctx, 'r4');

  const first503 = ready.shots
    .filter((shot) => shot.status === 503 && shot.answeredAt >= cutAt)
    .reduce((min, shot) => Math.min(min, shot.answeredAt - cutAt), Infinity);
  const backReady = ready.shots
    .filter((shot) => shot.status === 200 && shot.sentAt >= resumeAt)
    .reduce((min, shot) => Math.min(min, shot.answeredAt - resumeAt), Infinity);
  const inCut = (from: number) => (shot: { sentAt: number }) => shot.sentAt >= from && shot.sentAt < resumeAt;
  const sdkInCut = polled.shots.filter(inCut(cutAt));
  const sdkFailed = sdkInCut.filter((shot) => !(ok(shot) || shot.status === 304));
  // While the database is unreachable, whatever ingestion answers must be a 503; posts still
  // waiting when it comes back may then be stored and acknowledged (stored = acked checks that).
  const answeredInCut = posted.shots.filter((shot) => shot.answeredAt >= cutAt && shot.answeredAt < resumeAt);
  const not503 = answeredInCut.filter((shot) => shot.status !== 503 || !shot.retryAfter);
  const hung = posted.shots.filter((shot) => shot.status === 0 && shot.sentAt < resumeAt);
  const postsInCut = posted.shots.filter(inCut(cutAt));
  const all = tally(posted.shots);
  const storedFlood = stored.get(flood.domain) ?? 0;
  const firstWrite = written.find((answer) => ok(answer) && answer.sentAt >= resumeAt);
  const cutWrites = written.filter((answer) => answer.answeredAt >= cutAt && answer.answeredAt < resumeAt);
  const longestWrite = Math.max(0, ...written.map((answer) => answer.answeredAt - answer.sentAt));
  return {
    figures: [
      `cut ${cut} s; /readyz 503 after ${fmt.ms(first503)}, 200 again ${fmt.ms(backReady)} after resume`,
      `SDK during the cut: ${sdkInCut.length - sdkFailed.length}/${sdkInCut.length} 2xx/304, p99 ${fmt.ms(
        percentile(
          sdkInCut.map((s) => s.answeredAt - s.sentAt),
          0.99,
        ),
      )}`,
      `ingestion: ${postsInCut.length} posts sent during the cut; answers during it: ${summarise(answeredInCut)}${hung.length ? `; ${hung.length} never answered` : ''}`,
      `stored/acked impressions ${fmt.n(storedFlood)}/${fmt.n(all.ackedImpressions)} (${describeTally(all)})`,
      `writes answered during the cut: ${summarise(cutWrites)}, longest wait ${fmt.ms(longestWrite)}; first success ${firstWrite ? fmt.ms(firstWrite.answeredAt - resumeAt) : 'never'} after resume`,
      ...(alive ? [] : [`process died (${ctx.product.lastExit})`]),
    ],
    ...verdictOf({
      'process died': alive,
      [`/readyz 503 after ${fmt.ms(first503)}`]: first503 <= 2000,
      [`${sdkFailed.length} SDK polls failed during the cut`]: sdkFailed.length === 0,
      [`ingestion answered ${summarise(not503)} during the cut`]: not503.length === 0,
      'ingestion answered nothing during the cut': answeredInCut.length > 0,
      [`${hung.length} event posts never answered`]: hung.length === 0,
      'stored ≠ acknowledged': storedFlood === all.ackedImpressions,
    }),
  };
}

function summarise(answers: readonly Answer[]): string {
  const counts = new Map<string, number>();
  for (const answer of answers) {
    const label = answer.status === 0 ? `no answer (${answer.error})` : String(answer.status);
    counts.set(label, (counts.get(label) ?? 0) + 1);
  }
  return [...counts].map(([label, count]) => `${count}× ${label}`).join(', ') || 'none';
}
