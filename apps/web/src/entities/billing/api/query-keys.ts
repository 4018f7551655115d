/** The billing domain's cache keys: the plans on sale, the billing contact and card, and the usage. */
export const billingKeys = {
  all: ['billing'] as const,
  products: () => [...billingKeys.all, 'products'] as const,
  info: () => [...billingKeys.all, 'info'] as const,
  usage: () => [...billingKeys.all, 'usage'] as const,
};
