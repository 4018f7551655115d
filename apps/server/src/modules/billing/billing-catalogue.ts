import type { Database } from '../../db/client';
import { FREE_PLAN_ID, LOCAL_ID_PREFIX, type BillingCatalogue } from '../../plans/catalogue';
import type { PlanChoice } from '../subscriptions/plan-columns';
import { completeLimits } from '../subscriptions/subscription-state';
import type { BillingProvider } from './billing-provider';
import * as catalogueRepo from './billing-catalogue.repository';
import type { CataloguePriceRecord, Logger } from './billing.types';

export type BillingCatalogueSync = ReturnType<typeof createBillingCatalogueSync>;

/**
 * The catalogue tables (products and prices) made to say what the provider sells, and the plans
 * and prices found in them: for the webhooks, the Billing tab and `npm run billing -- set-plan`.
 */
export function createBillingCatalogueSync(deps: {
  db: Database;
  provider: BillingProvider;
  catalogue: BillingCatalogue;
  logger: Logger;
}) {
  const { db, provider, catalogue, logger } = deps;

  /** The catalogue tables made to say what the provider sells. */
  async function syncCatalogue(): Promise<void> {
    const listed = await provider.products();
    await db.transaction((tx) =>
      catalogueRepo.syncCatalogue(
        tx,
        listed.map((product, position) => ({
          externalId: product.id,
          name: product.name,
          features: product.features,
          limits: product.limits ?? {},
          position,
          prices: Object.values(product.prices)
            .filter((price) => price !== undefined)
            .map((price) => ({
              externalId: price.id,
              currency: price.currency,
              interval: price.interval,
              amount: price.amount,
            })),
        })),
      ),
    );
  }

  /** Syncs the catalogue; a provider out of reach is logged and leaves the tables as they were. Whether it synced. */
  async function trySyncCatalogue(): Promise<boolean> {
    try {
      await syncCatalogue();
      return true;
    } catch (error) {
      logger.warn(
        { provider: provider.kind, error: error instanceof Error ? error.message : String(error) },
        'the billing catalogue could not be refreshed',
      );
      return false;
    }
  }

  return {
    syncCatalogue,
    trySyncCatalogue,

    /** A catalogue price by the provider's id, syncing the catalogue once if it is not there yet. */
    async cataloguePrice(externalPriceId: string): Promise<CataloguePriceRecord | null> {
      const found = await catalogueRepo.findCataloguePrice(db, externalPriceId);
      if (found) return found;
      if (!(await trySyncCatalogue())) return null;
      return catalogueRepo.findCataloguePrice(db, externalPriceId);
    },

    /** The catalogue price row of a local price id (`local-team-month`), once synced. */
    async priceRowId(priceId: string): Promise<string | null> {
      return (await catalogueRepo.findCataloguePrice(db, priceId))?.priceId ?? null;
    },

    /** The plan a catalogue or provider product id names: `free`, `local-team`, `team`, or a synced id. */
    async choiceOf(plan: string): Promise<PlanChoice | null> {
      if (plan === FREE_PLAN_ID) return { kind: 'free' };
      const local = catalogue.plans.find(
        (p) =>
          p.id === plan ||
          p.id === `${LOCAL_ID_PREFIX}${plan}` ||
          p.prices.month?.id === plan ||
          p.prices.year?.id === plan,
      );
      if (local) {
        const interval =
          local.prices.year?.id === plan ? 'year' : local.prices.month ? 'month' : ('year' as const);
        const row = await catalogueRepo.findCataloguePrice(db, local.prices[interval]!.id);
        return { kind: 'plan', plan: local, interval, priceRowId: row?.priceId ?? null };
      }
      const synced =
        (await catalogueRepo.findProductPrices(db, plan))[0] ??
        (await catalogueRepo.findCataloguePrice(db, plan));
      if (!synced) return null;
      return {
        kind: 'plan',
        interval: synced.interval,
        priceRowId: synced.priceId,
        plan: {
          id: plan,
          name: synced.productName,
          features: [],
          limits: completeLimits(synced.limits),
          prices: { [synced.interval]: { id: synced.externalPriceId, amount: synced.amount } },
        },
      };
    },
  };
}
