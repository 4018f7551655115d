import v8 from 'node:v8';
import { PGLITE_V8_FLAGS } from '../db/client';
import { compactingCollection, startIdleCollector, type Collection } from '../lib/idle-collector';
import { serverEvaluator } from '../lib/sha1';

/**
 * What the server process does with its runtime settings once it runs (settings.ts has those it
 * starts with), in this order (main.ts):
 *
 * 1. `warmUpWebAssembly`: the SHA-1 for bucketing (lib/sha1.ts) is compiled, before
 * 2. `useEmbeddedDatabaseFlags`: the embedded database's V8 flags (`PGLITE_V8_FLAGS` in db/client.ts),
 *    which keep every WebAssembly module compiled after them on V8's baseline compiler: PostgreSQL's,
 *    as wanted, and the SHA-1 too, which would then cost about four times as much. On PostgreSQL the
 *    flags are not set.
 * 3. `startCollector`: the idle collector (lib/idle-collector.ts), with the `gc` that `--expose-gc`
 *    gives (without it, as under `npm run dev` and the tests, it does not start).
 */

export async function warmUpWebAssembly(): Promise<void> {
  await serverEvaluator();
}

export function useEmbeddedDatabaseFlags(): void {
  v8.setFlagsFromString(PGLITE_V8_FLAGS.join(' '));
}

/** Starts the idle collector; returns its stop function. `onCollect` hears of each collection. */
export function startCollector(onCollect: (collection: Collection) => void): () => void {
  return startIdleCollector(compactingCollection(globalThis.gc), onCollect);
}
