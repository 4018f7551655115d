import { BILLING_PORTAL_UNAVAILABLE } from '@vexil/core';
import { AppError } from '../../errors';

/*
 * What billing's services say: the titles of their refusals (the audit log's words are billing-audit.ts).
 */

/** docs/product.md §8: core's billing portal failure dialog's words, also the 503's title. */
export { BILLING_PORTAL_UNAVAILABLE };
/** The title of a refused change; the dialog shows "We could not update this subscription: " and the detail. */
export const CHANGE_REFUSED_TITLE = 'We could not update this subscription.';
export const BILLING_TURNED_OFF = 'Billing is turned off on this server.';
export const NOT_LOCAL_PROVIDER = 'This server’s plans are sold by its payment provider, not chosen here.';

/** 400 `subscription_change_refused`, whose detail the change dialog shows. */
export function changeRefused(detail: string): AppError {
  return new AppError(400, CHANGE_REFUSED_TITLE, detail, undefined, 'subscription_change_refused');
}

/** 503 `billing_unavailable`: the provider could not be reached or answered an error. */
export function providerUnavailable(detail?: string): AppError {
  return new AppError(503, BILLING_PORTAL_UNAVAILABLE, detail, undefined, 'billing_unavailable');
}
