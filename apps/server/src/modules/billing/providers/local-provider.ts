import { FREE_PRICE_ID } from '@vexil/core';
import { SubscriptionChangeRefused, type BillingProvider } from '../billing-provider';
import { catalogueProducts, findCataloguePrice, type BillingCatalogue } from '../../../plans/catalogue';

/** The dashboard's page for "Manage Billing Details" with the local provider: the billing contact kept here. */
export const LOCAL_MANAGE_PATH = '/admin/billing/manage';
/** The dashboard's confirmation page for "Update Subscription" with the local provider. */
export const LOCAL_CHECKOUT_PATH = '/admin/billing/checkout';

/**
 * The `local` billing provider, the self-hosting default (docs/adr/0016-billing-providers.md): plans,
 * prices and limits from the catalogue (BILLING_PLANS_FILE or the built-in one), nothing paid anywhere.
 * "Manage Billing Details" and "Update Subscription" open pages of the dashboard itself; the checkout
 * page confirms with POST /api/v1/billing/local/subscribe, which the billing service applies at once.
 * It sends no webhooks.
 */
export function createLocalProvider(deps: { catalogue: BillingCatalogue }): BillingProvider & {
  readonly kind: 'local';
} {
  const { catalogue } = deps;
  return {
    kind: 'local',

    async products() {
      const limitsById = new Map(catalogue.plans.map((plan) => [plan.id, plan.limits]));
      return catalogueProducts(catalogue).map((product) => ({
        ...product,
        limits: { ...limitsById.get(product.id)! },
      }));
    },

    async manageUrl() {
      return { url: LOCAL_MANAGE_PATH, externalCustomerId: null };
    },

    async changeUrl(_customer, priceId) {
      if (priceId !== FREE_PRICE_ID && !findCataloguePrice(catalogue, priceId))
        throw new SubscriptionChangeRefused(`There is no plan with the price "${priceId}".`);
      return {
        url: `${LOCAL_CHECKOUT_PATH}?price=${encodeURIComponent(priceId)}`,
        externalCustomerId: null,
      };
    },
  };
}
