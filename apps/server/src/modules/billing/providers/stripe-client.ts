import Stripe from 'stripe';
import { BillingProviderUnavailable } from '../billing-provider';

/*
 * Talking to Stripe's API for the `stripe` provider (stripe-provider.ts): where the API is, how an
 * object's reference reads, and what a failed request means for the user and the logs.
 */

/** The Stripe client's connection options for an API URL such as `http://127.0.0.1:12111`. */
export function connection(
  apiUrl: string | undefined,
): Pick<Stripe.StripeConfig, 'host' | 'port' | 'protocol'> {
  if (!apiUrl) return {};
  const url = new URL(apiUrl);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return { host: url.hostname, port: url.port || (protocol === 'http' ? 80 : 443), protocol };
}

export function idOf(value: string | { id: string } | null | undefined): string | null {
  if (!value) return null;
  return typeof value === 'string' ? value : value.id;
}

/** What went wrong, for the logs: Stripe's status, type and code, never a key or a customer's data. */
export function describe(error: unknown): string {
  if (error instanceof Stripe.errors.StripeError) {
    const parts = [error.statusCode ? String(error.statusCode) : null, error.type, error.code ?? null];
    return parts.filter(Boolean).join(' ');
  }
  return error instanceof Error ? error.name : 'unknown error';
}

export function unavailable(action: string, error: unknown): BillingProviderUnavailable {
  if (error instanceof BillingProviderUnavailable) return error;
  return new BillingProviderUnavailable(`Stripe could not ${action} (${describe(error)}).`, { cause: error });
}

/** Stripe refused the request itself (a declined card, an unknown price): the user is told why. */
export function isRefusal(error: unknown): error is Stripe.errors.StripeError {
  return (
    error instanceof Stripe.errors.StripeCardError || error instanceof Stripe.errors.StripeInvalidRequestError
  );
}

export function isMissing(error: unknown, param?: string): boolean {
  return (
    error instanceof Stripe.errors.StripeInvalidRequestError &&
    error.code === 'resource_missing' &&
    (param === undefined || error.param === param)
  );
}
