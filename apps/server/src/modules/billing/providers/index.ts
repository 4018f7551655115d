import type { BillingConfig } from '../../../config';
import type { BillingProvider } from '../billing-provider';
import { createLocalProvider } from './local-provider';
import { createStripeProvider } from './stripe-provider';

/** The provider BILLING_PROVIDER names (docs/adr/0016-billing-providers.md). */
export function createBillingProvider(config: BillingConfig): BillingProvider {
  if (config.provider === 'stripe') {
    // loadConfig refuses BILLING_PROVIDER=stripe without its keys.
    const stripe = config.stripe!;
    return createStripeProvider({
      secretKey: stripe.secretKey,
      webhookSecret: stripe.webhookSecret,
      ...(stripe.apiUrl ? { apiUrl: stripe.apiUrl } : {}),
    });
  }
  return createLocalProvider({ catalogue: config.catalogue });
}
