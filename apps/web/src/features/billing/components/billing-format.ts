import { monthlyPricePerSeat, type PriceInterval, type Product, type ProductPrice } from '@vexil/core';

/** docs/product.md §2 "Billing": while the billing information loads. */
export const BILLING_LOADING = 'Retrieving billing information...';
/** docs/product.md §2 "Billing": an account without card or billing contact. */
export const NO_BILLING_INFO = 'This account has no billing information';
/** docs/product.md §8 "Subscription change failure dialog": followed by the server's detail. */
export const CHANGE_FAILURE_PREFIX = 'We could not update this subscription: ';

/** Words for an interval, as the Plans toggle and the prices say them. */
export const INTERVAL_LABELS: Readonly<Record<PriceInterval, string>> = { month: 'Monthly', year: 'Yearly' };

/**
 * An amount of money for people to read: `major` units of `currency` ("usd"), whole amounts without
 * decimals ("$12"), others to the cent ("$8.33"). An unknown currency code is written after the number.
 */
export function formatMoney(major: number, currency: string): string {
  const whole = Number.isInteger(major);
  const digits = { minimumFractionDigits: whole ? 0 : 2, maximumFractionDigits: whole ? 0 : 2 };
  try {
    return new Intl.NumberFormat('en-US', {
      style: 'currency',
      currency: currency.toUpperCase(),
      ...digits,
    }).format(major);
  } catch {
    return `${new Intl.NumberFormat('en-US', digits).format(major)} ${currency.toUpperCase()}`;
  }
}

/** An amount in cents (minor units), formatted. */
export function formatCents(cents: number, currency: string): string {
  return formatMoney(cents / 100, currency);
}

/** docs/product.md §9 "Plan price": per seat per month, a yearly price spread over 12 months. */
export function pricePerSeatPerMonth(price: {
  amount: number;
  currency: string;
  interval: PriceInterval;
}): string {
  return formatMoney(Math.round(monthlyPricePerSeat(price) * 100) / 100, price.currency);
}

/** The price of `product` billed every `interval`, if it is sold so. */
export function priceOf(product: Product, interval: PriceInterval): ProductPrice | undefined {
  return product.prices[interval];
}

/** Finds the product and price a price id belongs to. */
export function findPrice(
  products: readonly Product[],
  priceId: string,
): { product: Product; price: ProductPrice } | null {
  for (const product of products) {
    for (const price of Object.values(product.prices)) {
      if (price?.id === priceId) return { product, price };
    }
  }
  return null;
}

/** "1 day" / "12 days". */
export function days(n: number): string {
  return n === 1 ? '1 day' : `${n} days`;
}
