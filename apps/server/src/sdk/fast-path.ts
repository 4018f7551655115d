import type { IncomingMessage, ServerResponse } from 'node:http';
import { featuresAnswer, writeAnswer, type Answering } from './answers';
import { clientEvaluateAnswer, userSegmentOf } from './client-answer';
import { bearerKeyOf, peekKey } from './http';
import { ofrepBulkAnswer, ofrepKeyOf } from './ofrep-answer';

const FEATURES_PATH = '/api/sdk/v1/features';
const CLIENT_EVALUATE_PATH = '/api/js/v1/evaluate/';
const OFREP_BULK_PATH = '/ofrep/v1/evaluate/flags';

/**
 * An OFREP body longer than this goes to the route, whose limit is larger: a context is a few hundred
 * bytes, and the fast path holds the body in memory while it arrives.
 */
const MAX_FAST_BODY_BYTES = 64 * 1024;

type FastPath = (request: IncomingMessage, response: ServerResponse) => boolean;

/**
 * The SDK calls applications make most, answered before Fastify when the key is already in memory
 * (docs/architecture.md "Scale"):
 *
 * - the server SDKs' poll, `GET /api/sdk/v1/features`;
 * - the JS client's `GET /api/js/v1/evaluate/{key}/user/{user}` without `?keys=`;
 * - OFREP's bulk `POST /ofrep/v1/evaluate/flags` with a `Content-Length` body.
 *
 * Each is a thin adapter: it reads the request's facts as the route does and writes the answer of
 * the function the route sends (answers.ts, client-answer.ts, ofrep-answer.ts), without Fastify's
 * request and reply objects, routing and hooks, which cost more than the poll's answer itself
 * (`sdk-fast-path.test.ts` sends the same requests both ways and compares the answers). Anything
 * else returns false and goes to Fastify: another path or method (a trailing slash, an organisation
 * prefix, other letter cases), a missing key or one not in memory or of the wrong kind, an event
 * stream, and a request the answer refuses (the route answers the same and logs the refusal; an
 * OFREP body already read here is answered here). Requests answered here are not logged; the routes
 * log only errors, refusals and slow requests, and these are answered from memory.
 */
export function sdkFastPath(answering: Answering): FastPath {
  const poll = featuresPoll(answering);
  const client = clientEvaluate(answering);
  const bulk = ofrepBulk(answering);
  return (request, response) => {
    const url = request.url;
    if (url === undefined) return false;
    if (url === FEATURES_PATH) return poll(request, response);
    if (url.startsWith(CLIENT_EVALUATE_PATH)) return client(request, response);
    if (url === OFREP_BULK_PATH) return bulk(request, response);
    return false;
  };
}

function featuresPoll({ store }: Answering): FastPath {
  return (request, response) => {
    if (request.method !== 'GET') return false;
    const { headers } = request;
    if (headers.accept?.includes('text/event-stream')) return false;
    const check = peekKey(store, bearerKeyOf(headers.authorization), 'server');
    if (!check) return false;
    writeAnswer(response, featuresAnswer(check, headers));
    return true;
  };
}

function clientEvaluate(answering: Answering): FastPath {
  return (request, response) => {
    const url = request.url!;
    if (request.method !== 'GET' || url.includes('?')) return false;
    const slash = url.indexOf('/', CLIENT_EVALUATE_PATH.length);
    if (slash === -1 || !url.startsWith('/user/', slash)) return false;
    const check = peekKey(answering.store, url.slice(CLIENT_EVALUATE_PATH.length, slash), 'js');
    if (!check) return false;
    const answer = clientEvaluateAnswer(answering, check, { segment: userSegmentOf(url, slash), keys: '' });
    if (answer.status >= 400) return false;
    writeAnswer(response, answer);
    return true;
  };
}

function ofrepBulk(answering: Answering): FastPath {
  const { store } = answering;
  return (request, response) => {
    if (request.method !== 'POST') return false;
    const { headers } = request;
    const length = Number(headers['content-length']);
    if (!(length > 0 && length <= MAX_FAST_BODY_BYTES) || headers['transfer-encoding'] !== undefined)
      return false;
    const key = ofrepKeyOf(headers);
    const check = peekKey(store, key, 'server');
    if (!check) return false;
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('error', () => response.destroy());
    request.on('end', () => {
      // The payload may have changed while the body arrived: the current one answers, as in the route
      // (which reads the key once the body is in); the key was good when the request came.
      const current = peekKey(store, key, 'server') ?? check;
      const body = Buffer.concat(chunks).toString('utf8');
      writeAnswer(
        response,
        ofrepBulkAnswer(answering, current, { key, body, ifNoneMatch: headers['if-none-match'] }),
      );
    });
    return true;
  };
}
