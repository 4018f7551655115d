import { createSHA1 } from 'hash-wasm';
import { useSha1, type Sha1 } from '@vexil/core';

/**
 * The server's SHA-1 for bucketing: hash-wasm's WebAssembly SHA-1, one instance reused for every
 * digest (init, update, digest: synchronous, so no two digests interleave on the one thread). The
 * engine hashes on three evaluations in four; the hash is nearly all of an evaluation's cost, and this
 * one costs about 0.45 µs here where node:crypto's one-shot `hash` costs about 0.75 µs, most of it the
 * call into C++, and core's pure JavaScript one (kept for the browser) 1.5 µs or more
 * (`npm run bench -- engine`; docs/adr/0004-core-dependencies-for-evaluation.md).
 */
export async function createServerSha1(): Promise<Sha1> {
  const hasher = await createSHA1();
  return (input) => {
    hasher.init();
    hasher.update(input);
    return hasher.digest('binary');
  };
}

/** The server evaluates with the WebAssembly SHA-1 (same digests as core's, tested in sha1.test.ts). */
export async function useServerSha1(): Promise<void> {
  useSha1(await createServerSha1());
}
