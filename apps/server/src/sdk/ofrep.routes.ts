import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { EvaluationUser } from '@vexil/core';
import { isOfrepError, joinItems, ofrepItem, type OfrepEvaluating } from './answer-items';
import { MAX_EVENTS_DEPTH, nestsDeeperThan, parseJsonBody } from './events';
import { acceptAnyBody, bearerKeyOf, checkKey } from './http';
import { etagOf, type EnvironmentSnapshot, type SdkStore } from './sdk-store';

export const CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'POST, OPTIONS',
  'access-control-allow-headers': 'Authorization, X-API-Key, Content-Type, If-None-Match',
  'access-control-expose-headers': 'ETag',
  'access-control-max-age': '86400',
  'cross-origin-resource-policy': 'cross-origin',
};

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

/** What Fastify makes of `application/json` for a string or an object; said once for a Buffer too. */
export const JSON_TYPE = 'application/json; charset=utf-8';

/** A non-empty `If-None-Match` equal to the answer's ETag. */
export function notModified(ifNoneMatch: string | string[] | undefined, etag: string): boolean {
  return typeof ifNoneMatch === 'string' && ifNoneMatch !== '' && ifNoneMatch === etag;
}

export type BulkAnswer =
  { ok: true; body: Buffer; etag: string } | { ok: false; code: string; details: string };

/**
 * The bulk answer for a request body (docs/sdk-protocol.md part B): the route's and the fast path's
 * (fast-path.ts). It is a function of the payload and the body, unless a rule reads the clock
 * (sdk-store.ts `ClockUse`): then it is computed afresh each time; otherwise it is kept in the store's
 * answer cache the second time it is asked.
 *
 * The ETag changes whenever the answer does, and two contexts share one only if their answers are
 * equal. For an answer that depends only on the payload and the body, it hashes those two (a few
 * hundred bytes, where the answer is some 120 bytes a flag); for one that reads the clock, the
 * answer itself.
 */
export function bulkAnswer(
  store: SdkStore,
  snapshot: EnvironmentSnapshot,
  body: unknown,
  now: () => Date,
): BulkAnswer {
  const raw = typeof body === 'string' ? body : null;
  const cacheable = raw !== null && !snapshot.readsClock.server;
  const input = `ofrep ${raw}`;
  const cached = cacheable ? store.answers.get(snapshot.etag, input) : undefined;
  if (cached) return { ok: true, body: cached.body, etag: cached.etag! };
  const read = readContext(body);
  if (!read.ok) return read;
  const at = evaluatingOf(read.context, now());
  const flags: Buffer[] = [];
  for (const entry of snapshot.controls.values()) flags.push(ofrepItem(entry, at));
  const version = JSON.stringify(snapshot.etag.slice(1, -1));
  const answer = joinItems('{"flags":[', flags, `],"metadata":{"version":${version}}}`);
  const etag = cacheable ? etagOf(`${snapshot.etag}\u0000${raw}`) : etagOf(answer);
  if (cacheable && store.answers.admit(snapshot.etag, input))
    store.answers.set(snapshot.etag, input, { body: answer, etag });
  return { ok: true, body: answer, etag };
}

/** Why OFREP refused a request's key (docs/sdk-protocol.md part B). */
export const OFREP_KEY_REQUIRED =
  'An API key is required: send the environment’s server SDK key as Authorization: Bearer <key> or X-API-Key.';
export const OFREP_KEY_INVALID =
  'The API key is not valid: it is not the server SDK key of any environment (it may have been rotated, or its environment deleted).';
export const OFREP_JS_KEY =
  'A JS client key cannot evaluate flags over OFREP: use the environment’s server SDK key.';

/**
 * Checks the request's key; on refusal answers and returns null. A 401 or 403 answers OFREP's failure
 * shape (`errorCode` GENERAL, with `key` on the single-flag endpoint) with a message saying what is
 * wrong with the key; a 503 says when to retry. The fast path (fast-path.ts) leaves refusals to here.
 */
async function authenticate(store: SdkStore, request: FastifyRequest, reply: FastifyReply, flagKey?: string) {
  const key = ofrepKeyOf(request.headers);
  const check = await checkKey(store, key, 'server');
  if (check.ok) return check.snapshot;
  if (check.status === 503) {
    reply.header('retry-after', '5').code(503).type('application/json').send({ errorDetails: check.title });
    return null;
  }
  const errorDetails =
    check.status === 403 ? OFREP_JS_KEY : key === null ? OFREP_KEY_REQUIRED : OFREP_KEY_INVALID;
  reply
    .code(check.status)
    .type('application/json')
    .send(
      flagKey === undefined
        ? { errorCode: 'GENERAL', errorDetails }
        : { key: flagKey, errorCode: 'GENERAL', errorDetails },
    );
  return null;
}

/** OpenFeature Remote Evaluation Protocol (docs/sdk-protocol.md part B), keyed by the server SDK key. */
export function ofrepRoutes(deps: { store: SdkStore; now: () => Date }): FastifyPluginAsync {
  const { store, now } = deps;
  return async (app) => {
    acceptAnyBody(app);
    app.addHook('onSend', (_request, reply, payload, done) => {
      reply.headers(CORS_HEADERS);
      done(null, payload);
    });

    app.options('/ofrep/v1/*', { schema: { hide: true } }, async (_request, reply) => reply.code(204).send());

    app.post<{ Params: { key: string } }>(
      '/ofrep/v1/evaluate/flags/:key',
      { schema: { hide: true } },
      async (request, reply) => {
        const key = request.params.key;
        const snapshot = await authenticate(store, request, reply, key);
        if (!snapshot) return reply;
        const read = readContext(request.body);
        if (!read.ok)
          return reply
            .code(400)
            .type('application/json')
            .send({ key, errorCode: read.code, errorDetails: read.details });
        const entry = snapshot.controls.get(key);
        if (!entry) {
          return reply
            .code(404)
            .type('application/json')
            .send({
              key,
              errorCode: 'FLAG_NOT_FOUND',
              errorDetails: `No flag "${key}" in this environment.`,
            });
        }
        const item = ofrepItem(entry, evaluatingOf(read.context, now()));
        return reply
          .code(isOfrepError(entry, item) ? 400 : 200)
          .type(JSON_TYPE)
          .send(item);
      },
    );

    app.post('/ofrep/v1/evaluate/flags', { schema: { hide: true } }, async (request, reply) => {
      const snapshot: EnvironmentSnapshot | null = await authenticate(store, request, reply);
      if (!snapshot) return reply;
      const answer = bulkAnswer(store, snapshot, request.body, now);
      if (!answer.ok)
        return reply
          .code(400)
          .type('application/json')
          .send({ errorCode: answer.code, errorDetails: answer.details });
      reply.header('etag', answer.etag);
      if (notModified(request.headers['if-none-match'], answer.etag)) return reply.code(304).send();
      return reply.code(200).type(JSON_TYPE).send(answer.body);
    });
  };
}
