import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { Answering } from './answers';
import { sendAnswer } from './answers';
import { clientEvaluateAnswer, JS_CORS_HEADERS, userSegmentOf } from './client-answer';
import { answerOf, readEvents, sendEventsAnswer } from './events';
import { acceptAnyBody, checkKey, refuse } from './http';
import type { Ingestion } from './ingestion';

function cors(reply: FastifyReply) {
  return reply.headers(JS_CORS_HEADERS);
}

/** The browser and mobile endpoints (docs/sdk-protocol.md §6), keyed by the public JS client key. */
export function jsRoutes(deps: Answering & { ingestion: Ingestion }): FastifyPluginAsync {
  const { store, ingestion, now } = deps;
  return async (app) => {
    acceptAnyBody(app);

    app.options('/api/js/v1/*', { schema: { hide: true } }, async (_request, reply) =>
      cors(reply).code(204).send(),
    );

    // The answer is client-answer.ts's, which the fast path (fast-path.ts) writes too.
    app.get<{ Params: { apiKey: string; '*': string }; Querystring: { keys?: string } }>(
      '/api/js/v1/evaluate/:apiKey/user/*',
      { schema: { hide: true } },
      async (request, reply) => {
        const check = await checkKey(store, request.params.apiKey, 'js');
        const keys = typeof request.query.keys === 'string' ? request.query.keys : '';
        const segment = userSegmentOf(request.url);
        return sendAnswer(reply, clientEvaluateAnswer(deps, check, { segment, keys }));
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
