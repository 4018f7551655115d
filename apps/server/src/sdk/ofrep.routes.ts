import type { FastifyPluginAsync } from 'fastify';
import { sendAnswer, type Answering } from './answers';
import { acceptAnyBody, checkKey } from './http';
import { CORS_HEADERS, ofrepBulkAnswer, ofrepFlagAnswer, ofrepKeyOf } from './ofrep-answer';

/**
 * OpenFeature Remote Evaluation Protocol (docs/sdk-protocol.md part B), keyed by the server SDK key.
 * The answers are ofrep-answer.ts's; the fast path (fast-path.ts) writes the bulk one too.
 */
export function ofrepRoutes(deps: Answering): FastifyPluginAsync {
  const { store } = deps;
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
        const key = ofrepKeyOf(request.headers);
        const check = await checkKey(store, key, 'server');
        const flagKey = request.params.key;
        return sendAnswer(reply, ofrepFlagAnswer(deps, check, { key, flagKey, body: request.body }));
      },
    );

    app.post('/ofrep/v1/evaluate/flags', { schema: { hide: true } }, async (request, reply) => {
      const key = ofrepKeyOf(request.headers);
      const check = await checkKey(store, key, 'server');
      const ifNoneMatch = request.headers['if-none-match'];
      return sendAnswer(reply, ofrepBulkAnswer(deps, check, { key, body: request.body, ifNoneMatch }));
    });
  };
}
