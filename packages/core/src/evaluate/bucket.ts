import { sha1 } from '@noble/hashes/legacy.js';
import { utf8ToBytes } from '@noble/hashes/utils.js';

/** Every SDK hard-codes this salt (only Java reads `salt`, defaulting to it): docs/sdk-protocol.md §8. */
export const DEFAULT_SALT = '1';
/** Stands in for an empty user id, as the Node SDK does (docs/sdk-protocol.md §9.1 step 5). */
export const ANONYMOUS_USER_ID = 'anonymous';

const HEX = '0123456789abcdef';

/** A SHA-1 of a string's UTF-8 bytes, as its 20-byte digest. */
export type Sha1 = (input: string) => Uint8Array;

/**
 * The SHA-1 digest of `salt:featureKey:userId` (UTF-8). The parts come apart so that a hash can
 * read them without joining them into a new string first.
 */
export type KeyDigest = (salt: string, featureKey: string, userId: string) => ArrayLike<number>;

/** A `KeyDigest` from a hash of the joined text `salt:featureKey:userId`. */
export const keyDigestOf =
  (hash: Sha1): KeyDigest =>
  (salt, featureKey, userId) =>
    hash(`${salt}:${featureKey}:${userId}`);

/**
 * Core's pure JavaScript SHA-1, which the browser uses; the server gives its evaluator a faster one
 * (`createEvaluator` in evaluator.ts; docs/adr/0004-core-dependencies-for-evaluation.md).
 */
export const pureKeyDigest: KeyDigest = keyDigestOf((input) => sha1(utf8ToBytes(input)));

/**
 * The bucket 1..100 of a user for a feature (docs/sdk-protocol.md §9.1): sha1 of `salt:featureKey:userId`,
 * the first 15 hex digits (60 bits) as an integer, mod 100, plus 1. Computed on the digest's
 * bytes: 60 bits do not fit a double, so the value is reduced mod 100 as it is read.
 */
export function bucketWith(digestOf: KeyDigest, salt: string, featureKey: string, userId: string): number {
  const digest = digestOf(salt, featureKey, userId);
  let remainder = 0;
  // 15 hex digits = 7 whole bytes and the high nibble of the 8th.
  for (let i = 0; i < 7; i++) remainder = (remainder * 256 + digest[i]!) % 100;
  remainder = (remainder * 16 + (digest[7]! >> 4)) % 100;
  return remainder + 1;
}

/** The 15-hex-digit prefix the bucket is read from (for test vectors and debugging). */
export function bucketPrefixWith(
  digestOf: KeyDigest,
  salt: string,
  featureKey: string,
  userId: string,
): string {
  const digest = digestOf(salt, featureKey, userId);
  let hex = '';
  for (let i = 0; i < 8; i++) hex += HEX[digest[i]! >> 4]! + HEX[digest[i]! & 15]!;
  return hex.slice(0, 15);
}
