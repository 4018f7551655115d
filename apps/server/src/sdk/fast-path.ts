import type { IncomingMessage, ServerResponse } from 'node:http';
import { bearerKeyOf } from './http';
import type { SdkStore } from './sdk-store';

const FEATURES_PATH = '/api/sdk/v1/features';

/**
 * The server SDKs' poll, answered before Fastify: `GET /api/sdk/v1/features` with a server key already
 * in memory, which is nearly every request an application makes (docs/architecture.md "Scale"). It
 * answers exactly what the route in featureflow.routes.ts answers (the same status, ETag, body and
 * headers: `sdk-fast-path.test.ts` compares them) without Fastify's request and reply objects, which
 * cost more than the answer itself. Anything else returns false and goes to Fastify: another path or
 * method (a trailing slash, an organisation prefix), an event stream, a missing or unknown key, a
 * key not loaded yet, and .NET's user agent (never a 304, docs/sdk-protocol.md §2).
 */
export function sdkFastPath(store: SdkStore) {
  return (request: IncomingMessage, response: ServerResponse): boolean => {
    if (request.method !== 'GET' || request.url !== FEATURES_PATH) return false;
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
