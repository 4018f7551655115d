import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { EvaluationUser } from '@vexil/core';
import { jsItem, joinItems } from './answer-items';
import { answerOf, readEvents, sendEventsAnswer } from './events';
import { acceptAnyBody, checkKey, refuse } from './http';
import type { Ingestion } from './ingestion';
import type { EnvironmentSnapshot, SdkStore } from './sdk-store';

/** Byte-exact: JS 1.x and 2.x compare this string (docs/sdk-protocol.md §6.1). */
export const JS_CONTENT_TYPE = 'application/json;charset=UTF-8';

const CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, OPTIONS',
  'access-control-allow-headers': 'X-Featureflow-Client, X-Featureflow-Application, Content-Type',
  'access-control-max-age': '86400',
  'cross-origin-resource-policy': 'cross-origin',
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

function sendAnswer(reply: FastifyReply, body: Buffer) {
  return reply
    .code(200)
    .header('content-type', JS_CONTENT_TYPE)
    .header('cache-control', 'no-cache')
    .send(body);
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

/** The JS client answer's headers, CORS's included (the SDK surface adds `nosniff` to every answer). */
export const CLIENT_ANSWER_HEADERS = {
  ...CORS_HEADERS,
  'content-type': JS_CONTENT_TYPE,
  'cache-control': 'no-cache',
};

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

export type ClientAnswer = { ok: true; body: Buffer } | { ok: false; title: string };

/**
 * The JS client's answer for a user segment and a `keys` parameter (docs/sdk-protocol.md §6.1): the
 * route's and the fast path's (fast-path.ts). It is a function of the payload and these two inputs,
 * unless a rule the server evaluates reads the clock (sdk-store.ts `ClockUse`): then it is computed
 * afresh each time; otherwise it is kept in the store's answer cache the second time it is asked.
 */
export function clientAnswer(
  store: SdkStore,
  snapshot: EnvironmentSnapshot,
  segment: string | null,
  keys: string,
  now: () => Date,
): ClientAnswer {
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
    items.push(jsItem(entry, user, at));
  }
  const body = joinItems('{', items, '}');
  if (cacheable && store.answers.admit(snapshot.etag, input))
    store.answers.set(snapshot.etag, input, { body });
  return { ok: true, body };
}

function cors(reply: FastifyReply) {
  return reply.headers(CORS_HEADERS);
}

/** The browser and mobile endpoints (docs/sdk-protocol.md §6), keyed by the public JS client key. */
export function jsRoutes(deps: {
  store: SdkStore;
  ingestion: Ingestion;
  now: () => Date;
}): FastifyPluginAsync {
  const { store, ingestion, now } = deps;
  return async (app) => {
    acceptAnyBody(app);

    app.options('/api/js/v1/*', { schema: { hide: true } }, async (_request, reply) =>
      cors(reply).code(204).send(),
    );

    app.get<{ Params: { apiKey: string; '*': string }; Querystring: { keys?: string } }>(
      '/api/js/v1/evaluate/:apiKey/user/*',
      { schema: { hide: true } },
      async (request, reply) => {
        cors(reply);
        const check = await checkKey(store, request.params.apiKey, 'js');
        if (!check.ok) return refuse(reply, check);
        const keys = typeof request.query.keys === 'string' ? request.query.keys : '';
        const answer = clientAnswer(store, check.snapshot, userSegmentOf(request.url), keys, now);
        if (!answer.ok) return reply.code(400).type('application/json').send({ title: answer.title });
        return sendAnswer(reply, answer.body);
      },
    );

    app.post<{ Params: { apiKey: string } }>(
      '/api/js/v1/event/:apiKey',
      { schema: { hide: true } },
      async (request, reply) => {
        cors(reply);
        const check = await checkKey(store, request.params.apiKey, 'js');
        if (!check.ok) return refuse(reply, check);
        const read = readEvents(request.body);
        if (!read.ok) return sendEventsAnswer(reply, read.answer);
        // Answered once stored (docs/adr/0008-event-ingestion-group-commit.md).
        return sendEventsAnswer(reply, answerOf(await ingestion.record(check.snapshot, read.events, now())));
      },
    );
  };
}
