import type Stripe from 'stripe';
import type { SubscriptionChange } from '../billing-provider';
import type { ProviderSubscriptionStatus } from '../../subscriptions/subscriptions.types';
import { idOf } from './stripe-client';

/*
 * Stripe's webhook events as the `SubscriptionChange` the billing service records
 * (docs/adr/0016-billing-providers.md), the subscription read afresh from Stripe so an event
 * delivered late or out of order still records the current state.
 */

/** The subscription fields the webhook mapping needs expanded: each discount's coupon. */
export const SUBSCRIPTION_EXPAND = ['discounts.source.coupon'];

const STATUSES: ReadonlySet<string> = new Set<ProviderSubscriptionStatus>([
  'trialing',
  'active',
  'past_due',
  'unpaid',
  'canceled',
  'incomplete',
  'incomplete_expired',
  'paused',
]);

/** Reads a subscription's current state, or gives the snapshot when Stripe no longer has it. */
export type CurrentSubscription = (
  id: string,
  snapshot: Stripe.Subscription | null,
) => Promise<Stripe.Subscription | null>;

function dateOf(seconds: number | null | undefined): Date | null {
  return typeof seconds === 'number' ? new Date(seconds * 1000) : null;
}

/** A subscription as the change the billing service records. */
export function subscriptionChangeOf(subscription: Stripe.Subscription): SubscriptionChange {
  const items = subscription.items?.data ?? [];
  const [item] = items;
  const change: SubscriptionChange = {
    externalCustomerId: idOf(subscription.customer) ?? '',
    externalSubscriptionId: subscription.id,
    externalPriceId: item?.price?.id ?? null,
    trialEnd: dateOf(subscription.trial_end),
    currentPeriodStart: dateOf(item?.current_period_start),
    currentPeriodEnd: dateOf(item?.current_period_end),
    cancelAt: dateOf(
      subscription.cancel_at ?? (subscription.cancel_at_period_end ? item?.current_period_end : null),
    ),
  };
  const organisationId = subscription.metadata?.organisationId;
  if (organisationId) change.organisationId = organisationId;
  if (STATUSES.has(subscription.status)) change.status = subscription.status as ProviderSubscriptionStatus;
  if (item && typeof item.quantity === 'number') change.quantity = item.quantity;

  // The discount only when each coupon came expanded; otherwise it stays as recorded.
  const discounts = subscription.discounts ?? [];
  const coupons = discounts.map((discount) =>
    typeof discount !== 'string' && discount.source?.coupon && typeof discount.source.coupon !== 'string'
      ? discount.source.coupon
      : null,
  );
  if (coupons.every((coupon) => coupon !== null)) {
    const percentOff = coupons.find((coupon) => coupon.percent_off !== null)?.percent_off ?? null;
    const amountOff = coupons.reduce((sum, coupon) => sum + (coupon.amount_off ?? 0), 0) || null;
    const subtotal = items.reduce((sum, it) => sum + (it.price?.unit_amount ?? 0) * (it.quantity ?? 1), 0);
    const afterPercent = percentOff === null ? subtotal : Math.round((subtotal * (100 - percentOff)) / 100);
    change.percentOff = percentOff;
    change.amountOff = amountOff;
    change.total = Math.max(0, afterPercent - (amountOff ?? 0));
  }
  return change;
}

/** The change a webhook event records, or null when it records none. */
export async function changeOf(
  event: Stripe.Event,
  currentSubscription: CurrentSubscription,
): Promise<SubscriptionChange | null> {
  switch (event.type) {
    case 'checkout.session.completed': {
      const session = event.data.object;
      const subscriptionId = idOf(session.subscription);
      const customerId = idOf(session.customer);
      if (session.mode !== 'subscription' || !subscriptionId || !customerId) return null;
      const subscription = await currentSubscription(subscriptionId, null);
      const change: SubscriptionChange = subscription
        ? subscriptionChangeOf(subscription)
        : { externalCustomerId: customerId, externalSubscriptionId: subscriptionId };
      change.organisationId =
        change.organisationId ?? session.metadata?.organisationId ?? session.client_reference_id ?? null;
      if (session.customer_details) {
        const { email, name, phone } = session.customer_details;
        change.billingContact = { email: email ?? null, name: name ?? null, phone: phone ?? null };
      }
      return change;
    }
    case 'customer.subscription.created':
    case 'customer.subscription.updated': {
      const snapshot = event.data.object;
      const subscription = await currentSubscription(snapshot.id, snapshot);
      return subscription ? subscriptionChangeOf(subscription) : null;
    }
    case 'customer.subscription.deleted':
      // Final: the snapshot is the subscription's last state.
      return subscriptionChangeOf(event.data.object);
    case 'invoice.payment_failed': {
      const invoice = event.data.object;
      const subscriptionId = idOf(invoice.parent?.subscription_details?.subscription);
      const customerId = idOf(invoice.customer);
      if (!subscriptionId || !customerId) return null;
      const subscription = await currentSubscription(subscriptionId, null);
      // Stripe marks the subscription past_due as it reports the failed renewal.
      return subscription
        ? subscriptionChangeOf(subscription)
        : { externalCustomerId: customerId, externalSubscriptionId: subscriptionId, status: 'past_due' };
    }
    case 'customer.updated': {
      const customer = event.data.object;
      const change: SubscriptionChange = {
        externalCustomerId: customer.id,
        billingContact: {
          email: customer.email ?? null,
          name: customer.name ?? null,
          phone: customer.phone ?? null,
        },
      };
      if (customer.metadata?.organisationId) change.organisationId = customer.metadata.organisationId;
      return change;
    }
    case 'payment_method.attached': {
      const method = event.data.object;
      const customerId = idOf(method.customer);
      if (!customerId || !method.card) return null;
      return {
        externalCustomerId: customerId,
        card: { brand: method.card.brand ?? null, lastFour: method.card.last4 ?? null },
      };
    }
    default:
      return null;
  }
}
