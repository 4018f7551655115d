/**
 * Evaluations per second of a three-rule feature with a split: Vexil's core engine as the server runs
 * it (hash-wasm's SHA-1), with node:crypto's one-shot SHA-1, and as the browser does (pure JavaScript
 * SHA-1), beside one bare
 * `crypto.hash('sha1')` of the same input (the floor) and the Featureflow Node SDK's own evaluator
 * (featureflow-node-sdk 0.6.7, `featureEvaluation`), on the same users.
 */
import { hash } from 'node:crypto';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import v8 from 'node:v8';
import { createEvaluator, pureEvaluator, type EvaluableControl, type Evaluator } from '@vexil/core';
import { PGLITE_V8_FLAGS } from '@vexil/server/src/db/client';
import { serverEvaluator } from '@vexil/server/src/lib/sha1';

const require = createRequire(import.meta.url);
const { featureEvaluation } = require('featureflow-node-sdk/dist/EvaluateHelpers') as {
  featureEvaluation: (feature: unknown, user: unknown) => string;
};
const { UserBuilder } = require('featureflow-node-sdk') as {
  UserBuilder: new (id: string) => { withAttribute(key: string, value: unknown): unknown; build(): unknown };
};

export const THREE_RULES: EvaluableControl = {
  key: 'checkout',
  enabled: true,
  offVariantKey: 'off',
  rules: [
    {
      defaultRule: false,
      audience: { conditions: [{ target: 'tier', operator: 'equals', values: ['gold'] }] },
      variantSplits: [
        { variantKey: 'on', split: 100 },
        { variantKey: 'off', split: 0 },
      ],
    },
    {
      defaultRule: false,
      audience: {
        conditions: [
          { target: 'email', operator: 'endsWith', values: ['@example.com'] },
          { target: 'age', operator: 'greaterThanOrEqual', values: [18] },
        ],
      },
      variantSplits: [
        { variantKey: 'blue', split: 50 },
        { variantKey: 'green', split: 50 },
      ],
    },
    {
      defaultRule: true,
      audience: null,
      variantSplits: [
        { variantKey: 'off', split: 50 },
        { variantKey: 'on', split: 50 },
      ],
    },
  ],
};

function users(count: number) {
  const tiers = ['gold', 'silver', 'bronze', 'none'];
  return Array.from({ length: count }, (_, i) => ({
    id: `user-${i}`,
    attributes: { tier: tiers[i % 4]!, email: i % 2 ? `u${i}@example.com` : `u${i}@other.org`, age: i % 70 },
  }));
}

/** Evaluations a second of `run` over `durationMs`, after a warm-up. */
function measure(run: (i: number) => unknown, durationMs: number): number {
  for (let i = 0; i < 50_000; i++) run(i);
  let count = 0;
  const start = performance.now();
  while (performance.now() - start < durationMs) {
    for (let i = 0; i < 10_000; i++) run(count + i);
    count += 10_000;
  }
  return count / ((performance.now() - start) / 1000);
}

function print(label: string, perSecond: number, spread = '') {
  console.log(
    `${label.padEnd(64)} ${Math.round(perSecond).toLocaleString('en-GB').padStart(12)} evaluations/s${spread}`,
  );
}

function rate(label: string, run: (i: number) => unknown, durationMs: number): number {
  const perSecond = measure(run, durationMs);
  print(label, perSecond);
  return perSecond;
}

/**
 * Medians of `rounds` alternating measurements of each contender: one run of a few seconds lands on
 * whatever the machine and the collector were doing then (Featureflow's evaluator, which allocates
 * a lot, has measured anywhere from 86,000 to 210,000 a second in single runs).
 */
function alternating(
  contenders: Record<string, { before?: () => void; run: (i: number) => unknown }>,
  rounds: number,
  ms: number,
) {
  const samples: Record<string, number[]> = {};
  for (let round = 0; round < rounds; round++) {
    for (const [label, { before, run }] of Object.entries(contenders)) {
      before?.();
      (samples[label] ??= []).push(measure(run, ms));
    }
  }
  const medians: Record<string, number> = {};
  for (const [label, values] of Object.entries(samples)) {
    const sorted = [...values].sort((a, b) => a - b);
    medians[label] = sorted[Math.floor(sorted.length / 2)]!;
    const range = ` (${rounds} rounds: ${Math.round(sorted[0]!).toLocaleString('en-GB')} to ${Math.round(sorted.at(-1)!).toLocaleString('en-GB')})`;
    print(`${label}, median`, medians[label], range);
  }
  return medians;
}

export async function engine(): Promise<void> {
  const pool = users(100_000);
  const now = new Date();
  const sdkUsers = pool.map((u) => {
    const builder = new UserBuilder(u.id);
    for (const [key, value] of Object.entries(u.attributes)) builder.withAttribute(key, value);
    return builder.build();
  });
  // As the server runs on its embedded database: these flags hold for WebAssembly compiled after them,
  // so the server compiles its SHA-1 first (apps/server/src/main.ts); so does this. They are undone
  // at the end, for the benchmarks that run next in this process.
  const server = await serverEvaluator();
  v8.setFlagsFromString(PGLITE_V8_FLAGS.join(' '));
  const inputs = pool.map((u) => `1:${THREE_RULES.key}:${u.id}`);
  const evaluating = (evaluator: Evaluator) => (i: number) =>
    evaluator.evaluate(THREE_RULES, pool[i % pool.length]!, now);
  // The three figures of the targets, measured in alternating rounds.
  const ENGINE = 'Vexil core evaluate (three rules), server (WebAssembly SHA-1)';
  const FLOOR = 'floor: one crypto.hash(sha1) of the same input';
  const FEATUREFLOW = 'featureflow-node-sdk featureEvaluation';
  const medians = alternating(
    {
      [ENGINE]: { run: evaluating(server) },
      [FLOOR]: { run: (i) => hash('sha1', inputs[i % inputs.length]!, 'buffer') },
      [FEATUREFLOW]: { run: (i) => featureEvaluation(THREE_RULES, sdkUsers[i % sdkUsers.length]!) },
    },
    5,
    1500,
  );
  const [ours, floor, theirs] = [medians[ENGINE]!, medians[FLOOR]!, medians[FEATUREFLOW]!];
  console.log('');
  const nodeCrypto = createEvaluator({ sha1: (input) => hash('sha1', input, 'buffer') });
  rate('Vexil core evaluate (three rules), node:crypto SHA-1', evaluating(nodeCrypto), 3000);
  // The engine's own work: the same evaluations with a hash that costs nothing.
  const noHash = new Uint8Array(20);
  rate(
    'Vexil core evaluate (three rules), no hashing (engine alone)',
    evaluating(createEvaluator({ digest: () => noHash })),
    3000,
  );
  const browser = rate(
    'Vexil core evaluate (three rules), pure JS SHA-1 (browser)',
    evaluating(pureEvaluator),
    3000,
  );
  v8.setFlagsFromString('--wasm-tier-up --wasm-dynamic-tiering');
  console.log('');
  console.log('| figure | value | target |');
  console.log('|---|---|---|');
  console.log(
    `| engine (server) cost ÷ one bare SHA-1 | ${(floor / ours).toFixed(2)}× | ≤ 1.5× (${floor / ours <= 1.5 ? 'within' : '**over**'}) |`,
  );
  console.log(
    `| engine (server) ÷ featureflow-node-sdk | ${(ours / theirs).toFixed(1)}× | ≥ 10× (${ours / theirs >= 10 ? 'within' : '**under**'}) |`,
  );
  console.log(`| engine (browser) ÷ featureflow-node-sdk | ${(browser / theirs).toFixed(1)}× | — |`);
  console.log('\nThe first three rows: medians of five alternating rounds of 1.5 s each.');
}
