import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Database } from '../db/client';
import type { BillingService } from '../modules/billing/billing.service';
import { requiresSession } from './auth';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * A write that stays allowed while the subscription is inactive: what an organisation admin needs
     * to pay (billing), and the signed-in user's own session and walkthrough.
     */
    whileInactive?: boolean;
  }
}

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * While the organisation's subscription is inactive nothing changes but its billing
 * (docs/product.md, Subscription): every signed-in write of the dashboard API is refused with 403
 * `subscription_inactive`, unless its route says `whileInactive`. Checked at the route, so no module's
 * write can forget it; the modules that change what SDKs serve check again inside their transactions.
 * Register it before the routes, after the session check (whose hook it follows).
 */
export function registerSubscriptionGuard(
  app: FastifyInstance,
  deps: { db: Database; billing: Pick<BillingService, 'assertActive'> },
): void {
  const { db, billing } = deps;
  app.addHook('onRoute', (route) => {
    const url = route.url ?? route.path;
    if (!requiresSession(url, route.config?.public) || route.config?.whileInactive === true) return;
    if (![route.method].flat().some((method) => WRITES.has(method))) return;
    const existing = route.onRequest ? [route.onRequest].flat() : [];
    route.onRequest = [
      ...existing,
      async (request: FastifyRequest) => {
        // The session check ran first and attached the principal; a GET of a shared route passes.
        if (!request.principal || !WRITES.has(request.method)) return;
        await billing.assertActive(db, request.principal.organisationId);
      },
    ];
  });
}
