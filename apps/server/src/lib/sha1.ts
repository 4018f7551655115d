import { createSHA1 } from 'hash-wasm';
import { createEvaluator, type Evaluator, type KeyDigest } from '@vexil/core';

/** Inputs up to this many bytes are written into one reused buffer; longer ones go as text. */
const SCRATCH_BYTES = 1024;

/**
 * The server's SHA-1 for bucketing: hash-wasm's WebAssembly SHA-1, one instance reused for every
 * digest (init, update, digest: synchronous, so no two digests interleave on the one thread). The
 * engine hashes on three evaluations in four, and the hash is most of an evaluation's cost: this
 * one costs about 0.5 µs here where node:crypto's one-shot `hash` costs about 0.9 µs, most of it the
 * call into C++, and core's pure JavaScript one (kept for the browser) 1.5 µs or more
 * (`npm run bench -- engine`; docs/adr/0004-core-dependencies-for-evaluation.md).
 *
 * `salt:featureKey:userId` is nearly always ASCII and short: its characters are then copied into a
 * reused buffer as its UTF-8 bytes, without joining the parts into a new string and encoding that
 * (about a fifth of the cost). Anything else (a character past U+007F, a long id) is joined and
 * handed to the hash as text, which encodes it as UTF-8 (a lone surrogate as U+FFFD, as
 * node:crypto does).
 */
export async function createServerKeyDigest(): Promise<KeyDigest> {
  const hasher = await createSHA1();
  const scratch = new Uint8Array(SCRATCH_BYTES);
  // The view of the first `n` bytes, made once per length: a new one per digest would be garbage
  // (about a quarter of what a digest allocates, which the server pays for in collections).
  const views: Uint8Array[] = [];
  const firstBytes = (n: number) => (views[n] ??= scratch.subarray(0, n));
  const COLON = 0x3a;
  /** Copies an ASCII text at `at`; the end, or -1 when `at` is -1, a character is not ASCII or it does not fit. */
  const copyAscii = (text: string, at: number): number => {
    const end = at + text.length;
    if (at < 0 || end > SCRATCH_BYTES) return -1;
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (code > 0x7f) return -1;
      scratch[at + i] = code;
    }
    return end;
  };
  /** A colon at `at`, then the text (as `copyAscii`). */
  const copyAfterColon = (text: string, at: number): number => {
    if (at < 0 || at >= SCRATCH_BYTES) return -1;
    scratch[at] = COLON;
    return copyAscii(text, at + 1);
  };
  return (salt, featureKey, userId) => {
    hasher.init();
    const end = copyAfterColon(userId, copyAfterColon(featureKey, copyAscii(salt, 0)));
    hasher.update(end >= 0 ? firstBytes(end) : `${salt}:${featureKey}:${userId}`);
    return hasher.digest('binary');
  };
}

let evaluator: Promise<Evaluator> | undefined;

/**
 * The server's evaluator, bucketing with the WebAssembly SHA-1 (same digests as core's, tested in
 * sha1.test.ts). Its module is compiled by the first call, and only once: main.ts calls this before
 * it sets the embedded database's V8 flags (`PGLITE_V8_FLAGS`), under which WebAssembly compiled
 * afterwards never leaves V8's baseline compiler, and this hash would cost about four times as much.
 */
export function serverEvaluator(): Promise<Evaluator> {
  evaluator ??= createServerKeyDigest().then((digest) => createEvaluator({ digest }));
  return evaluator;
}
