import type { BillingConfig } from '../../../config';
import type { BillingProvider } from '../billing-provider';
import { createLocalProvider } from './local-provider';

/** The provider BILLING_PROVIDER names (docs/adr/0016-billing-providers.md). */
export function createBillingProvider(config: BillingConfig): BillingProvider {
  if (config.provider === 'stripe') {
    // loadConfig refuses BILLING_PROVIDER=stripe without its keys.
    const stripe = config.stripe!;
    // The stripe package is large: it loads with the provider's first call, only where it is used.
    let loaded: Promise<BillingProvider> | null = null;
    const provider = () =>
      (loaded ??= import('./stripe-provider').then(({ createStripeProvider }) =>
        createStripeProvider({
          secretKey: stripe.secretKey,
          webhookSecret: stripe.webhookSecret,
          ...(stripe.apiUrl ? { apiUrl: stripe.apiUrl } : {}),
        }),
      ));
    return {
      kind: 'stripe',
      products: async () => (await provider()).products(),
      manageUrl: async (customer, urls) => (await provider()).manageUrl(customer, urls),
      changeUrl: async (customer, priceId, urls) => (await provider()).changeUrl(customer, priceId, urls),
      verifyWebhook: async (rawBody, signature) => (await provider()).verifyWebhook!(rawBody, signature),
    };
  }
  return createLocalProvider({ catalogue: config.catalogue });
}
