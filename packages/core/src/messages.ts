/**
 * The sentences both the server and the dashboard say, worded once (docs/product.md §8): the server
 * refuses with them and the dashboard shows the same words before asking. A test
 * (`contracts.test.ts`) fails when one of them is written out again under `apps/`. Plain strings
 * only, so the dashboard's first load can import this module without any schema.
 */
import type { NumericLimitKey } from './limits';

/** The toast for an inactive subscription, and the title of every change refused meanwhile (docs/product.md §4). */
export const INACTIVE_ACCOUNT = 'Your account is inactive. Please purchase a subscription.';

/** Why the audit log is not shown, and the server's refusal of it, on a plan without `auditLog` (docs/product.md §2). */
export const AUDIT_NOT_ON_PLAN = 'Audit logs are not available with the current plan.';

/** Why New Experiment is disabled on a plan without `variantTesting`; the server's refusal begins so. */
export const EXPERIMENTS_NOT_IN_PLAN = 'Experiments are not available on your current plan.';

/** The Roles tab for others than organisation admins, and the server's refusal of the roles API. */
export const ROLES_ADMINS_ONLY = 'Only organisation admins may manage roles.';

/** docs/product.md §8 "Billing portal failure dialog": its words, and the 503's title when the provider fails. */
export const BILLING_PORTAL_UNAVAILABLE =
  'Sorry, we were unable to access the billing portal. Please try again later.';

/** A price that no plan on sale has: the provider's refusal and the dashboard's checkout page. */
export const PLAN_NOT_ON_SALE = 'This plan is not on sale.';

/** docs/product.md §8: the answer to a wrong e-mail or password, whichever was wrong. */
export const LOGIN_FAILED_MESSAGE = 'The email and password combination you have provided is invalid.';

/** What each numeric limit counts, for the "Only {n} …(s) allowed." message (docs/product.md §8 "Feature limit"). */
export const LIMIT_NOUNS: Readonly<Record<NumericLimitKey, string>> = {
  maxOrganisationUsers: 'user',
  maxApplicationUniqueUsers: 'application user',
  maxImpressions: 'impression',
  maxProjects: 'project',
  maxEnvironments: 'environment',
  maxFeatures: 'feature',
};

/**
 * `Only 1 project(s) allowed.`: the wording of docs/product.md §8's feature limit, for every limit; the
 * server refuses with it and the dashboard explains a disabled create button with it.
 */
export function limitMessage(key: NumericLimitKey, limit: number): string {
  return `Only ${limit} ${LIMIT_NOUNS[key]}(s) allowed.`;
}

/** docs/product.md §2: the confirmation before a change in a production environment (a switch, a save, a restore). */
export function productionWarning(name: string, environmentName: string): string {
  return `Warning, this is a production environment. Are you sure you wish to update ${name} in ${environmentName}?`;
}
