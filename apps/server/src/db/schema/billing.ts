import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { PlanLimits as Limits, PriceInterval } from '@vexil/core';
import { createdAt, emptyTextArray, id, timestamptz, updatedAt } from './columns.ts';
import { organisationId } from './tenant.ts';

/**
 * Plan limits as stored (docs/product.md §3 Subscription.limits, §9): core's, each key optional. An
 * absent or null number means unlimited; `auditLog` and `variantTesting` gate those features.
 */
export type PlanLimits = Partial<Limits>;

export type { PriceInterval };

export type SubscriptionStatus =
  | 'trialing'
  | 'active'
  | 'past_due'
  | 'unpaid'
  | 'canceled'
  | 'incomplete'
  | 'incomplete_expired'
  | 'paused'
  /** Trial expired without a purchase: no feature changes, features keep evaluating (docs/product.md §4). */
  | 'inactive';

/** Billing catalogue: the plans offered on the Plans section. Global, not tenant-owned. */
export const products = pgTable(
  'products',
  {
    id: id(),
    /** The payment provider's product id. */
    externalId: text('external_id'),
    name: text('name').notNull(),
    /** Marketing bullet points shown on the plan card. */
    features: text('features').array().notNull().default(emptyTextArray),
    /** Limits a subscription to this product gets. */
    limits: jsonb('limits').$type<PlanLimits>().notNull().default({}),
    active: boolean('active').notNull().default(true),
    position: integer('position').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('products_external_id_unique').on(t.externalId)],
);

export const prices = pgTable(
  'prices',
  {
    id: id(),
    productId: uuid('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    externalId: text('external_id'),
    /** ISO 4217, lowercase (e.g. 'usd'). */
    currency: text('currency').notNull(),
    interval: text('interval').$type<PriceInterval>().notNull(),
    intervalCount: integer('interval_count').notNull().default(1),
    /** Per seat per interval, in the currency's minor unit (cents). */
    amount: integer('amount').notNull(),
    unitLabel: text('unit_label'),
    active: boolean('active').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('prices_external_id_unique').on(t.externalId),
    index('prices_product_idx').on(t.productId),
    check('prices_interval_check', sql`interval in ('month', 'year')`),
  ],
);

/**
 * The organisation's subscription (one per organisation). The price is copied at subscription
 * time (product name, currency, interval, amount, unit label) so the Current Plan section reads
 * one row and survives catalogue changes; `limits` likewise. Billing information (card, customer)
 * is cached from the payment provider's webhooks. inTrial and daysUntilEndOfTrial derive from
 * trialEnd.
 */
export const subscriptions = pgTable(
  'subscriptions',
  {
    id: id(),
    organisationId: organisationId(),
    status: text('status').$type<SubscriptionStatus>().notNull(),
    /** Seats. */
    quantity: integer('quantity').notNull().default(1),
    priceId: uuid('price_id').references(() => prices.id, { onDelete: 'set null' }),
    productName: text('product_name'),
    currency: text('currency'),
    interval: text('interval').$type<PriceInterval>(),
    intervalCount: integer('interval_count'),
    /** Minor units (cents) per seat per interval. */
    amount: integer('amount'),
    unitLabel: text('unit_label'),
    /** Total per interval after discount, in minor units, as the provider computed it. */
    total: integer('total'),
    percentOff: numeric('percent_off', { precision: 5, scale: 2, mode: 'number' }),
    amountOff: integer('amount_off'),
    limits: jsonb('limits').$type<PlanLimits>().notNull().default({}),
    trialEnd: timestamptz('trial_end'),
    currentPeriodStart: timestamptz('current_period_start'),
    currentPeriodEnd: timestamptz('current_period_end'),
    cancelAt: timestamptz('cancel_at'),
    externalCustomerId: text('external_customer_id'),
    externalSubscriptionId: text('external_subscription_id'),
    billingEmail: text('billing_email'),
    billingName: text('billing_name'),
    billingPhone: text('billing_phone'),
    cardBrand: text('card_brand'),
    cardLastFour: text('card_last_four'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('subscriptions_organisation_unique').on(t.organisationId),
    uniqueIndex('subscriptions_external_subscription_id_unique').on(t.externalSubscriptionId),
    index('subscriptions_external_customer_idx').on(t.externalCustomerId),
    index('subscriptions_price_idx').on(t.priceId),
    check('subscriptions_quantity_non_negative', sql`quantity >= 0`),
  ],
);

/**
 * The payment provider's webhook events already processed, by the provider's event id: an event is
 * applied once, in the transaction that records it, and a replay finds its row and changes nothing
 * (docs/adr/0016-billing-providers.md). Global: an event names its organisation only in its content.
 */
export const billingEvents = pgTable('billing_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  receivedAt: timestamptz('received_at').notNull().defaultNow(),
});

export type ProductRow = typeof products.$inferSelect;
export type NewProductRow = typeof products.$inferInsert;
export type PriceRow = typeof prices.$inferSelect;
export type NewPriceRow = typeof prices.$inferInsert;
export type SubscriptionRow = typeof subscriptions.$inferSelect;
export type NewSubscriptionRow = typeof subscriptions.$inferInsert;
export type BillingEventRow = typeof billingEvents.$inferSelect;
