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
