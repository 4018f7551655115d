import { z } from 'zod';
import { COUNTED_LIMIT_KEYS, MONTHLY_LIMIT_KEYS, PRICE_INTERVALS, type PlanLimits } from '../limits';
import { MAX_LENGTH, optionalText, text } from './common';

/** Subscription states; `inactive` means the trial expired (docs/product.md §4). */
export const SUBSCRIPTION_STATUSES = ['active', 'inactive'] as const;
/** One of {@link SUBSCRIPTION_STATUSES}. */
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

const count = z.number().int().min(0);
const countLimit = count.nullable();

/** Plan limits; `null` means unlimited (docs/product.md §9). */
export const limitsSchema = z.object({
  maxOrganisationUsers: countLimit,
  auditLog: z.boolean(),
  variantTesting: z.boolean(),
  maxApplicationUniqueUsers: countLimit,
  maxImpressions: countLimit,
  maxProjects: countLimit,
  maxEnvironments: countLimit,
  maxFeatures: countLimit,
}) satisfies z.ZodType<PlanLimits>;
/** Type of {@link limitsSchema}: core's {@link PlanLimits}. */
export type Limits = z.infer<typeof limitsSchema>;

/** Price of a subscription; `amount` is in cents. */
export const subscriptionPriceSchema = z.object({
  productName: z.string(),
  currency: z.string(),
  interval: z.enum(PRICE_INTERVALS),
  intervalCount: z.number().int().min(1),
  amount: count,
  unitLabel: z.string().nullable(),
});
/** Type of {@link subscriptionPriceSchema}. */
export type SubscriptionPrice = z.infer<typeof subscriptionPriceSchema>;

/**
 * The organisation's subscription (docs/product.md §3). Amounts are in cents. Ids here and in products are
 * the payment provider's, not UUIDs.
 */
export const subscriptionSchema = z.object({
  id: z.string(),
  status: z.enum(SUBSCRIPTION_STATUSES),
  quantity: count,
  total: count,
  percentOff: z.number().min(0).max(100).nullable(),
  amountOff: count.nullable(),
  inTrial: z.boolean(),
  daysUntilEndOfTrial: count.nullable(),
  price: subscriptionPriceSchema.nullable(),
  limits: limitsSchema,
});
/** Type of {@link subscriptionSchema}. */
export type Subscription = z.infer<typeof subscriptionSchema>;

/** The words shown to others than organisation admins on the Billing tab (docs/product.md §2). */
export const BILLING_ADMIN_ONLY = 'Only organisation admins may manage billing...';

/** A monthly limit reached this month (GET /api/v1/billing/usage, with the impressions-limits flag on). */
export const usageWarningSchema = z.object({
  key: z.enum(MONTHLY_LIMIT_KEYS),
  used: count,
  limit: count,
  message: z.string(),
});
/** Type of {@link usageWarningSchema}. */
export type UsageWarning = z.infer<typeof usageWarningSchema>;

/**
 * Response of GET /api/v1/billing/usage. `seats` counts members and pending invitations,
 * `environmentsUsed` the environments of every project; application users and impressions are those
 * of the current calendar month in UTC, from `periodStart` (inclusive) to `periodEnd` (exclusive).
 */
export const usageSchema = z.object({
  seats: count,
  projectsUsed: count,
  environmentsUsed: count,
  featuresUsed: count,
  applicationUniqueUsersUsed: count,
  impressionsUsed: count,
  periodStart: z.string(),
  periodEnd: z.string(),
  warnings: z.array(usageWarningSchema),
});
/** Type of {@link usageSchema}. */
export type Usage = z.infer<typeof usageSchema>;

/** Response of GET /api/v1/billing/info; all `null` when the account has no billing information. */
export const billingInfoSchema = z.object({
  lastFour: z.string().nullable(),
  brand: z.string().nullable(),
  customer: z
    .object({ email: z.string().nullable(), name: z.string().nullable(), phone: z.string().nullable() })
    .nullable(),
});
/** Type of {@link billingInfoSchema}. */
export type BillingInfo = z.infer<typeof billingInfoSchema>;

/** One price of a product; `amount` is in cents. */
export const productPriceSchema = z.object({
  id: z.string(),
  amount: count,
  currency: z.string(),
  interval: z.enum(PRICE_INTERVALS),
});
/** Type of {@link productPriceSchema}. */
export type ProductPrice = z.infer<typeof productPriceSchema>;

/** A plan on sale (GET /api/v1/products/); `prices` is keyed by interval. */
export const productSchema = z.object({
  id: z.string(),
  name: z.string(),
  features: z.array(z.string()),
  prices: z.partialRecord(z.enum(PRICE_INTERVALS), productPriceSchema),
});
/** Type of {@link productSchema}. */
export type Product = z.infer<typeof productSchema>;

/** Body of POST /api/v1/billing/subscription/change. */
export const changeSubscriptionInput = z.object({
  subscriptionId: text({ max: MAX_LENGTH.name, required: 'Subscription is required' }),
});
/** Type of {@link changeSubscriptionInput}. */
export type ChangeSubscriptionInput = z.infer<typeof changeSubscriptionInput>;

/** The price id of the Free plan, which the local provider's checkout accepts. */
export const FREE_PRICE_ID = 'free';

/**
 * Body of POST /api/v1/billing/local/subscribe (the local provider's checkout page): the price chosen
 * (a product's price id, or `free`) and, optionally, the seats to pay for (default: those in use).
 */
export const localSubscribeInput = z.object({
  priceId: text({ max: MAX_LENGTH.name, required: 'Plan is required' }),
  seats: z
    .number({ error: 'Seats must be a number.' })
    .int('Seats must be a whole number.')
    .min(1, 'Seats must be at least 1.')
    .max(100_000, 'Seats must be at most 100,000.')
    .optional(),
});
/** Type of {@link localSubscribeInput}. */
export type LocalSubscribeInput = z.infer<typeof localSubscribeInput>;

/** Body of PUT /api/v1/billing/local/contact (the local provider's Manage Billing Details page). */
export const billingContactInput = z.object({
  /** Blank, or an e-mail address. */
  email: text({ max: MAX_LENGTH.email })
    .pipe(z.union([z.literal(''), z.email({ error: 'Email must be valid' })]))
    .default(''),
  name: optionalText(MAX_LENGTH.name),
  phone: optionalText(40),
});
/** Type of {@link billingContactInput}. */
export type BillingContactInput = z.infer<typeof billingContactInput>;

/**
 * Response of GET /api/v1/billing/limits, for every member: the counts the plan's limits on creating
 * are checked against (seats, projects, environments, features), so that a create button can say it
 * is disabled by the plan before the server refuses. The monthly traffic stays in the admins' usage.
 */
export const planCountsSchema = usageSchema.pick({
  seats: true,
  projectsUsed: true,
  environmentsUsed: true,
  featuresUsed: true,
});
/** Type of {@link planCountsSchema}. */
export type PlanCounts = z.infer<typeof planCountsSchema>;

/**
 * Response of GET /api/v1/billing/sales-contact: where the Enterprise card's and the change-failure
 * dialog's "Contact us" lead (BILLING_SALES_CONTACT, a mailto: or https: address); null hides them.
 */
export const salesContactSchema = z.object({ url: z.string().nullable() });
/** Type of {@link salesContactSchema}. */
export type SalesContact = z.infer<typeof salesContactSchema>;

/** A counted limit the organisation already passes on the plan it would move to. */
export const planExcessSchema = z.object({
  key: z.enum(COUNTED_LIMIT_KEYS),
  used: count,
  limit: count,
  message: z.string(),
});
/** Type of {@link planExcessSchema}. */
export type PlanExcess = z.infer<typeof planExcessSchema>;

/** Something the organisation has now and would not have on the plan it would move to. */
export const planLossSchema = z.object({
  key: z.enum(['auditLog', 'variantTesting', 'trial']),
  message: z.string(),
});
/** Type of {@link planLossSchema}. */
export type PlanLoss = z.infer<typeof planLossSchema>;

/**
 * Response of GET /api/v1/billing/change-preview?price={priceId}: what moving to that price's plan
 * would mean, said before the change: the limits the organisation already passes there, and what it
 * would lose (the audit log, experiments, the rest of its trial).
 */
export const planChangePreviewSchema = z.object({
  plan: z.string(),
  exceeded: z.array(planExcessSchema),
  lost: z.array(planLossSchema),
  /**
   * True when the change goes through the dashboard's own checkout page, which says all this before
   * Confirm (the local provider); false when choosing the plan changes it at once or leaves for the
   * provider's checkout, so the Plans section must say it first.
   */
  confirmsAtCheckout: z.boolean(),
});
/** Type of {@link planChangePreviewSchema}. */
export type PlanChangePreview = z.infer<typeof planChangePreviewSchema>;
