import type { Limits } from '@vexil/core';
import {
  WebhookSignatureInvalid,
  type BillingCustomer,
  type BillingProvider,
  type CatalogueProduct,
  type ProviderEvent,
  type ReturnUrls,
  type SubscriptionChange,
} from '../src/modules/billing/billing-provider';

/** A signature the fake provider accepts; anything else is refused like a forged one. */
export const FAKE_SIGNATURE = 't=1,v1=fake-and-valid';

/** A paid plan as a provider such as Stripe lists it, with limits. */
export const FAKE_PRODUCTS: CatalogueProduct[] = [
  {
    id: 'prod_pro',
    name: 'Pro',
    features: ['Everything'],
    prices: {
      month: { id: 'price_pro_month', amount: 3000, currency: 'eur', interval: 'month' },
      year: { id: 'price_pro_year', amount: 30000, currency: 'eur', interval: 'year' },
    },
    limits: { maxProjects: 7, maxEnvironments: 21, auditLog: true, variantTesting: false } as Partial<Limits>,
  },
];

type Call = { method: 'manage' | 'change'; customer: BillingCustomer; urls: ReturnUrls; priceId?: string };

/**
 * A stand-in payment provider for the billing service's tests: products as given, redirect URLs
 * that name what was asked, and webhooks whose body is the event as JSON (dates as ISO strings),
 * accepted only with {@link FAKE_SIGNATURE}.
 */
export function fakeProvider(overrides: Partial<BillingProvider> = {}): BillingProvider & { calls: Call[] } {
  const calls: Call[] = [];
  return {
    kind: 'stripe',
    calls,
    async products() {
      return FAKE_PRODUCTS;
    },
    async manageUrl(customer, urls) {
      calls.push({ method: 'manage', customer, urls });
      return {
        url: 'https://billing.example.com/portal',
        externalCustomerId: customer.externalCustomerId ?? 'cus_new',
      };
    },
    async changeUrl(customer, priceId, urls) {
      calls.push({ method: 'change', customer, urls, priceId });
      return {
        url: `https://billing.example.com/checkout/${priceId}`,
        externalCustomerId: customer.externalCustomerId ?? 'cus_new',
      };
    },
    async verifyWebhook(rawBody, signature) {
      if (signature !== FAKE_SIGNATURE) throw new WebhookSignatureInvalid();
      return eventFromJson(JSON.parse(rawBody.toString('utf8')) as Record<string, unknown>);
    },
    ...overrides,
  };
}

const DATE_FIELDS = ['trialEnd', 'currentPeriodStart', 'currentPeriodEnd', 'cancelAt'] as const;

function eventFromJson(json: Record<string, unknown>): ProviderEvent {
  const change = json.change as Record<string, unknown> | null;
  if (change)
    for (const field of DATE_FIELDS)
      if (typeof change[field] === 'string') change[field] = new Date(change[field] as string);
  return { id: String(json.id), type: String(json.type), change: change as SubscriptionChange | null };
}

/** The webhook body the fake provider reads: the event, dates as ISO strings. */
export function webhookBody(event: ProviderEvent): string {
  return JSON.stringify(event);
}
