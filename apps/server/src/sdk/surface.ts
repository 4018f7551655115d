import type { FastifyPluginAsync } from 'fastify';
import type { Evaluator } from '@vexil/core';
import type { SdkRegistrationCommand } from '../modules/features/sdk-registration';
import { featureflowRoutes } from './featureflow.routes';
import type { Ingestion } from './ingestion';
import { jsRoutes } from './js.routes';
import { ofrepRoutes } from './ofrep.routes';
import type { SdkStore } from './sdk-store';

/** What the SDK routes share: the payloads in memory, the evaluator, the event ingestion and the clock. */
export type SdkRuntime = { store: SdkStore; evaluator: Evaluator; ingestion: Ingestion; now: () => Date };

/**
 * The SDK surface (`/api/sdk`, `/api/js`, `/ofrep`) as its own encapsulated context, registered beside
 * the dashboard's rather than under it (docs/architecture.md "Scale"). Applications call it on every
 * request of their own, so it carries none of the dashboard's per-request work: no browser security
 * headers (its answers are JSON, never a page: `nosniff` is all they need), no cookie parsing, no
 * session or organisation hooks, and one logger for all requests instead of a child per request (the
 * request-log controller still names the request in every line it writes: errors, refusals, slow ones).
 */
export function sdkSurface(deps: { sdk: SdkRuntime; register: SdkRegistrationCommand }): FastifyPluginAsync {
  const { sdk, register } = deps;
  return async (app) => {
    app.setChildLoggerFactory((logger) => logger);
    app.addHook('onRequest', (_request, reply, done) => {
      reply.raw.setHeader('x-content-type-options', 'nosniff');
      done();
    });
    await app.register(
      featureflowRoutes({ store: sdk.store, ingestion: sdk.ingestion, register, now: sdk.now }),
    );
    await app.register(jsRoutes(sdk));
    await app.register(ofrepRoutes(sdk));
  };
}
