import type { RouteObject } from 'react-router';
import { notifications } from '@mantine/notifications';
import type {
  BillingInfo,
  InitialPayload,
  PlanChangePreview,
  Product,
  Subscription,
  Usage,
} from '@vexil/core';
import { closeAllModals } from '../lib/modals';
import { initialPayload, jsonResponse, renderRoute, stubApi } from './test-utils';
import { BillingAdmin } from '../features/billing/components/billing-admin';
import { LocalCheckoutPage } from '../features/billing/components/local-checkout-page';
import { LocalManagePage } from '../features/billing/components/local-manage-page';

/*
 * Stands in for the billing API in the Billing pages' tests: the plans on sale, the billing information,
 * the usage, the sales contact, what a change of plan would mean, and the calls that answer where to go.
 * Handlers given to serveBilling replace the default ones.
 */

/** The sales contact the server names unless a test says otherwise (BILLING_SALES_CONTACT). */
export const SALES_CONTACT = 'mailto:sales@acme.example?subject=Vexil%20plans';

export type ApiHandler = Parameters<typeof stubApi>[0][string];

/** The Team plan of the local provider's built-in catalogue: $20 a seat a month, $192 a seat a year. */
export const team: Product = {
  id: 'local-team',
  name: 'Team',
  features: ['Unlimited features', 'Audit log'],
  prices: {
    month: { id: 'local-team-month', amount: 2000, currency: 'usd', interval: 'month' },
    year: { id: 'local-team-year', amount: 19200, currency: 'usd', interval: 'year' },
  },
};

/** A plan sold monthly only. */
export const growth: Product = {
  id: 'local-growth',
  name: 'Growth',
  features: [],
  prices: { month: { id: 'local-growth-month', amount: 4950, currency: 'usd', interval: 'month' } },
};

export const noBillingInfo: BillingInfo = { lastFour: null, brand: null, customer: null };

export const cardInfo: BillingInfo = {
  lastFour: '4242',
  brand: 'visa',
  customer: { email: 'billing@example.com', name: 'Ada Lovelace', phone: '+44 20 7946 0000' },
};

export function usageFixture(overrides: Partial<Usage> = {}): Usage {
  return {
    seats: 2,
    projectsUsed: 1,
    environmentsUsed: 2,
    featuresUsed: 12,
    applicationUniqueUsersUsed: 1500,
    impressionsUsed: 250_000,
    periodStart: '2026-11-01T00:00:00.000Z',
    periodEnd: '2026-12-01T00:00:00.000Z',
    warnings: [],
    ...overrides,
  };
}

/** The Team plan, paid monthly for `quantity` seats, with these limits. */
export function subscriptionFixture(overrides: Partial<Subscription> = {}): Subscription {
  return {
    id: 'sub_local_1',
    status: 'active',
    quantity: 2,
    total: 4000,
    percentOff: null,
    amountOff: null,
    inTrial: false,
    daysUntilEndOfTrial: null,
    price: {
      productName: 'Team',
      currency: 'usd',
      interval: 'month',
      intervalCount: 1,
      amount: 2000,
      unitLabel: null,
    },
    limits: {
      maxOrganisationUsers: null,
      auditLog: true,
      variantTesting: true,
      maxApplicationUniqueUsers: 100_000,
      maxImpressions: 10_000_000,
      maxProjects: 10,
      maxEnvironments: 50,
      maxFeatures: null,
    },
    ...overrides,
  };
}

export function billingPayload(subscription: Subscription | null = subscriptionFixture()): InitialPayload {
  return initialPayload({ subscription });
}

export function serveBilling(
  options: {
    payload?: InitialPayload;
    products?: Product[];
    info?: BillingInfo;
    usage?: Usage;
    /** BILLING_SALES_CONTACT as the server answers it; null when unset. */
    salesContact?: string | null;
    /** What a change of plan would mean; by default nothing passes the plan and nothing is lost. */
    preview?: PlanChangePreview;
    handlers?: Record<string, ApiHandler>;
  } = {},
) {
  const payload = options.payload ?? billingPayload();
  return stubApi({
    'GET /api/v1/initial': () => jsonResponse(200, payload),
    'GET /api/v1/products/': () => jsonResponse(200, options.products ?? [team]),
    'GET /api/v1/billing/info': () => jsonResponse(200, options.info ?? noBillingInfo),
    'GET /api/v1/billing/usage': () => jsonResponse(200, options.usage ?? usageFixture()),
    'GET /api/v1/billing/sales-contact': () =>
      jsonResponse(200, { url: options.salesContact === undefined ? SALES_CONTACT : options.salesContact }),
    'GET /api/v1/billing/change-preview': () =>
      jsonResponse(
        200,
        options.preview ?? { plan: 'Team', exceeded: [], lost: [], confirmsAtCheckout: true },
      ),
    ...options.handlers,
  });
}

/** The billing pages as the admin routes mount them (without the admin tabs around them). */
export const billingRoutes: RouteObject[] = [
  { path: 'admin/billing', element: <BillingAdmin /> },
  { path: 'admin/billing/manage', element: <LocalManagePage /> },
  { path: 'admin/billing/checkout', element: <LocalCheckoutPage /> },
  { path: 'admin/projects', element: <p>Projects admin</p> },
];

export function renderBilling(path = '/admin/billing') {
  return renderRoute(billingRoutes, path);
}

/** Toasts and the modal stack outlive a rendered tree; each test starts without them. */
export function resetOverlays(): void {
  notifications.clean();
  closeAllModals();
}
