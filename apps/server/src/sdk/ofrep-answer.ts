import type { IncomingHttpHeaders } from 'node:http';
import type { EvaluationUser } from '@vexil/core';
import { isOfrepError, joinItems, ofrepItem, type OfrepEvaluating } from './answer-items';
import {
  bytesAnswer,
  JSON_TYPE,
  jsonAnswer,
  notModified,
  notModifiedAnswer,
  NOSNIFF,
  type Answering,
  type SdkAnswer,
} from './answers';
import { MAX_EVENTS_DEPTH, nestsDeeperThan, parseJsonBody } from './events';
import { bearerKeyOf, type KeyCheck } from './http';
import { etagOf, type EnvironmentSnapshot } from './sdk-store';

/** What every OFREP answer carries (ofrep.routes.ts adds them to its other answers too). */
export const CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'POST, OPTIONS',
  'access-control-allow-headers': 'Authorization, X-API-Key, Content-Type, If-None-Match',
  'access-control-expose-headers': 'ETag',
  'access-control-max-age': '86400',
  'cross-origin-resource-policy': 'cross-origin',
};

/** An evaluation's headers but its ETag and length. */
const OFREP_HEADERS = { ...NOSNIFF, ...CORS_HEADERS, 'content-type': JSON_TYPE };

type Context = Record<string, unknown>;

function userOf(context: Context): EvaluationUser {
  const { targetingKey, ...attributes } = context;
  return { id: typeof targetingKey === 'string' ? targetingKey : null, attributes };
}

function evaluatingOf(context: Context, now: Date): OfrepEvaluating {
  const hasTargetingKey = typeof context.targetingKey === 'string' && context.targetingKey !== '';
  return { user: userOf(context), hasTargetingKey, now };
}

/** The request's server SDK key: `Authorization: Bearer <key>`, else `X-API-Key`. */
export function ofrepKeyOf(headers: IncomingHttpHeaders): string | null {
  const header = headers['x-api-key'];
  return bearerKeyOf(headers.authorization) ?? (typeof header === 'string' && header !== '' ? header : null);
}

function readContext(
  body: unknown,
): { ok: true; context: Context } | { ok: false; code: string; details: string } {
  const json = parseJsonBody(body);
  if (!json.ok)
    return { ok: false, code: 'PARSE_ERROR', details: json.message.replace('a JSON array', 'a JSON object') };
  const value = json.value as { context?: unknown } | null;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, code: 'PARSE_ERROR', details: 'The body must be a JSON object with a context.' };
  }
  const context = value.context ?? {};
  if (typeof context !== 'object' || context === null || Array.isArray(context)) {
    return { ok: false, code: 'INVALID_CONTEXT', details: 'The context must be a JSON object.' };
  }
  // JSON nested thousands deep would overflow the stack of whatever walks it next.
  if (nestsDeeperThan(context, MAX_EVENTS_DEPTH)) {
    return {
      ok: false,
      code: 'INVALID_CONTEXT',
      details: `The context nests deeper than ${MAX_EVENTS_DEPTH} levels.`,
    };
  }
  return { ok: true, context: context as Context };
}

/** Why OFREP refused a request's key (docs/sdk-protocol.md part B). */
export const OFREP_KEY_REQUIRED =
  'An API key is required: send the environment’s server SDK key as Authorization: Bearer <key> or X-API-Key.';
export const OFREP_KEY_INVALID =
  'The API key is not valid: it is not the server SDK key of any environment (it may have been rotated, or its environment deleted).';
export const OFREP_JS_KEY =
  'A JS client key cannot evaluate flags over OFREP: use the environment’s server SDK key.';

/**
 * A refused key in OFREP's failure shape (`errorCode` GENERAL, with `key` on the single-flag
 * endpoint) with a message saying what is wrong with the key; a 503 says when to retry.
 */
function ofrepRefusal(
  check: Extract<KeyCheck, { ok: false }>,
  key: string | null,
  flagKey?: string,
): SdkAnswer {
  if (check.status === 503)
    return jsonAnswer(503, { errorDetails: check.title }, { ...CORS_HEADERS, 'retry-after': '5' });
  const errorDetails =
    check.status === 403 ? OFREP_JS_KEY : key === null ? OFREP_KEY_REQUIRED : OFREP_KEY_INVALID;
  const body =
    flagKey === undefined
      ? { errorCode: 'GENERAL', errorDetails }
      : { key: flagKey, errorCode: 'GENERAL', errorDetails };
  return jsonAnswer(check.status, body, CORS_HEADERS);
}

type Bulk = { ok: true; body: Buffer; etag: string } | { ok: false; code: string; details: string };

/**
 * The bulk evaluation for a request body. It is a function of the payload and the body, unless a
 * rule reads the clock (sdk-store.ts `ClockUse`): then it is computed afresh each time; otherwise it
 * is kept in the store's answer cache the second time it is asked.
 *
 * The ETag changes whenever the answer does, and two contexts share one only if their answers are
 * equal. For an answer that depends only on the payload and the body, it hashes those two (a few
 * hundred bytes, where the answer is some 120 bytes a flag); for one that reads the clock, the
 * answer itself.
 */
function bulk({ store, evaluator, now }: Answering, snapshot: EnvironmentSnapshot, body: unknown): Bulk {
  const raw = typeof body === 'string' ? body : null;
  const cacheable = raw !== null && !snapshot.readsClock.server;
  const input = `ofrep ${raw}`;
  const cached = cacheable ? store.answers.get(snapshot.etag, input) : undefined;
  if (cached) return { ok: true, body: cached.body, etag: cached.etag! };
  const read = readContext(body);
  if (!read.ok) return read;
  const at = evaluatingOf(read.context, now());
  const flags: Buffer[] = [];
  for (const entry of snapshot.controls.values()) flags.push(ofrepItem(evaluator, entry, at));
  const version = JSON.stringify(snapshot.etag.slice(1, -1));
  const answer = joinItems('{"flags":[', flags, `],"metadata":{"version":${version}}}`);
  const etag = cacheable ? etagOf(`${snapshot.etag}\u0000${raw}`) : etagOf(answer);
  if (cacheable && store.answers.admit(snapshot.etag, input))
    store.answers.set(snapshot.etag, input, { body: answer, etag });
  return { ok: true, body: answer, etag };
}

/** An OFREP request's facts: its key as sent (null for none), its body as text, its `If-None-Match`. */
export type OfrepRequest = { key: string | null; body: unknown; ifNoneMatch?: string | string[] };

/**
 * `POST /ofrep/v1/evaluate/flags` (docs/sdk-protocol.md part B): every flag for the body's context,
 * with an ETag, or a 304 when `If-None-Match` has it; a body that is not a context is a 400.
 */
export function ofrepBulkAnswer(answering: Answering, check: KeyCheck, request: OfrepRequest): SdkAnswer {
  if (!check.ok) return ofrepRefusal(check, request.key);
  const answer = bulk(answering, check.snapshot, request.body);
  if (!answer.ok)
    return jsonAnswer(400, { errorCode: answer.code, errorDetails: answer.details }, CORS_HEADERS);
  const { etag } = answer;
  if (notModified(request.ifNoneMatch, etag)) return notModifiedAnswer({ ...NOSNIFF, ...CORS_HEADERS, etag });
  return bytesAnswer(200, { ...OFREP_HEADERS, etag }, answer.body);
}

/**
 * `POST /ofrep/v1/evaluate/flags/{flag}`: one flag for the body's context; 404 for a flag the
 * environment does not have, 400 for a body that is not a context or a split without a targeting key.
 */
export function ofrepFlagAnswer(
  { evaluator, now }: Answering,
  check: KeyCheck,
  request: OfrepRequest & { flagKey: string },
): SdkAnswer {
  const { flagKey } = request;
  if (!check.ok) return ofrepRefusal(check, request.key, flagKey);
  const read = readContext(request.body);
  if (!read.ok)
    return jsonAnswer(400, { key: flagKey, errorCode: read.code, errorDetails: read.details }, CORS_HEADERS);
  const entry = check.snapshot.controls.get(flagKey);
  if (!entry) {
    const errorDetails = `No flag "${flagKey}" in this environment.`;
    return jsonAnswer(404, { key: flagKey, errorCode: 'FLAG_NOT_FOUND', errorDetails }, CORS_HEADERS);
  }
  const item = ofrepItem(evaluator, entry, evaluatingOf(read.context, now()));
  return bytesAnswer(isOfrepError(entry, item) ? 400 : 200, OFREP_HEADERS, item);
}
