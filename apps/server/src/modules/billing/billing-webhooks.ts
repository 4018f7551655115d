import type { Database } from '../../db/client';
import { AppError } from '../../errors';
import type { AuditService } from '../audit/audit.service';
import { toSubscription } from '../subscriptions/subscription-state';
import type { SubscriptionsService } from '../subscriptions/subscriptions.service';
import type { BillingCatalogueSync } from './billing-catalogue';
import {
  BillingProviderUnavailable,
  WebhookSignatureInvalid,
  type BillingProvider,
  type ProviderEvent,
} from './billing-provider';
import * as repo from './billing.repository';
import type { Logger } from './billing.types';
import { auditPlan, billingAudit } from './billing-audit';
import { providerUnavailable } from './billing-words';

export type WebhookResult = { received: true; duplicate: boolean };

export type BillingWebhooks = ReturnType<typeof createBillingWebhooks>;

/**
 * The provider's events (docs/adr/0016-billing-providers.md): verified, recorded and applied to the
 * subscription once, in one transaction, and audited as the provider when what the Billing tab shows
 * changed.
 */
export function createBillingWebhooks(deps: {
  db: Database;
  audit: AuditService;
  subscriptions: SubscriptionsService;
  provider: BillingProvider;
  catalogueSync: BillingCatalogueSync;
  logger: Logger;
  now: () => Date;
}) {
  const { db, audit, subscriptions, provider, catalogueSync, logger, now } = deps;

  /** A provider's event, applied once: recorded and applied in one transaction, a replay changes nothing. */
  async function applyEvent(event: ProviderEvent): Promise<WebhookResult> {
    const change = event.change;
    const price = change?.externalPriceId ? await catalogueSync.cataloguePrice(change.externalPriceId) : null;
    if (change?.externalPriceId && !price)
      logger.warn(
        { provider: provider.kind, eventId: event.id },
        'a billing event names a price the catalogue does not have: the plan is left as it was',
      );
    return db.transaction(async (tx) => {
      const fresh = await repo.recordEvent(tx, { id: event.id, type: event.type, receivedAt: now() });
      if (!fresh) return { received: true, duplicate: true } as const;
      if (!change) return { received: true, duplicate: false } as const;
      const organisationId = await subscriptions.organisationOfChange(tx, change);
      if (!organisationId) {
        logger.info?.(
          { provider: provider.kind, eventId: event.id, type: event.type },
          'a billing event for a customer of no organisation was recorded and ignored',
        );
        return { received: true, duplicate: false } as const;
      }
      const { before, after } = await subscriptions.applyChange(tx, organisationId, change, price);
      if (after) {
        const statusBefore = before ? toSubscription(before, now()).status : null;
        const statusAfter = toSubscription(after, now()).status;
        const planChanged =
          before?.productName !== after.productName ||
          before?.interval !== after.interval ||
          before?.quantity !== after.quantity;
        if (statusBefore !== statusAfter || planChanged || before?.status !== after.status) {
          await audit.record(
            tx,
            { organisationId, userId: null },
            billingAudit({
              kind: 'billing.provider_reported',
              provider: provider.kind,
              subscriptionId: after.id,
              plan: auditPlan(after),
              status: after.status,
              before: before ? { ...auditPlan(before), status: before.status } : null,
              event: { id: event.id, type: event.type },
            }),
          );
        }
      }
      return { received: true, duplicate: false } as const;
    });
  }

  return {
    applyEvent,

    /**
     * POST /api/v1/billing/webhook: the provider's event, verified, then applied once. A bad
     * signature is 400; a provider without webhooks is 404; a provider that cannot be asked for the
     * current state is 503 and the event is not recorded, so the provider delivers it again.
     */
    async webhook(rawBody: Buffer, signature: string | undefined): Promise<WebhookResult> {
      if (!provider.verifyWebhook)
        throw new AppError(404, 'Not found', 'This server’s billing provider sends no webhooks.');
      let event: ProviderEvent;
      try {
        event = await provider.verifyWebhook(rawBody, signature);
      } catch (error) {
        if (error instanceof WebhookSignatureInvalid) throw new AppError(400, error.message);
        if (error instanceof BillingProviderUnavailable) {
          logger.warn(
            { provider: provider.kind, error: error.message },
            'a billing webhook could not be read',
          );
          throw providerUnavailable('The payment provider could not be reached; deliver the event again.');
        }
        throw error;
      }
      return applyEvent(event);
    },
  };
}
