import { z } from 'zod';
import { MAX_LENGTH, text } from './common';

/** Subscription states; `inactive` means the trial expired (docs/product.md §4). */
export const SUBSCRIPTION_STATUSES = ['active', 'inactive'] as const;
/** One of {@link SUBSCRIPTION_STATUSES}. */
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/** Price billing intervals. */
export const PRICE_INTERVALS = ['month', 'year'] as const;

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
});
/** Type of {@link limitsSchema}. */
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

/** Response of GET /api/v1/billing/usage. */
export const usageSchema = z.object({
  seats: count,
  projectsUsed: count,
  environmentsUsed: count,
  featuresUsed: count,
  applicationUniqueUsersUsed: count,
  impressionsUsed: count,
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
