import path from 'node:path';
import { fileURLToPath } from 'node:url';
import settings from './settings.json';

/**
 * How the server process runs: its Node flags and the C library allocator's variables, written once
 * in settings.json and read by everything that starts the server: `npm run serve` and `npm start`
 * (through command.mjs), the browser tests (e2e/support/server.ts) and the benchmarks
 * (bench/battery/product.ts, bench/memory.bench.ts). What the process then does with them inside
 * (WebAssembly compiled first, the embedded database's V8 flags, the idle collector) is process.ts.
 * `npm run bench -- sdk memory` gives every figure below:
 *
 * - `MALLOC_ARENA_MAX=2 MALLOC_TRIM_THRESHOLD_=131072 MALLOC_MMAP_THRESHOLD_=131072`: the C library's
 *   allocator (glibc; other systems ignore these variables) keeps at most two arenas instead of eight
 *   a core, and gives freed memory back past 128 KiB instead of a threshold that grows up to 64 MiB
 *   as large blocks are freed. Native memory freed after the SDK load rows (sockets, parsers, the
 *   embedded database's buffers) had stayed resident: with 10,000 SSE streams open after those rows,
 *   280 MiB with these settings, 303 without; after the whole bench 198 and 214; the SDK rows within
 *   their run-to-run spread.
 * - `--max-semi-space-size=4`: young-generation halves of at most 4 MiB instead of 16. Start-up's
 *   allocations grow them to their limit, which stays resident until V8's idle memory reducer shrinks
 *   them: at 16 MiB about 15 MiB of the idle server's memory. At 8 MiB, 200 flags evaluated for a new
 *   user on each JS client or OFREP request ran a tenth faster, but the idle server on PostgreSQL went
 *   past its 120 MiB target; the other SDK figures and event ingestion were the same at 4, 8 and 16.
 * - `--heap-growing-percent=50`: the old generation is collected when it reaches 1.5 times what the
 *   last full collection kept, instead of V8's own factor of up to 4: under the SDK load rows, garbage
 *   promoted from in-flight requests had grown the heap to 125 MiB used for 43 MiB live.
 * - `--gc-memory-reducer-start-delay-ms=1000`: V8's memory reducer makes its first check 1 s after
 *   start instead of 8, so that the garbage of migrations and the seed is returned before the server
 *   is first looked at idle. Its later checks still come 8 s after each full collection.
 * - `--expose-gc`: `gc` for the idle collector (lib/idle-collector.ts), which collects as soon as the
 *   event loop has been idle for a second after a burst grew the heap: the garbage of closing 10,000
 *   SSE streams was still resident 2 s later without it (resident memory after the SDK bench:
 *   323–326 MiB without it, 215–257 MiB with it).
 */

/** The repository root, where `npm run serve` runs. */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

/** The C library allocator's variables, which it reads when the process starts. */
export const ALLOCATOR_ENVIRONMENT: Readonly<Record<string, string>> = settings.environment;

/** Node's flags for the server. */
export const NODE_FLAGS: readonly string[] = settings.nodeFlags;

/** The compiled server (apps/server/build.mjs), from the repository root. */
export const COMPILED_SERVER: string = settings.server;

/**
 * The server as `npm run serve` runs it: Node's arguments (the flags, then the compiled server's
 * path from the repository root, which is the working directory to give it) and the environment
 * to add to the process's own.
 */
export function serveCommand(): { cwd: string; args: string[]; environment: Record<string, string> } {
  return { cwd: ROOT, args: [...NODE_FLAGS, COMPILED_SERVER], environment: { ...ALLOCATOR_ENVIRONMENT } };
}
