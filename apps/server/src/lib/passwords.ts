import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { promisify } from 'node:util';

const scrypt = promisify(scryptCb) as (
  password: string,
  salt: Buffer,
  keylen: number,
  options: ScryptOptions,
) => Promise<Buffer>;

export type HashCost = 'standard' | 'test';

/**
 * OWASP Password Storage Cheat Sheet: scrypt N=2^17, r=8, p=1 (128 MiB).
 * The test cost exists only so suites that create many users stay fast; it is chosen by config.
 */
const COSTS: Record<HashCost, { N: number; r: number; p: number }> = {
  standard: { N: 2 ** 17, r: 8, p: 1 },
  test: { N: 2 ** 10, r: 8, p: 1 },
};
const KEY_LENGTH = 32;

function maxmem(N: number, r: number): number {
  return 128 * N * r * 2;
}

/** Encodes as `scrypt$N$r$p$salt$hash` so parameters can be raised without breaking old hashes. */
export async function hashPassword(password: string, cost: HashCost = 'standard'): Promise<string> {
  const { N, r, p } = COSTS[cost];
  const salt = randomBytes(16);
  const hash = await scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, { N, r, p, maxmem: maxmem(N, r) });
  return ['scrypt', N, r, p, salt.toString('base64url'), hash.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, encoded: string): Promise<boolean> {
  const parts = encoded.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [, n, r, p, saltText, hashText] = parts as [string, string, string, string, string, string];
  const N = Number(n);
  const R = Number(r);
  const P = Number(p);
  if (![N, R, P].every((v) => Number.isInteger(v) && v > 0)) return false;
  const expected = Buffer.from(hashText, 'base64url');
  const actual = await scrypt(
    password.normalize('NFKC'),
    Buffer.from(saltText, 'base64url'),
    expected.length,
    {
      N,
      r: R,
      p: P,
      maxmem: maxmem(N, R),
    },
  );
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** Burns the same time as a real check, so an unknown account cannot be told apart by timing. */
export async function verifyDummyPassword(password: string, cost: HashCost): Promise<void> {
  const { N, r, p } = COSTS[cost];
  await scrypt(password.normalize('NFKC'), randomBytes(16), KEY_LENGTH, { N, r, p, maxmem: maxmem(N, r) });
}
