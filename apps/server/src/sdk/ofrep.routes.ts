import { createHash } from 'node:crypto';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { evaluate, type Evaluation, type EvaluationUser } from '@vexil/core';
import { MAX_EVENTS_DEPTH, nestsDeeperThan, parseJsonBody } from './events';
import { acceptAnyBody, bearerKey, checkKey } from './http';
import type { ControlEntry, EnvironmentSnapshot, SdkStore } from './sdk-store';

const CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'POST, OPTIONS',
  'access-control-allow-headers': 'Authorization, X-API-Key, Content-Type, If-None-Match',
  'access-control-expose-headers': 'ETag',
  'access-control-max-age': '86400',
  'cross-origin-resource-policy': 'cross-origin',
};

type OfrepReason = 'TARGETING_MATCH' | 'SPLIT' | 'DISABLED' | 'DEFAULT' | 'UNKNOWN';
type Context = Record<string, unknown>;

const REASONS: Record<Evaluation['reason'], OfrepReason> = {
  TARGETING_MATCH: 'TARGETING_MATCH',
  SPLIT: 'SPLIT',
  DISABLED: 'DISABLED',
  DEFAULT: 'DEFAULT',
  NO_MATCH: 'DEFAULT',
  ERROR: 'UNKNOWN',
};

/**
 * A variant's typed value: its JSON value when it has one; for a plain on/off feature a boolean;
 * otherwise the variant key as a string.
 */
export function valueOf(entry: ControlEntry, variant: string): unknown {
  if (entry.values.has(variant)) return entry.values.get(variant);
  return entry.onOff ? variant === 'on' : variant;
}

function userOf(context: Context): EvaluationUser {
  const { targetingKey, ...attributes } = context;
  return { id: typeof targetingKey === 'string' ? targetingKey : null, attributes };
}

type Item =
  | { key: string; value: unknown; reason: OfrepReason; variant: string; metadata: Record<string, string> }
  | { key: string; errorCode: string; errorDetails: string };

function evaluateFlag(entry: ControlEntry, context: Context, now: Date): Item {
  const hasTargetingKey = typeof context.targetingKey === 'string' && context.targetingKey !== '';
  const result = evaluate(entry.control, userOf(context), now);
  if (result.reason === 'SPLIT' && !hasTargetingKey) {
    return {
      key: entry.control.key,
      errorCode: 'TARGETING_KEY_MISSING',
      errorDetails: 'This flag splits users by percentage: the context needs a targetingKey.',
    };
  }
  return {
    key: entry.control.key,
    value: valueOf(entry, result.variant),
    reason: REASONS[result.reason],
    variant: result.variant,
    metadata: {},
  };
}

function ofrepKey(request: FastifyRequest): string | null {
  const header = request.headers['x-api-key'];
  return bearerKey(request) ?? (typeof header === 'string' && header !== '' ? header : null);
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
  // The context is serialised for the ETag; JSON nested thousands deep would overflow the stack.
  if (nestsDeeperThan(context, MAX_EVENTS_DEPTH)) {
    return {
      ok: false,
      code: 'INVALID_CONTEXT',
      details: `The context nests deeper than ${MAX_EVENTS_DEPTH} levels.`,
    };
  }
  return { ok: true, context: context as Context };
}

async function authenticate(store: SdkStore, request: FastifyRequest, reply: FastifyReply) {
  const check = await checkKey(store, ofrepKey(request), 'server');
  if (check.ok) return check.snapshot;
  // OFREP: 401/403 carry no body; a 503 says when to retry.
  if (check.status === 503)
    reply.header('retry-after', '5').code(503).type('application/json').send({ errorDetails: check.title });
  else reply.code(check.status).send();
  return null;
}

/** OpenFeature Remote Evaluation Protocol (docs/sdk-protocol.md part B), keyed by the server SDK key. */
export function ofrepRoutes(deps: { store: SdkStore; now: () => Date }): FastifyPluginAsync {
  const { store, now } = deps;
  return async (app) => {
    acceptAnyBody(app);
    app.addHook('onSend', async (_request, reply) => {
      for (const [name, value] of Object.entries(CORS_HEADERS)) reply.header(name, value);
    });

    app.options('/ofrep/v1/*', { schema: { hide: true } }, async (_request, reply) => reply.code(204).send());

    app.post<{ Params: { key: string } }>(
      '/ofrep/v1/evaluate/flags/:key',
      { schema: { hide: true } },
      async (request, reply) => {
        const snapshot = await authenticate(store, request, reply);
        if (!snapshot) return reply;
        const key = request.params.key;
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
        const item = evaluateFlag(entry, read.context, now());
        return reply
          .code('errorCode' in item ? 400 : 200)
          .type('application/json')
          .send(item);
      },
    );

    app.post('/ofrep/v1/evaluate/flags', { schema: { hide: true } }, async (request, reply) => {
      const snapshot: EnvironmentSnapshot | null = await authenticate(store, request, reply);
      if (!snapshot) return reply;
      const read = readContext(request.body);
      if (!read.ok)
        return reply
          .code(400)
          .type('application/json')
          .send({ errorCode: read.code, errorDetails: read.details });
      const contextJson = JSON.stringify(read.context);
      // The answer depends on the configuration and the context, and so does its ETag.
      const etag = `"${createHash('sha256').update(snapshot.etag).update('\u0000').update(contextJson).digest('base64url').slice(0, 32)}"`;
      reply.header('etag', etag);
      const ifNoneMatch = request.headers['if-none-match'];
      if (typeof ifNoneMatch === 'string' && ifNoneMatch !== '' && ifNoneMatch === etag)
        return reply.code(304).send();
      const at = now();
      const flags = [...snapshot.controls.values()].map((entry) => evaluateFlag(entry, read.context, at));
      return reply
        .code(200)
        .type('application/json')
        .send({ flags, metadata: { version: snapshot.etag.slice(1, -1) } });
    });
  };
}
