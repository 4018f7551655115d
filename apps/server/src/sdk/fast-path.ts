import type { IncomingMessage, ServerResponse } from 'node:http';
import { bearerKeyOf } from './http';
import { CLIENT_ANSWER_HEADERS, clientAnswer, userSegmentOf } from './js.routes';
import {
  bulkAnswer,
  CORS_HEADERS as OFREP_CORS_HEADERS,
  JSON_TYPE,
  notModified,
  ofrepKeyOf,
} from './ofrep.routes';
import type { SdkStore } from './sdk-store';

const FEATURES_PATH = '/api/sdk/v1/features';
const CLIENT_EVALUATE_PATH = '/api/js/v1/evaluate/';
const OFREP_BULK_PATH = '/ofrep/v1/evaluate/flags';

/**
 * An OFREP body longer than this goes to the route, whose limit is larger: a context is a few hundred
 * bytes, and the fast path holds the body in memory while it arrives.
 */
const MAX_FAST_BODY_BYTES = 64 * 1024;

type FastPath = (request: IncomingMessage, response: ServerResponse) => boolean;

/** What the routes' answers carry besides their length and ETag (the SDK surface adds `nosniff`). */
const CLIENT_HEADERS = { 'x-content-type-options': 'nosniff', ...CLIENT_ANSWER_HEADERS };
const OFREP_HEADERS = { 'x-content-type-options': 'nosniff', ...OFREP_CORS_HEADERS };

/**
 * The SDK calls applications make most, answered before Fastify when the key is already in memory
 * (docs/architecture.md "Scale"):
 *
 * - the server SDKs' poll, `GET /api/sdk/v1/features`;
 * - the JS client's `GET /api/js/v1/evaluate/{key}/user/{user}` without `?keys=`;
 * - OFREP's bulk `POST /ofrep/v1/evaluate/flags` with a `Content-Length` body.
 *
 * Each answers exactly what its route answers (the same status, headers and body:
 * `sdk-fast-path.test.ts` compares them), with the same functions, without Fastify's request and
 * reply objects, routing and hooks, which cost more than the poll's answer itself. Anything else
 * returns false and goes to Fastify: another path or method (a trailing slash, an organisation
 * prefix, other letter cases), a missing or unknown key, a key not loaded yet, an event stream,
 * .NET's user agent (never a 304, docs/sdk-protocol.md §2), and a request the route refuses (the
 * route then says why). Requests answered here are not logged; the routes log only errors and slow
 * requests, and these are answered from memory.
 */
export function sdkFastPath(store: SdkStore, now: () => Date): FastPath {
  const poll = featuresPoll(store);
  const client = clientEvaluate(store, now);
  const bulk = ofrepBulk(store, now);
  return (request, response) => {
    const url = request.url;
    if (url === undefined) return false;
    if (url === FEATURES_PATH) return poll(request, response);
    if (url.startsWith(CLIENT_EVALUATE_PATH)) return client(request, response);
    if (url === OFREP_BULK_PATH) return bulk(request, response);
    return false;
  };
}

function featuresPoll(store: SdkStore): FastPath {
  return (request, response) => {
    if (request.method !== 'GET') return false;
    const { headers } = request;
    if (headers.accept?.includes('text/event-stream')) return false;
    if (headers['user-agent']?.startsWith('DotNetClient/')) return false;
    const key = bearerKeyOf(headers.authorization);
    if (!key) return false;
    const snapshot = store.peek(key);
    if (!snapshot || snapshot.keys.serverApiKey !== key) return false;
    const ifNoneMatch = headers['if-none-match'];
    if (ifNoneMatch !== undefined && ifNoneMatch !== '' && ifNoneMatch === snapshot.etag) {
      response.writeHead(304, {
        'x-content-type-options': 'nosniff',
        etag: snapshot.etag,
        'cache-control': 'no-cache',
      });
      response.end();
      return true;
    }
    response.writeHead(200, {
      'x-content-type-options': 'nosniff',
      etag: snapshot.etag,
      'cache-control': 'no-cache',
      'content-type': 'application/json',
      'content-length': snapshot.bytes.length,
    });
    response.end(snapshot.bytes);
    return true;
  };
}

function clientEvaluate(store: SdkStore, now: () => Date): FastPath {
  return (request, response) => {
    const url = request.url!;
    if (request.method !== 'GET' || url.includes('?')) return false;
    const slash = url.indexOf('/', CLIENT_EVALUATE_PATH.length);
    if (slash === -1 || !url.startsWith('/user/', slash)) return false;
    const key = url.slice(CLIENT_EVALUATE_PATH.length, slash);
    const snapshot = store.peek(key);
    if (!snapshot || snapshot.keys.jsApiKey !== key) return false;
    const answer = clientAnswer(store, snapshot, userSegmentOf(url, slash), '', now);
    if (!answer.ok) return false;
    response.writeHead(200, { ...CLIENT_HEADERS, 'content-length': answer.body.length });
    response.end(answer.body);
    return true;
  };
}

function ofrepBulk(store: SdkStore, now: () => Date): FastPath {
  return (request, response) => {
    if (request.method !== 'POST') return false;
    const { headers } = request;
    const length = Number(headers['content-length']);
    if (!(length > 0 && length <= MAX_FAST_BODY_BYTES) || headers['transfer-encoding'] !== undefined)
      return false;
    const key = ofrepKeyOf(headers);
    if (!key) return false;
    const snapshot = store.peek(key);
    if (!snapshot || snapshot.keys.serverApiKey !== key) return false;
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('error', () => response.destroy());
    request.on('end', () => {
      // The payload may have changed while the body arrived: the current one answers, as in the route
      // (which reads the key once the body is in); the key was good when the request came.
      const current = store.peek(key) ?? snapshot;
      const answer = bulkAnswer(store, current, Buffer.concat(chunks).toString('utf8'), now);
      if (!answer.ok) {
        const body = JSON.stringify({ errorCode: answer.code, errorDetails: answer.details });
        response.writeHead(400, {
          ...OFREP_HEADERS,
          'content-type': JSON_TYPE,
          'content-length': Buffer.byteLength(body),
        });
        response.end(body);
      } else if (notModified(headers['if-none-match'], answer.etag)) {
        response.writeHead(304, { ...OFREP_HEADERS, etag: answer.etag });
        response.end();
      } else {
        response.writeHead(200, {
          ...OFREP_HEADERS,
          etag: answer.etag,
          'content-type': JSON_TYPE,
          'content-length': answer.body.length,
        });
        response.end(answer.body);
      }
    });
    return true;
  };
}
