import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  billingContactInput,
  billingInfoSchema,
  changeSubscriptionInput,
  errorBodySchema,
  localSubscribeInput,
  planChangePreviewSchema,
  planCountsSchema,
  productSchema,
  salesContactSchema,
  redirectUrlSchema,
  subscriptionSchema,
  usageSchema,
} from '@vexil/core';
import { principalOf } from '../../plugins/auth';
import type { BillingAccountService } from './billing-account.service';
import type { BillingPlanService } from './billing-plan.service';

const errors = { 400: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };
const providerErrors = { ...errors, 503: errorBodySchema };
/** Stripe's events are a few kilobytes; this leaves room for large invoices. */
const WEBHOOK_BODY_LIMIT = 1024 * 1024;

/** The address the browser called, for the provider's return URLs (the service keeps only Vexil's). */
function originOf(request: FastifyRequest): string | null {
  return request.host ? `${request.protocol}://${request.host}` : null;
}

/** The Billing tab's calls, the local provider's pages' calls and the provider's webhook (docs/product.md §7). */
export function billingRoutes(deps: {
  billing: BillingAccountService;
  plans: BillingPlanService;
}): FastifyPluginAsyncZod {
  const { billing, plans } = deps;
  return async (app) => {
    app.get(
      '/api/v1/products',
      {
        schema: {
          tags: ['billing'],
          summary:
            'The plans on sale, with their monthly and yearly prices per seat in cents (organisation admins)',
          response: { 200: z.array(productSchema), ...providerErrors },
        },
      },
      async (request) => billing.products(principalOf(request)),
    );

    app.get(
      '/api/v1/billing/info',
      {
        schema: {
          tags: ['billing'],
          summary: 'The card and billing contact on file, all null when there are none (organisation admins)',
          response: { 200: billingInfoSchema, ...errors },
        },
      },
      async (request) => billing.info(principalOf(request)),
    );

    app.get(
      '/api/v1/billing/usage',
      {
        schema: {
          tags: ['billing'],
          summary:
            'What the organisation uses against its plan: seats (members and pending invitations), projects, environments, features, and this calendar month’s application users and impressions with a warning for each monthly limit reached (organisation admins)',
          response: { 200: usageSchema, ...errors },
        },
      },
      async (request) => billing.usage(principalOf(request)),
    );

    app.get(
      '/api/v1/billing/limits',
      {
        schema: {
          tags: ['billing'],
          summary:
            'The counts the plan’s creation limits are checked against (seats, projects, environments, features), for every member, so the dashboard can say a create button is disabled by the plan',
          response: { 200: planCountsSchema, ...errors },
        },
      },
      async (request) => plans.counts(principalOf(request)),
    );

    app.get(
      '/api/v1/billing/sales-contact',
      {
        schema: {
          tags: ['billing'],
          summary:
            'Where “Contact us” leads (BILLING_SALES_CONTACT), or null when the server names no sales contact (organisation admins)',
          response: { 200: salesContactSchema, ...errors },
        },
      },
      async (request) => plans.salesContact(principalOf(request)),
    );

    app.get(
      '/api/v1/billing/change-preview',
      {
        schema: {
          tags: ['billing'],
          summary:
            'What moving to the plan of the price `price` (a product’s price id, or `free`) would mean: the limits the organisation already passes there and what it would lose (organisation admins; 404 for an unknown price)',
          querystring: z.object({ price: z.string().trim().min(1, 'Plan is required').max(200) }),
          response: { 200: planChangePreviewSchema, ...errors },
        },
      },
      async (request) => plans.changePreview(principalOf(request), request.query.price),
    );

    app.post(
      '/api/v1/billing/subscription/manage',
      {
        schema: {
          tags: ['billing'],
          summary:
            '“Manage Billing Details”: the page to open (the provider’s portal, or the dashboard’s own with the local provider); 503 `billing_unavailable` when the provider cannot be reached (organisation admins)',
          response: { 200: redirectUrlSchema, ...providerErrors },
        },
        // Paying is what an inactive organisation may still do.
        config: { whileInactive: true },
      },
      async (request) => billing.manage(principalOf(request), originOf(request)),
    );

    app.post(
      '/api/v1/billing/subscription/change',
      {
        schema: {
          tags: ['billing'],
          summary:
            '“Update Subscription” to the price `subscriptionId` names (a product’s price id, or `free` with the local provider): the page to open; 400 `subscription_change_refused` with the reason in `detail` (organisation admins)',
          body: changeSubscriptionInput,
          response: { 200: redirectUrlSchema, ...providerErrors },
        },
        // Paying is what an inactive organisation may still do.
        config: { whileInactive: true },
      },
      async (request) => billing.change(principalOf(request), request.body.subscriptionId, originOf(request)),
    );

    app.post(
      '/api/v1/billing/local/subscribe',
      {
        schema: {
          tags: ['billing'],
          summary:
            'The local provider’s checkout: moves the subscription to the price at once, active, with the plan’s limits; `seats` defaults to those in use (organisation admins; 404 with another provider)',
          body: localSubscribeInput,
          response: { 200: subscriptionSchema, ...errors },
        },
        // Paying is what an inactive organisation may still do.
        config: { whileInactive: true },
      },
      async (request) => billing.localSubscribe(principalOf(request), request.body),
    );

    app.put(
      '/api/v1/billing/local/contact',
      {
        schema: {
          tags: ['billing'],
          summary:
            'The local provider’s “Manage Billing Details”: sets the billing contact, blank fields clearing theirs (organisation admins; 404 with another provider)',
          body: billingContactInput,
          response: { 200: billingInfoSchema, ...errors },
        },
        // Paying is what an inactive organisation may still do.
        config: { whileInactive: true },
      },
      async (request) => billing.localContact(principalOf(request), request.body),
    );

    // The provider's webhook reads its body as the text it signed, whatever the content type: UTF-8
    // JSON, whose bytes the text gives back exactly.
    await app.register(async (raw) => {
      raw.removeAllContentTypeParsers();
      raw.addContentTypeParser(
        '*',
        { parseAs: 'string', bodyLimit: WEBHOOK_BODY_LIMIT },
        (_request, body, done) => done(null, body),
      );
      raw.withTypeProvider<ZodTypeProvider>().post(
        '/api/v1/billing/webhook',
        {
          config: { public: true },
          schema: {
            tags: ['billing'],
            summary:
              'The payment provider’s events (Stripe: signed with `Stripe-Signature`), each applied once to the organisation’s subscription; a replay is answered 200 without effect',
            body: z.string(),
            response: {
              200: z.object({ received: z.literal(true), duplicate: z.boolean() }),
              ...providerErrors,
            },
          },
        },
        async (request) => {
          const signature = request.headers['stripe-signature'];
          return billing.webhook(
            Buffer.from(request.body, 'utf8'),
            typeof signature === 'string' ? signature : undefined,
          );
        },
      );
    });
  };
}
