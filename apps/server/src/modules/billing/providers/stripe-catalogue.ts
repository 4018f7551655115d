import type Stripe from 'stripe';
import {
  BOOLEAN_LIMIT_KEYS,
  NUMERIC_LIMIT_KEYS,
  PRICE_INTERVALS,
  type Limits,
  type Product,
  type ProductPrice,
} from '@vexil/core';
import type { CatalogueProduct } from '../billing-provider';
import { idOf } from './stripe-client';

/*
 * The Plans section from a Stripe account (docs/adr/0016-billing-providers.md): its active products
 * with their monthly and yearly prices, their bullet points and their limits from the metadata.
 */

type Interval = (typeof PRICE_INTERVALS)[number];

/** A product's plan bullet points: its marketing features, else `metadata.features` one per line. */
function featuresOf(product: Stripe.Product): string[] {
  const marketing = (product.marketing_features ?? [])
    .map((feature) => feature.name?.trim() ?? '')
    .filter((name) => name !== '');
  if (marketing.length > 0) return marketing;
  return (product.metadata?.features ?? '')
    .split(/\r?\n|;/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

/**
 * A product's plan limits from its metadata, keyed as core's limits: `maxProjects: "10"`,
 * `maxImpressions: "unlimited"`, `auditLog: "true"`. A key left out is unlimited or included, as
 * the service stores limits; a value that is neither a whole number nor `unlimited` (numbers), nor
 * `true` or `false` (capabilities), gives nothing rather than everything: 0, or not included.
 */
export function limitsOf(metadata: Stripe.Metadata | null | undefined): Partial<Limits> {
  const limits: Partial<Record<keyof Limits, number | boolean | null>> = {};
  for (const key of NUMERIC_LIMIT_KEYS) {
    const raw = metadata?.[key]?.trim().toLowerCase();
    if (raw === undefined) continue;
    const digits = raw.replace(/[,_\s]/g, '');
    limits[key] = raw === 'unlimited' ? null : /^\d+$/.test(digits) ? Number(digits) : 0;
  }
  for (const key of BOOLEAN_LIMIT_KEYS) {
    const raw = metadata?.[key]?.trim().toLowerCase();
    if (raw === undefined) continue;
    limits[key] = raw === 'true' || raw === 'yes' || raw === 'on';
  }
  return limits as Partial<Limits>;
}

function planPrice(price: Stripe.Price): ProductPrice | null {
  const interval = price.recurring?.interval;
  if (!PRICE_INTERVALS.includes(interval as Interval)) return null;
  if (price.recurring?.interval_count !== 1 || price.recurring.usage_type !== 'licensed') return null;
  if (typeof price.unit_amount !== 'number') return null;
  return {
    id: price.id,
    amount: price.unit_amount,
    currency: price.currency,
    interval: interval as Interval,
  };
}

/** Per-interval price for ordering plans: the monthly amount, else a twelfth of the yearly one. */
function monthlyAmount(product: Product): number {
  if (product.prices.month) return product.prices.month.amount;
  if (product.prices.year) return product.prices.year.amount / 12;
  return Number.POSITIVE_INFINITY;
}

/** Stripe's products and prices as the Plans section's products, prices keyed by interval. */
export function toProducts(
  stripeProducts: readonly Stripe.Product[],
  stripePrices: readonly Stripe.Price[],
  productIds?: readonly string[],
): CatalogueProduct[] {
  const plans: CatalogueProduct[] = [];
  for (const product of stripeProducts) {
    if (!product.active) continue;
    const defaultPrice = idOf(product.default_price);
    const prices: Product['prices'] = {};
    // The default price wins its interval; otherwise the newest (Stripe lists newest first).
    const own = stripePrices
      .filter((price) => price.active && idOf(price.product) === product.id)
      .sort((a, b) => Number(b.id === defaultPrice) - Number(a.id === defaultPrice));
    for (const price of own) {
      const mapped = planPrice(price);
      if (mapped && !prices[mapped.interval]) prices[mapped.interval] = mapped;
    }
    if (!prices.month && !prices.year) continue;
    plans.push({
      id: product.id,
      name: product.name,
      features: featuresOf(product),
      prices,
      limits: limitsOf(product.metadata),
    });
  }
  if (productIds) {
    const order = new Map(productIds.map((id, index) => [id, index]));
    return plans.filter((plan) => order.has(plan.id)).sort((a, b) => order.get(a.id)! - order.get(b.id)!);
  }
  return plans.sort((a, b) => monthlyAmount(a) - monthlyAmount(b) || a.name.localeCompare(b.name));
}
