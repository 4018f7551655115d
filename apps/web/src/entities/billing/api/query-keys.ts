/**
 * The billing domain's cache keys: the plans on sale, the billing contact and card, the usage, the
 * counts every member may read, the sales contact and what a change of plan would mean.
 */
export const billingKeys = {
  all: ['billing'] as const,
  products: () => [...billingKeys.all, 'products'] as const,
  info: () => [...billingKeys.all, 'info'] as const,
  usage: () => [...billingKeys.all, 'usage'] as const,
  counts: () => [...billingKeys.all, 'counts'] as const,
  salesContact: () => [...billingKeys.all, 'sales-contact'] as const,
  changePreview: (priceId: string) => [...billingKeys.all, 'change-preview', priceId] as const,
};
