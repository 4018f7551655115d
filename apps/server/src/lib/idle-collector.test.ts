import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  IDLE_COLLECTOR_DEFAULTS,
  compactingCollection,
  shouldCollect,
  startIdleCollector,
} from './idle-collector';

const MiB = 1024 * 1024;

const here = path.dirname(fileURLToPath(import.meta.url));

/** Runs `body` as an ES module in a new Node process with the collector imported; its last line of output, as JSON. */
async function runInChild(nodeFlags: string[], body: string): Promise<unknown> {
  const script = `import { compactingCollection, startIdleCollector } from ${JSON.stringify(path.join(here, 'idle-collector.ts'))};\n${body}`;
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [...nodeFlags, '--max-semi-space-size=4', '--import', 'tsx', '--input-type=module', '-e', script],
    { cwd: here, timeout: 25_000 },
  );
  return JSON.parse(stdout.trim().split('\n').at(-1)!);
}

describe('shouldCollect', () => {
  const sample = fc.record({
    utilization: fc.double({ min: 0, max: 1, noNaN: true }),
    heapUsed: fc.integer({ min: 0, max: 4096 * MiB }),
    keptByLastCollection: fc.integer({ min: 1, max: 4096 * MiB }),
  });

  it('never collects while the event loop is busy', () => {
    fc.assert(
      fc.property(sample, (s) => {
        if (s.utilization >= IDLE_COLLECTOR_DEFAULTS.idleUtilization)
          expect(shouldCollect(s, IDLE_COLLECTOR_DEFAULTS)).toBe(false);
      }),
    );
  });

  it('collects when idle exactly when the heap grew by both the factor and the minimum', () => {
    fc.assert(
      fc.property(sample, (s) => {
        const idle = { ...s, utilization: s.utilization * IDLE_COLLECTOR_DEFAULTS.idleUtilization * 0.99 };
        const grown =
          idle.heapUsed - idle.keptByLastCollection >= IDLE_COLLECTOR_DEFAULTS.minGrowthBytes &&
          idle.heapUsed >= idle.keptByLastCollection * IDLE_COLLECTOR_DEFAULTS.growthFactor;
        expect(shouldCollect(idle, IDLE_COLLECTOR_DEFAULTS)).toBe(grown);
      }),
    );
  });

  it('leaves a small heap alone however much it grew in proportion', () => {
    expect(
      shouldCollect(
        { utilization: 0, heapUsed: 7 * MiB, keptByLastCollection: 1 * MiB },
        IDLE_COLLECTOR_DEFAULTS,
      ),
    ).toBe(false);
    expect(
      shouldCollect(
        { utilization: 0, heapUsed: 60 * MiB, keptByLastCollection: 40 * MiB },
        IDLE_COLLECTOR_DEFAULTS,
      ),
    ).toBe(true);
  });
});

describe('startIdleCollector', () => {
  it('starts nothing without gc', () => {
    expect(compactingCollection(undefined)).toBeUndefined();
    const stop = startIdleCollector(undefined);
    expect(stop).toBeTypeOf('function');
    stop();
  });

  it(
    'collects once after the heap grows and the loop goes idle, and not again until it grows again',
    { timeout: 30_000 },
    async () => {
      // In a process of its own: in a test worker, V8's own collections of earlier files' garbage
      // could lower the heap below the mark as the test grows it, and then rightly nothing is collected.
      const result = await runInChild(
        [],
        `
      const calls = [];
      const options = { intervalMs: 50, idleUtilization: 0.5, growthFactor: 1, minGrowthBytes: 16 * 1024 * 1024 };
      startIdleCollector(() => calls.push(Date.now()), undefined, options);
      const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
      await sleep(200);
      const beforeGrowth = calls.length;
      // Some 30 MiB kept alive: grown past the last mark, and no collection can lower it.
      const kept = Array.from({ length: 400_000 }, (_, i) => ({ i, text: 'item ' + i }));
      const deadline = Date.now() + 5000;
      while (calls.length === 0 && Date.now() < deadline) await sleep(50);
      const afterGrowth = calls.length;
      await sleep(500);
      console.log(JSON.stringify({ beforeGrowth, afterGrowth, later: calls.length, kept: kept.length }));
    `,
      );
      expect(result).toEqual({ beforeGrowth: 0, afterGrowth: 1, later: 1, kept: 400_000 });
    },
  );

  it('does not collect while the event loop stays busy', async () => {
    const calls: number[] = [];
    const options = { intervalMs: 50, idleUtilization: 0.5, growthFactor: 1, minGrowthBytes: 1 };
    const stop = startIdleCollector(() => calls.push(Date.now()), undefined, options);
    const garbage: object[] = [];
    try {
      const end = Date.now() + 400;
      // Busy for 400 ms, yielding to timers every 10 ms so the collector's checks run.
      while (Date.now() < end) {
        const slice = Date.now() + 10;
        while (Date.now() < slice) garbage.push({ at: Date.now() });
        await new Promise((resolve) => setImmediate(resolve));
      }
      expect(calls).toHaveLength(0);
    } finally {
      stop();
    }
  });
});

describe('the idle collector in a process started with --expose-gc', () => {
  it('returns the pages of a burst’s garbage within seconds of the burst', { timeout: 30_000 }, async () => {
    const result = (await runInChild(
      ['--expose-gc'],
      `
      import v8 from 'node:v8';
      const oldSpace = () => v8.getHeapSpaceStatistics().find((s) => s.space_name === 'old_space').space_size;
      let collections = 0;
      startIdleCollector(compactingCollection(globalThis.gc), () => collections++);
      // A burst: 1.5 million objects, of which one in four stays live, spread over every page.
      const live = [];
      let burst = [];
      for (let i = 0; i < 1_500_000; i++) {
        const o = { i, text: 'item ' + i };
        burst.push(o);
        if (i % 4 === 0) live.push(o);
      }
      burst = null;
      const before = oldSpace();
      setTimeout(() => {
        console.log(JSON.stringify({ before, after: oldSpace(), collections, live: live.length }));
      }, 2500);
    `,
    )) as { before: number; after: number; collections: number; live: number };
    expect(result.live).toBe(375_000);
    expect(result.collections).toBe(1);
    // The old generation's pages: what the live quarter needs, not what the burst grew them to.
    expect(result.before).toBeGreaterThan(80 * MiB);
    expect(result.after).toBeLessThan(result.before / 2);
  });
});
