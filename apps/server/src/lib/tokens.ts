import { createHash, randomBytes } from 'node:crypto';

/** 256 random bits, base64url; the prefix lets secret scanners recognise a leaked token. */
export function newSecretToken(prefix: string): string {
  return `${prefix}${randomBytes(32).toString('base64url')}`;
}

/** Tokens are stored only as SHA-256: they are high-entropy, so no slow hash is needed. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** SDK keys as the Featureflow SDKs expect them: `sdk-srv-env-<32 hex>` / `sdk-js-env-<32 hex>` (128 bits). */
export function newSdkKey(kind: 'server' | 'js'): string {
  return `${kind === 'server' ? 'sdk-srv-env-' : 'sdk-js-env-'}${randomBytes(16).toString('hex')}`;
}

export const TOKEN_PREFIX = {
  session: 'vxs_',
  oneTime: 'vxo_',
  personalAccess: 'vxp_',
} as const;

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** 43 base62 characters carry 256 bits (62^43 > 2^256). */
const ACCESS_TOKEN_SECRET_LENGTH = 43;

/** The whole shape of a personal access token: anything else is refused before any look-up. */
export const ACCESS_TOKEN_PATTERN = new RegExp(
  `^${TOKEN_PREFIX.personalAccess}[0-9A-Za-z]{${ACCESS_TOKEN_SECRET_LENGTH}}$`,
);

/** `count` uniformly random base62 characters: bytes of 248 and above are dropped, so none is favoured. */
function randomBase62(count: number): string {
  let out = '';
  while (out.length < count) {
    for (const byte of randomBytes(count * 2)) {
      if (byte < 248) out += BASE62[byte % 62];
      if (out.length === count) break;
    }
  }
  return out;
}

/**
 * A new personal access token, `vxp_` and 256 random bits in base62: one word (a double-click selects
 * it whole), safe in a header or a shell, and recognisable by its prefix to secret scanners.
 */
export function newAccessToken(): string {
  return `${TOKEN_PREFIX.personalAccess}${randomBase62(ACCESS_TOKEN_SECRET_LENGTH)}`;
}

/** The parts of a token that may be kept and shown: its scheme prefix and its last four characters. */
export function accessTokenDisplayParts(token: string): { prefix: string; lastFour: string } {
  return { prefix: TOKEN_PREFIX.personalAccess, lastFour: token.slice(-4) };
}

/** What lists show of a token: `vxp_…a1B2`. */
export function maskedAccessToken(parts: { prefix: string; lastFour: string }): string {
  return `${parts.prefix}…${parts.lastFour}`;
}
