import { hash } from 'node:crypto';
import { useSha1, type Sha1 } from '@vexil/core';

/**
 * node:crypto's one-shot SHA-1 of a string's UTF-8 bytes: what the engine's bucketing hashes on every
 * split evaluation, about three times faster here than the pure JavaScript one core carries for the
 * browser (`npm run bench -- engine`).
 */
export const nodeSha1: Sha1 = (input) => hash('sha1', input, 'buffer');

/** The server evaluates with node:crypto's SHA-1 (same digests, tested in sha1.test.ts). */
export function useNodeSha1(): void {
  useSha1(nodeSha1);
}
