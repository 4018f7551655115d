import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/*
 * The OAuth state of a chat-service install (docs/adr/0017-integrations-and-outgoing-requests.md):
 *
 *   base64url(JSON {o: organisation id, u: user id, n: nonce, x: expiry in epoch seconds}) "." base64url(HMAC-SHA256)
 *
 * signed with a key derived from SECRETS_KEY (SecretBox.derivedKey), so a state cannot be forged or
 * altered (another organisation, another user, a later expiry). The nonce's SHA-256 is also stored when
 * the state is issued and deleted when it is used, so a state works once.
 */

export type StateClaims = { organisationId: string; userId: string; nonce: string; expiresAt: Date };

/** Why a state is refused. */
export type StateRefusal = 'invalid' | 'expired';

function mac(key: Buffer, payload: string): Buffer {
  return createHmac('sha256', key).update(payload, 'utf8').digest();
}

/** A new state for `organisationId` and `userId`, valid until `expiresAt`, with a fresh nonce. */
export function signState(key: Buffer, claims: Omit<StateClaims, 'nonce'>): { state: string; nonce: string } {
  const nonce = randomBytes(24).toString('base64url');
  const payload = Buffer.from(
    JSON.stringify({
      o: claims.organisationId,
      u: claims.userId,
      n: nonce,
      x: Math.floor(claims.expiresAt.getTime() / 1000),
    }),
    'utf8',
  ).toString('base64url');
  return { state: `${payload}.${mac(key, payload).toString('base64url')}`, nonce };
}

/** The claims of a state this key signed and that has not expired at `now`, or why not. */
export function verifyState(key: Buffer, state: string, now: Date): StateClaims | StateRefusal {
  const parts = state.split('.');
  if (parts.length !== 2 || !parts[0] || !parts[1]) return 'invalid';
  const [payload, signature] = parts as [string, string];
  const expected = mac(key, payload);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'invalid';
  let claims: { o?: unknown; u?: unknown; n?: unknown; x?: unknown };
  try {
    claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as typeof claims;
  } catch {
    return 'invalid';
  }
  if (
    typeof claims.o !== 'string' ||
    typeof claims.u !== 'string' ||
    typeof claims.n !== 'string' ||
    typeof claims.x !== 'number'
  )
    return 'invalid';
  const expiresAt = new Date(claims.x * 1000);
  if (expiresAt.getTime() <= now.getTime()) return 'expired';
  return { organisationId: claims.o, userId: claims.u, nonce: claims.n, expiresAt };
}
