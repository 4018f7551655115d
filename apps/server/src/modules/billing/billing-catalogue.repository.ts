import type { PriceInterval } from '@vexil/core';
import { and, eq, notInArray } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { prices, products, type PlanLimits } from '../../db/schema/index';
import type { CataloguePriceRecord } from './billing.types';

/*
 * The catalogue tables (products and prices): what the payment provider sells, synced from it, and
 * the prices a subscription copies.
 */

export type CatalogueEntry = {
  externalId: string;
  name: string;
  features: string[];
  limits: PlanLimits;
  position: number;
  prices: { externalId: string; currency: string; interval: PriceInterval; amount: number }[];
};

/**
 * Makes the products and prices tables say what the provider sells: rows written only where they
 * differ, products and prices the provider no longer lists marked inactive (subscriptions keep
 * their copy of the price).
 */
export async function syncCatalogue(db: Executor, entries: readonly CatalogueEntry[]): Promise<void> {
  const existing = await db
    .select({
      id: products.id,
      externalId: products.externalId,
      name: products.name,
      features: products.features,
      limits: products.limits,
      active: products.active,
      position: products.position,
    })
    .from(products);
  const byExternal = new Map(existing.map((p) => [p.externalId, p]));
  const listedPrices: string[] = [];
  for (const entry of entries) {
    const found = byExternal.get(entry.externalId);
    let productId: string;
    const wanted = {
      name: entry.name,
      features: entry.features,
      limits: entry.limits,
      active: true,
      position: entry.position,
    };
    if (!found) {
      const [row] = await db
        .insert(products)
        .values({ externalId: entry.externalId, ...wanted })
        .onConflictDoUpdate({ target: products.externalId, set: wanted })
        .returning({ id: products.id });
      productId = row!.id;
    } else {
      productId = found.id;
      const same =
        found.name === wanted.name &&
        JSON.stringify(found.features) === JSON.stringify(wanted.features) &&
        JSON.stringify(sortKeys(found.limits)) === JSON.stringify(sortKeys(wanted.limits)) &&
        found.active &&
        found.position === wanted.position;
      if (!same) await db.update(products).set(wanted).where(eq(products.id, productId));
    }
    for (const price of entry.prices) {
      listedPrices.push(price.externalId);
      const [current] = await db
        .select({
          productId: prices.productId,
          currency: prices.currency,
          interval: prices.interval,
          amount: prices.amount,
          active: prices.active,
        })
        .from(prices)
        .where(eq(prices.externalId, price.externalId));
      const values = {
        productId,
        currency: price.currency,
        interval: price.interval,
        intervalCount: 1,
        amount: price.amount,
        unitLabel: 'seat',
        active: true,
      };
      if (!current) {
        await db
          .insert(prices)
          .values({ externalId: price.externalId, ...values })
          .onConflictDoUpdate({ target: prices.externalId, set: values });
      } else if (
        current.productId !== productId ||
        current.currency !== price.currency ||
        current.interval !== price.interval ||
        current.amount !== price.amount ||
        !current.active
      ) {
        await db.update(prices).set(values).where(eq(prices.externalId, price.externalId));
      }
    }
  }
  const listedProducts = entries.map((e) => e.externalId);
  await db
    .update(products)
    .set({ active: false })
    .where(
      and(
        eq(products.active, true),
        listedProducts.length ? notInArray(products.externalId, listedProducts) : undefined,
      ),
    );
  await db
    .update(prices)
    .set({ active: false })
    .where(
      and(
        eq(prices.active, true),
        listedPrices.length ? notInArray(prices.externalId, listedPrices) : undefined,
      ),
    );
}

function sortKeys(value: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).sort(([a], [b]) => a.localeCompare(b)));
}

/** A price of the catalogue by the provider's id, with its product's name and limits. */
export async function findCataloguePrice(
  db: Executor,
  externalPriceId: string,
): Promise<CataloguePriceRecord | null> {
  const [row] = await db
    .select({
      priceId: prices.id,
      externalPriceId: prices.externalId,
      productName: products.name,
      currency: prices.currency,
      interval: prices.interval,
      intervalCount: prices.intervalCount,
      amount: prices.amount,
      unitLabel: prices.unitLabel,
      limits: products.limits,
    })
    .from(prices)
    .innerJoin(products, eq(products.id, prices.productId))
    .where(eq(prices.externalId, externalPriceId));
  return row ? { ...row, externalPriceId: row.externalPriceId ?? externalPriceId } : null;
}

/** The active prices of a catalogue product, by the provider's product id (monthly first). */
export async function findProductPrices(
  db: Executor,
  externalProductId: string,
): Promise<CataloguePriceRecord[]> {
  const rows = await db
    .select({
      priceId: prices.id,
      externalPriceId: prices.externalId,
      productName: products.name,
      currency: prices.currency,
      interval: prices.interval,
      intervalCount: prices.intervalCount,
      amount: prices.amount,
      unitLabel: prices.unitLabel,
      limits: products.limits,
    })
    .from(prices)
    .innerJoin(products, eq(products.id, prices.productId))
    .where(and(eq(products.externalId, externalProductId), eq(prices.active, true)));
  return rows
    .map((row) => ({ ...row, externalPriceId: row.externalPriceId ?? '' }))
    .sort((a, b) => (a.interval === b.interval ? 0 : a.interval === 'month' ? -1 : 1));
}
