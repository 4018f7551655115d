import type { EvaluationUser } from '@vexil/core';
import { jsItem, joinItems } from './answer-items';
import { bytesAnswer, jsonAnswer, keyRefusal, NOSNIFF, type Answering, type SdkAnswer } from './answers';
import type { KeyCheck } from './answers';
import type { EnvironmentSnapshot } from './sdk-store';

/** Byte-exact: JS 1.x and 2.x compare this string (docs/sdk-protocol.md §6.1). */
export const JS_CONTENT_TYPE = 'application/json;charset=UTF-8';

/** What every answer of the JS client's endpoints carries, a refusal's too. */
export const JS_CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, OPTIONS',
  'access-control-allow-headers': 'X-Featureflow-Client, X-Featureflow-Application, Content-Type',
  'access-control-max-age': '86400',
  'cross-origin-resource-policy': 'cross-origin',
};

/** The JS client's answer's headers, but its length. */
const CLIENT_HEADERS = {
  ...NOSNIFF,
  ...JS_CORS_HEADERS,
  'content-type': JS_CONTENT_TYPE,
  'cache-control': 'no-cache',
};

const utf8 = new TextDecoder('utf-8', { fatal: true });

const NOT_A_USER = 'The user segment is not base64 of a user JSON object.';

/**
 * The user segment: base64 of the user JSON in either alphabet, padded or not; UTF-8 when it is
 * valid, else latin1 (JS 2.x sends char codes mod 256). Null when it is not a user.
 */
export function decodeUser(segment: string): EvaluationUser | null {
  if (segment === '' || segment.length > 16_384 || !/^[A-Za-z0-9+/_=-]+$/.test(segment)) return null;
  const bytes = Buffer.from(segment, 'base64');
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    text = bytes.toString('latin1');
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return null;
  const { id, attributes } = parsed as { id?: unknown; attributes?: unknown };
  const validAttributes = typeof attributes === 'object' && attributes !== null && !Array.isArray(attributes);
  return {
    id: typeof id === 'string' || typeof id === 'number' ? String(id) : null,
    attributes: validAttributes ? (attributes as Record<string, unknown>) : {},
  };
}

/**
 * The feature keys of `?keys=`, which some clients encode twice; undefined when the second decoding
 * fails (a lone `%`), which is a bad request rather than an error of ours.
 */
function wantedKeys(keys: string): Set<string> | undefined {
  try {
    return new Set(
      decodeURIComponent(keys)
        .split(',')
        .map((k) => k.trim()),
    );
  } catch {
    return undefined;
  }
}

/**
 * What follows `/user/` in a request's path, as sent: the router would read `//` in it as one `/`,
 * and the standard base64 alphabet has `/` (JS 2.x's latin1 bytes `?ü` give `//`). Percent-escapes
 * are decoded; null when one cannot be. `at` is where `/user/` starts, when the caller knows.
 */
export function userSegmentOf(url: string, at = url.search(/\/user\//i)): string | null {
  const query = url.indexOf('?');
  const path = query === -1 ? url : url.slice(0, query);
  const segment = at === -1 ? '' : path.slice(at + '/user/'.length);
  if (!segment.includes('%')) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

/**
 * The body of the JS client's answer for a user segment and a `keys` parameter, or why there is
 * none. It is a function of the payload and these two inputs, unless a rule the server evaluates
 * reads the clock (sdk-store.ts `ClockUse`): then it is computed afresh each time; otherwise it is
 * kept in the store's answer cache the second time it is asked.
 */
function clientBody(
  { store, evaluator, now }: Answering,
  snapshot: EnvironmentSnapshot,
  segment: string | null,
  keys: string,
): { ok: true; body: Buffer } | { ok: false; title: string } {
  if (segment === null) return { ok: false, title: NOT_A_USER };
  const cacheable = !snapshot.readsClock.client;
  const input = `js ${keys.length}:${keys}${segment}`;
  const cached = cacheable ? store.answers.get(snapshot.etag, input) : undefined;
  if (cached) return { ok: true, body: cached.body };
  const user = decodeUser(segment);
  if (!user) return { ok: false, title: NOT_A_USER };
  const wanted = keys !== '' ? wantedKeys(keys) : null;
  if (wanted === undefined)
    return { ok: false, title: 'The keys parameter is not a comma-separated list of feature keys.' };
  const at = now();
  const items: Buffer[] = [];
  for (const entry of snapshot.controls.values()) {
    if (!entry.control.inClientApi || (wanted && !wanted.has(entry.control.key))) continue;
    items.push(jsItem(evaluator, entry, user, at));
  }
  const body = joinItems('{', items, '}');
  if (cacheable && store.answers.admit(snapshot.etag, input))
    store.answers.set(snapshot.etag, input, { body });
  return { ok: true, body };
}

/**
 * `GET /api/js/v1/evaluate/{key}/user/{user}` (docs/sdk-protocol.md §6.1): the user segment as sent
 * (`userSegmentOf`, null when it cannot be decoded) and the `keys` parameter ('' for none). Every
 * answer carries CORS's headers, a refusal's too.
 */
export function clientEvaluateAnswer(
  answering: Answering,
  check: KeyCheck,
  request: { segment: string | null; keys: string },
): SdkAnswer {
  if (!check.ok) return keyRefusal(check, JS_CORS_HEADERS);
  const answer = clientBody(answering, check.snapshot, request.segment, request.keys);
  if (!answer.ok) return jsonAnswer(400, { title: answer.title }, JS_CORS_HEADERS);
  return bytesAnswer(200, CLIENT_HEADERS, answer.body);
}
