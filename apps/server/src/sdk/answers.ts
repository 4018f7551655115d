import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { FastifyReply } from 'fastify';
import type { Evaluator } from '@vexil/core';
import type { EnvironmentSnapshot, SdkStore } from './sdk-store';

/** What checking an SDK key found: its environment, or the refusal to answer (sdk/http.ts checkKey). */
export type KeyCheck =
  { ok: true; snapshot: EnvironmentSnapshot } | { ok: false; status: 401 | 403 | 503; title: string };

/**
 * An SDK answer, whole: its status, every header it carries (its length included) and its body
 * (null for none, a 304). The SDK endpoints that applications call most are each one function from
 * the request's facts (its key's check, headers, path segments, body) to such an answer: the Fastify
 * route sends it (`sendAnswer`), and the fast path ahead of Fastify (fast-path.ts) writes it
 * (`writeAnswer`), so the two cannot answer differently (`sdk-fast-path.test.ts` compares them).
 */
export type SdkAnswer = {
  status: number;
  headers: Readonly<Record<string, string | number>>;
  body: Buffer | string | null;
};

/** What the answers read: the payloads in memory, the evaluator and the clock. */
export type Answering = { store: SdkStore; evaluator: Evaluator; now: () => Date };

/** What every SDK answer carries: it is JSON, never a page (surface.ts). */
export const NOSNIFF = { 'x-content-type-options': 'nosniff' } as const;

/** What Fastify makes of `application/json` for a string or an object; said once for a Buffer too. */
export const JSON_TYPE = 'application/json; charset=utf-8';

/** An answer whose body is bytes, with these headers (`nosniff` and the content type included). */
export function bytesAnswer(
  status: number,
  headers: Readonly<Record<string, string>>,
  body: Buffer,
): SdkAnswer {
  return { status, headers: { ...headers, 'content-length': body.length }, body };
}

/** A JSON answer of a small value (a refusal's reasons), with these headers besides. */
export function jsonAnswer(
  status: number,
  value: unknown,
  headers: Readonly<Record<string, string>> = {},
): SdkAnswer {
  const body = JSON.stringify(value);
  return {
    status,
    headers: { ...NOSNIFF, ...headers, 'content-type': JSON_TYPE, 'content-length': Buffer.byteLength(body) },
    body,
  };
}

/** A 304: the headers and no body. */
export function notModifiedAnswer(headers: Readonly<Record<string, string>>): SdkAnswer {
  return { status: 304, headers, body: null };
}

/** A non-empty `If-None-Match` equal to the answer's ETag. */
export function notModified(ifNoneMatch: string | string[] | undefined, etag: string): boolean {
  return typeof ifNoneMatch === 'string' && ifNoneMatch !== '' && ifNoneMatch === etag;
}

/**
 * A refused key (`checkKey` in http.ts): `{title}`, and on a 503 when to retry. 401/403 only when
 * the key is really not one: SDKs mute themselves for good on those (docs/sdk-protocol.md §4).
 */
export function keyRefusal(
  check: Extract<KeyCheck, { ok: false }>,
  headers: Readonly<Record<string, string>> = {},
): SdkAnswer {
  const more = check.status === 503 ? { ...headers, 'retry-after': '5' } : headers;
  return jsonAnswer(check.status, { title: check.title }, more);
}

/** Whether a `User-Agent` is the .NET SDK's, which clears its cache on a 304 (docs/sdk-protocol.md §2). */
function isDotNet(userAgent: string | undefined): boolean {
  return typeof userAgent === 'string' && userAgent.startsWith('DotNetClient/');
}

/**
 * The server SDKs' poll, `GET /api/sdk/v1/features` (docs/sdk-protocol.md §2), without an event
 * stream: the features map with its ETag, or a 304 for a non-empty match, never to .NET.
 */
export function featuresAnswer(check: KeyCheck, headers: IncomingHttpHeaders): SdkAnswer {
  if (!check.ok) return keyRefusal(check);
  const { etag, bytes } = check.snapshot;
  if (!isDotNet(headers['user-agent']) && notModified(headers['if-none-match'], etag))
    return notModifiedAnswer({ ...NOSNIFF, etag, 'cache-control': 'no-cache' });
  return {
    status: 200,
    headers: {
      ...NOSNIFF,
      etag,
      'cache-control': 'no-cache',
      'content-type': 'application/json',
      'content-length': bytes.length,
    },
    body: bytes,
  };
}

/** Sends an answer from a Fastify route. */
export function sendAnswer(reply: FastifyReply, answer: SdkAnswer): FastifyReply {
  reply.code(answer.status).headers(answer.headers);
  return answer.body === null ? reply.send() : reply.send(answer.body);
}

/** Writes an answer on a bare response (the fast path). */
export function writeAnswer(response: ServerResponse, answer: SdkAnswer): void {
  response.writeHead(answer.status, answer.headers);
  if (answer.body === null) response.end();
  else response.end(answer.body);
}
