import { bearerTokenOf } from '@vexil/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { keyRefusal, sendAnswer, type KeyCheck } from './answers';
import type { EnvironmentSnapshot, SdkStore } from './sdk-store';

/** Takes every body as raw text: SDKs send JSON with any Content-Type, or none (docs/sdk-protocol.md §1). */
export function acceptAnyBody(app: FastifyInstance) {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string', bodyLimit: 5 * 1024 * 1024 }, (_request, body, done) => {
    done(null, body);
  });
}

/** The key of an `Authorization: Bearer <key>` header (any case of the scheme, as old docs write `bearer`), or null. */
export function bearerKeyOf(header: string | undefined): string | null {
  return bearerTokenOf(header);
}

/** The request's SDK key from its `Authorization` header, or null. */
export function bearerKey(request: FastifyRequest): string | null {
  return bearerKeyOf(request.headers.authorization);
}

/** Every SDK key the server issues has this shape (`newSdkKey` in lib/tokens.ts), whichever kind. */
const SDK_KEY_SHAPE = /^sdk-(srv|js)-env-[0-9a-f]{32}$/;

export type { KeyCheck } from './answers';

/**
 * Resolves an SDK key to its environment. 401/403 only when the key is really not one (SDKs mute
 * themselves for good on those, docs/sdk-protocol.md §4); a database failure is a 503, never a 401.
 */
export async function checkKey(
  store: SdkStore,
  key: string | null,
  kind: 'server' | 'js',
): Promise<KeyCheck> {
  if (!key) return { ok: false, status: 401, title: 'An SDK key is required.' };
  // Anything else cannot be a key: refused without a lookup, so junk (a NUL, say) never reaches SQL.
  if (!SDK_KEY_SHAPE.test(key)) return { ok: false, status: 401, title: 'Unknown SDK key.' };
  let snapshot: EnvironmentSnapshot | null;
  try {
    snapshot = await store.find(key);
  } catch {
    return { ok: false, status: 503, title: 'The SDK key could not be checked, please retry.' };
  }
  if (!snapshot) return { ok: false, status: 401, title: 'Unknown SDK key.' };
  const expected = kind === 'server' ? snapshot.keys.serverApiKey : snapshot.keys.jsApiKey;
  if (key !== expected) {
    return {
      ok: false,
      status: 403,
      title:
        kind === 'server'
          ? 'This endpoint needs the server SDK key.'
          : 'This endpoint needs the JS client SDK key.',
    };
  }
  return { ok: true, snapshot };
}

/**
 * The check of a key already in memory, without a lookup (the fast path, fast-path.ts), when it is
 * the right kind; null for anything else, which `checkKey` then answers.
 */
export function peekKey(store: SdkStore, key: string | null, kind: 'server' | 'js'): KeyCheck | null {
  if (!key) return null;
  const snapshot = store.peek(key);
  if (!snapshot) return null;
  const expected = kind === 'server' ? snapshot.keys.serverApiKey : snapshot.keys.jsApiKey;
  return key === expected ? { ok: true, snapshot } : null;
}

export function refuse(reply: FastifyReply, check: Extract<KeyCheck, { ok: false }>) {
  return sendAnswer(reply, keyRefusal(check));
}
