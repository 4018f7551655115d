import type { PriceInterval } from '@vexil/core';
import type { BillingCatalogue, CataloguePlan } from '../../plans/catalogue';
import type { SubscriptionValues } from './subscriptions.types';

/** The plan a subscription moves to: Free, or a catalogue plan at an interval (its price row when synced). */
export type PlanChoice =
  | { kind: 'free' }
  | { kind: 'plan'; plan: CataloguePlan; interval: PriceInterval; priceRowId: string | null };

/** What a plan sets on a subscription: its price and limits copied, the seats and their total. */
export type PlanColumns = Required<
  Pick<
    SubscriptionValues,
    | 'priceId'
    | 'productName'
    | 'currency'
    | 'interval'
    | 'intervalCount'
    | 'amount'
    | 'unitLabel'
    | 'quantity'
    | 'total'
    | 'percentOff'
    | 'amountOff'
    | 'limits'
  >
>;

/**
 * The subscription columns a plan gives (price copied, limits copied), for the trial, the local
 * checkout and `npm run billing -- set-plan`; `seats` sets the quantity and the total. The provider's
 * ids and the billing contact are not touched.
 */
export function planColumns(catalogue: BillingCatalogue, choice: PlanChoice, seats: number): PlanColumns {
  const quantity = Math.max(1, seats);
  if (choice.kind === 'free') {
    return {
      priceId: null,
      productName: catalogue.free.name,
      currency: catalogue.currency,
      interval: 'month',
      intervalCount: 1,
      amount: 0,
      unitLabel: 'seat',
      quantity,
      total: 0,
      percentOff: null,
      amountOff: null,
      limits: { ...catalogue.free.limits },
    };
  }
  const price = choice.plan.prices[choice.interval]!;
  return {
    priceId: choice.priceRowId,
    productName: choice.plan.name,
    currency: catalogue.currency,
    interval: choice.interval,
    intervalCount: 1,
    amount: price.amount,
    unitLabel: 'seat',
    quantity,
    total: price.amount * quantity,
    percentOff: null,
    amountOff: null,
    limits: { ...choice.plan.limits },
  };
}
