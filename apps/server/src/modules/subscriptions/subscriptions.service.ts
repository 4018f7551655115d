import type { Database, Executor } from '../../db/client';
import { lockOrganisation } from '../../db/locks';
import * as repo from './subscriptions.repository';
import type {
  BillingContact,
  BillingDetails,
  SubscribedPrice,
  SubscriptionChange,
  SubscriptionRecord,
  SubscriptionValues,
} from './subscriptions.types';

export type SubscriptionsService = ReturnType<typeof createSubscriptionsService>;

/**
 * The organisation's subscription (docs/product.md §3, §4): the only module that writes the
 * `subscriptions` table. Below `billing`, which reads the plan's limits and state from it and asks
 * it to start, change or end one (the trial at sign-up, the local checkout, the provider's webhooks,
 * `npm run billing -- set-plan`). The methods taking an executor write in the caller's transaction,
 * after the caller locked the organisation.
 */
export function createSubscriptionsService(deps: { db: Database }) {
  const { db } = deps;

  /**
   * Sets `values` on the organisation's subscription, or starts an active one with them when it has
   * none: an organisation without a subscription (billing turned on later) keeps no limits.
   */
  async function setOrStart(
    tx: Executor,
    organisationId: string,
    values: Partial<SubscriptionValues>,
  ): Promise<void> {
    if (await repo.findSubscription(tx, organisationId))
      await repo.updateSubscription(tx, organisationId, values);
    else
      await repo.insertSubscriptionIfNone(tx, organisationId, {
        ...values,
        status: values.status ?? 'active',
      });
  }

  return {
    /** The organisation's subscription, or null when it has none. */
    find(executor: Executor, organisationId: string): Promise<SubscriptionRecord | null> {
      return repo.findSubscription(executor, organisationId);
    },

    /** The provider's ids, the card and the billing contact, or null without a subscription. */
    billingDetails(executor: Executor, organisationId: string): Promise<BillingDetails | null> {
      return repo.findBillingDetails(executor, organisationId);
    },

    /**
     * The organisation a provider's change is about, locked: by the organisation id the provider
     * carries, else by its subscription id, else by its customer id; null when none matches.
     */
    organisationOfChange(tx: Executor, change: SubscriptionChange): Promise<string | null> {
      return repo.findOrganisationOfChange(tx, change);
    },

    /** A new organisation's first subscription; nothing when it has one already. Whether it started one. */
    startIfNone(tx: Executor, organisationId: string, values: SubscriptionValues): Promise<boolean> {
      return repo.insertSubscriptionIfNone(tx, organisationId, values);
    },

    /** Puts the organisation on a plan: a new subscription, or these columns of the one it has replaced. */
    async putOnPlan(
      tx: Executor,
      organisationId: string,
      values: SubscriptionValues,
    ): Promise<SubscriptionRecord> {
      await repo.upsertSubscription(tx, organisationId, values);
      return (await repo.findSubscription(tx, organisationId))!;
    },

    /** Keeps the customer a provider created on the way, so that the next call reuses it. */
    async rememberCustomer(organisationId: string, externalCustomerId: string): Promise<void> {
      await db.transaction(async (tx) => {
        await lockOrganisation(tx, organisationId);
        const details = await repo.findBillingDetails(tx, organisationId);
        if (details?.externalCustomerId === externalCustomerId) return;
        await setOrStart(tx, organisationId, { externalCustomerId });
      });
    },

    /** The billing contact "Manage Billing Details" edits; the details as they are afterwards. */
    async setBillingContact(
      tx: Executor,
      organisationId: string,
      contact: BillingContact,
    ): Promise<BillingDetails | null> {
      await setOrStart(tx, organisationId, {
        billingEmail: contact.email,
        billingName: contact.name,
        billingPhone: contact.phone,
      });
      return repo.findBillingDetails(tx, organisationId);
    },

    /**
     * Applies a provider's change to the organisation's subscription: the fields it sets, and for a
     * new price the catalogue's product name, price and limits (`price`, null when the catalogue does
     * not have it: the plan is left as it was). The subscription before and after, for the audit log.
     */
    async applyChange(
      tx: Executor,
      organisationId: string,
      change: SubscriptionChange,
      price: SubscribedPrice | null,
    ): Promise<{ before: SubscriptionRecord | null; after: SubscriptionRecord | null }> {
      const before = await repo.findSubscription(tx, organisationId);
      const values: Partial<SubscriptionValues> = { externalCustomerId: change.externalCustomerId };
      const set = <K extends keyof SubscriptionValues>(key: K, value: SubscriptionValues[K] | undefined) => {
        if (value !== undefined) values[key] = value;
      };
      set('externalSubscriptionId', change.externalSubscriptionId);
      set('status', change.status);
      set('quantity', change.quantity);
      set('trialEnd', change.trialEnd);
      set('currentPeriodStart', change.currentPeriodStart);
      set('currentPeriodEnd', change.currentPeriodEnd);
      set('cancelAt', change.cancelAt);
      set('total', change.total);
      set('percentOff', change.percentOff);
      set('amountOff', change.amountOff);
      if (change.card !== undefined) {
        values.cardBrand = change.card?.brand ?? null;
        values.cardLastFour = change.card?.lastFour ?? null;
      }
      if (change.billingContact !== undefined) {
        values.billingEmail = change.billingContact?.email ?? null;
        values.billingName = change.billingContact?.name ?? null;
        values.billingPhone = change.billingContact?.phone ?? null;
      }
      if (change.externalPriceId === null) {
        values.priceId = null;
      } else if (price) {
        Object.assign(values, {
          priceId: price.priceId,
          productName: price.productName,
          currency: price.currency,
          interval: price.interval,
          intervalCount: price.intervalCount,
          amount: price.amount,
          unitLabel: price.unitLabel,
          limits: price.limits,
        });
        if (change.total === undefined)
          values.total = price.amount * (change.quantity ?? before?.quantity ?? 1);
      }
      await setOrStart(tx, organisationId, values);
      return { before, after: await repo.findSubscription(tx, organisationId) };
    },
  };
}
