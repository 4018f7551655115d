/**
 * What the Stripe provider tests share: a fake Stripe with a catalogue of plans and of products that are
 * not plans, and providers and customers for it.
 */
import { afterAll, afterEach, beforeAll } from 'vitest';
import { randomUUID } from 'node:crypto';
import type { BillingCustomer } from '../billing-provider';
import { startFakeStripe, type FakeStripe } from '../../../../test/fake-stripe';
import { createStripeProvider, type StripeProviderOptions } from './stripe-provider';

export const URLS = {
  returnUrl: 'http://acme.vexil.test/admin/billing',
  successUrl: 'http://acme.vexil.test/admin/billing?purchase=success',
  cancelUrl: 'http://acme.vexil.test/admin/billing?purchase=cancelled',
};

export let stripe: FakeStripe;
export let starter: { product: { id: string }; prices: { id: string }[] };
export let pro: { product: { id: string }; prices: { id: string }[] };
export let declining: { product: { id: string }; prices: { id: string }[] };

export function provider(overrides: Partial<StripeProviderOptions> = {}) {
  return createStripeProvider({
    secretKey: stripe.secretKey,
    webhookSecret: stripe.webhookSecret,
    apiUrl: stripe.url,
    maxNetworkRetries: 0,
    ...overrides,
  });
}

export function customer(overrides: Partial<BillingCustomer> = {}): BillingCustomer {
  return {
    organisationId: randomUUID(),
    organisationName: 'Acme Ltd',
    email: 'ada@acme.test',
    externalCustomerId: null,
    externalSubscriptionId: null,
    seats: 3,
    ...overrides,
  };
}

/** What the fake received since `from` for `method path`. */
export function received(method: string, path: string, from = 0) {
  return stripe.requests.slice(from).filter((r) => r.method === method && r.path === path);
}

export async function refusal(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error,
  );
}

/**
 * Starts the fake Stripe, with its catalogue, for the calling test file, and clears after each test any
 * failure it was told to answer.
 */
export function setUpFakeStripe(): void {
  beforeAll(async () => {
    stripe = await startFakeStripe();
    starter = stripe.addProduct({
      name: 'Start-Up',
      marketingFeatures: ['3 projects', 'Audit log'],
      prices: [
        { interval: 'month', amount: 4500 },
        { interval: 'year', amount: 45_000 },
      ],
    });
    pro = stripe.addProduct({
      name: 'Scale-Up',
      metadata: {
        features: 'Unlimited projects\nVariant testing',
        maxProjects: 'unlimited',
        maxEnvironments: '50',
        maxImpressions: '10,000,000',
        auditLog: 'true',
        variantTesting: 'true',
      },
      prices: [
        { interval: 'month', amount: 2900 }, // superseded below by the default price
        { interval: 'month', amount: 9900 },
        { interval: 'year', amount: 99_000 },
      ],
      defaultPrice: 1,
    });
    declining = stripe.addProduct({
      name: 'Declined',
      prices: [{ interval: 'month', amount: 12_000, declines: true }],
    });
    // Not plans: archived, one-off, metered, weekly, or without any price.
    stripe.addProduct({ name: 'Archived', active: false, prices: [{ interval: 'month', amount: 100 }] });
    stripe.addProduct({ name: 'Weekly', prices: [{ interval: 'week', amount: 100 }] });
    stripe.addProduct({ name: 'Quarterly', prices: [{ interval: 'month', intervalCount: 3, amount: 100 }] });
    stripe.addProduct({ name: 'Custom', prices: [{ interval: 'month', amount: null }] });
    stripe.addProduct({ name: 'Nothing', prices: [] });
    const retired = stripe.addProduct({
      name: 'Retired price',
      prices: [{ interval: 'month', amount: 100 }],
    });
    stripe.archivePrice(retired.prices[0]!.id);
  });
  afterAll(async () => {
    await stripe?.close();
  });
  afterEach(() => {
    stripe.failWith(null);
  });
}
