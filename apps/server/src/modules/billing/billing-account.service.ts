import {
  BILLING_ADMIN_ONLY,
  FREE_PRICE_ID,
  MONTHLY_LIMIT_KEYS,
  can,
  withinLimit,
  type BillingContactInput,
  type BillingInfo,
  type LocalSubscribeInput,
  type Product,
  type RedirectUrl,
  type Subscription,
  type UiFlag,
  type Usage,
  type UsageWarning,
} from '@vexil/core';
import type { Database } from '../../db/client';
import { lockOrganisation } from '../../db/locks';
import { AppError, ForbiddenError, NotFoundError } from '../../errors';
import { findCataloguePrice, type BillingCatalogue } from '../../plans/catalogue';
import type { AuditService } from '../audit/audit.service';
import type { Principal } from '../auth/auth.service';
import { planColumns, type PlanChoice } from '../subscriptions/plan-columns';
import { toSubscription } from '../subscriptions/subscription-state';
import type { SubscriptionsService } from '../subscriptions/subscriptions.service';
import type { BillingDetails } from '../subscriptions/subscriptions.types';
import { createBillingAdmin } from './billing-admin';
import { auditPlan, billingAudit } from './billing-audit';
import { createBillingCatalogueSync } from './billing-catalogue';
import {
  SubscriptionChangeRefused,
  type BillingCustomer,
  type BillingProvider,
  type ProviderRedirect,
  type ReturnUrls,
} from './billing-provider';
import { monthOf, usageWarningMessage } from './billing-usage';
import * as usageRepo from './billing-usage.repository';
import { createBillingWebhooks } from './billing-webhooks';
import { BILLING_TURNED_OFF, NOT_LOCAL_PROVIDER, changeRefused, providerUnavailable } from './billing-words';
import * as repo from './billing.repository';
import type { BillingService } from './billing.service';
import type { Logger } from './billing.types';

export type BillingAccountService = ReturnType<typeof createBillingAccountService>;

/**
 * The Billing tab's calls (docs/product.md §2 Billing, §7), the local provider's checkout and contact
 * pages, the provider's webhooks (billing-webhooks.ts) and the instance administrator's `set-plan`
 * (billing-admin.ts) (docs/adr/0016-billing-providers.md). Above `audit`, `billing` and
 * `subscriptions`: the subscription rows are the subscriptions module's; the provider only says
 * where to send the browser and what changed.
 */
export function createBillingAccountService(deps: {
  db: Database;
  audit: AuditService;
  billing: BillingService;
  subscriptions: SubscriptionsService;
  provider: BillingProvider;
  catalogue: BillingCatalogue;
  uiFlags: Record<UiFlag, boolean>;
  publicUrl: string;
  baseDomain: string;
  logger: Logger;
  now?: () => Date;
}) {
  const { db, audit, billing, subscriptions, provider, catalogue, uiFlags, publicUrl, baseDomain, logger } =
    deps;
  const now = deps.now ?? (() => new Date());
  const catalogueSync = createBillingCatalogueSync({ db, provider, catalogue, logger });
  const webhooks = createBillingWebhooks({ db, audit, subscriptions, provider, catalogueSync, logger, now });
  const admin = createBillingAdmin({ db, audit, subscriptions, catalogue, catalogueSync, now });

  function assertBillingAdmin(principal: Principal): void {
    if (!uiFlags.billing) throw new AppError(404, 'Not found', BILLING_TURNED_OFF);
    if (!can(principal, 'manage', { type: 'organisation' })) throw new ForbiddenError(BILLING_ADMIN_ONLY);
  }

  function assertLocal(): void {
    if (provider.kind !== 'local') throw new AppError(404, 'Not found', NOT_LOCAL_PROVIDER);
  }

  /**
   * Where the provider sends the browser back: the address the request came to when it is one of
   * Vexil's (PUBLIC_URL or an organisation's sub-domain), else PUBLIC_URL.
   */
  function returnUrls(origin: string | null): ReturnUrls {
    let base = publicUrl;
    if (origin) {
      try {
        const url = new URL(origin);
        const host = url.hostname.toLowerCase();
        const ours =
          url.host === new URL(publicUrl).host || host === baseDomain || host.endsWith(`.${baseDomain}`);
        if (ours && (url.protocol === 'https:' || url.protocol === 'http:')) base = url.origin;
      } catch {
        // Not a URL: PUBLIC_URL.
      }
    }
    const billingPage = `${base}/admin/billing`;
    return {
      returnUrl: billingPage,
      successUrl: `${billingPage}?checkout=success`,
      cancelUrl: `${billingPage}?checkout=cancelled`,
    };
  }

  async function customerOf(principal: Principal): Promise<BillingCustomer> {
    const [organisation, details, seats] = await Promise.all([
      repo.organisationOf(db, principal.organisationId),
      subscriptions.billingDetails(db, principal.organisationId),
      usageRepo.countSeats(db, principal.organisationId),
    ]);
    if (!organisation) throw new NotFoundError('organisation');
    return {
      organisationId: organisation.id,
      organisationName: organisation.name,
      email: principal.email,
      externalCustomerId: details?.externalCustomerId ?? null,
      externalSubscriptionId: details?.externalSubscriptionId ?? null,
      seats,
    };
  }

  /** Keeps the customer a provider created on the way, so that the next call reuses it. */
  async function rememberCustomer(organisationId: string, redirect: ProviderRedirect): Promise<void> {
    if (redirect.externalCustomerId)
      await subscriptions.rememberCustomer(organisationId, redirect.externalCustomerId);
  }

  /** Asks the provider; its refusal and its failures become the API's codes. */
  async function askProvider<T>(what: string, call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      if (error instanceof SubscriptionChangeRefused) throw changeRefused(error.detail);
      if (error instanceof AppError) throw error;
      logger.warn(
        { provider: provider.kind, error: error instanceof Error ? error.message : String(error) },
        `the billing provider could not ${what}`,
      );
      // BillingProviderUnavailable, or anything else the provider's client threw.
      throw providerUnavailable();
    }
  }

  return {
    syncCatalogue: catalogueSync.syncCatalogue,
    applyEvent: webhooks.applyEvent,
    webhook: webhooks.webhook,
    setPlan: admin.setPlan,
    subscriptionOf: admin.subscriptionOf,

    /** GET /api/v1/products/: the plans on sale (organisation admins); the catalogue tables follow. */
    async products(principal: Principal): Promise<Product[]> {
      assertBillingAdmin(principal);
      const listed = await askProvider('list the plans', () => provider.products());
      await catalogueSync.trySyncCatalogue();
      return listed.map(({ id, name, features, prices }) => ({ id, name, features, prices }));
    },

    /** GET /api/v1/billing/info: the card and billing contact the provider last reported (or the local page set). */
    async info(principal: Principal): Promise<BillingInfo> {
      assertBillingAdmin(principal);
      return toBillingInfo(await subscriptions.billingDetails(db, principal.organisationId));
    },

    /**
     * GET /api/v1/billing/usage: what the organisation uses against its limits, the monthly counts
     * from the SDK traffic stored this calendar month (UTC), and a warning for each monthly limit
     * reached (with the impressions-limits flag on).
     */
    async usage(principal: Principal): Promise<Usage> {
      assertBillingAdmin(principal);
      const organisationId = principal.organisationId;
      const period = monthOf(now());
      const [counts, limits] = await Promise.all([
        usageRepo.usage(db, organisationId, period.start),
        billing.limitsFor(db, organisationId),
      ]);
      const used = {
        maxApplicationUniqueUsers: counts.applicationUniqueUsers,
        maxImpressions: counts.impressions,
      };
      const warnings: UsageWarning[] = [];
      if (limits && uiFlags['impressions-limits']) {
        for (const key of MONTHLY_LIMIT_KEYS) {
          const limit = limits[key];
          if (limit !== null && !withinLimit(used[key], limit))
            warnings.push({
              key,
              used: used[key],
              limit,
              message: usageWarningMessage(key, used[key], limit),
            });
        }
      }
      return {
        seats: counts.seats,
        projectsUsed: counts.projects,
        environmentsUsed: counts.environments,
        featuresUsed: counts.features,
        applicationUniqueUsersUsed: counts.applicationUniqueUsers,
        impressionsUsed: counts.impressions,
        periodStart: period.start.toISOString(),
        periodEnd: period.end.toISOString(),
        warnings,
      };
    },

    /** POST /api/v1/billing/subscription/manage: the page of "Manage Billing Details". */
    async manage(principal: Principal, origin: string | null): Promise<RedirectUrl> {
      assertBillingAdmin(principal);
      const customer = await customerOf(principal);
      const redirect = await askProvider('open the billing portal', () =>
        provider.manageUrl(customer, returnUrls(origin)),
      );
      await rememberCustomer(principal.organisationId, redirect);
      return { url: redirect.url };
    },

    /**
     * POST /api/v1/billing/subscription/change {subscriptionId}: the page that moves the subscription
     * to the price `subscriptionId` names (checkout for a first purchase); a price the catalogue
     * lacks, or the provider's refusal, is 400 `subscription_change_refused` with the reason in `detail`.
     */
    async change(principal: Principal, priceId: string, origin: string | null): Promise<RedirectUrl> {
      assertBillingAdmin(principal);
      if (priceId === FREE_PRICE_ID) {
        if (provider.kind !== 'local')
          throw changeRefused('To move to the Free plan, cancel the subscription in Manage Billing Details.');
      } else {
        const listed = await askProvider('list the plans', () => provider.products());
        const known = listed.some((product) => Object.values(product.prices).some((p) => p?.id === priceId));
        if (!known) throw changeRefused(`There is no plan with the price "${priceId}".`);
      }
      const customer = await customerOf(principal);
      const redirect = await askProvider('start the change of plan', () =>
        provider.changeUrl(customer, priceId, returnUrls(origin)),
      );
      await rememberCustomer(principal.organisationId, redirect);
      return { url: redirect.url };
    },

    /**
     * POST /api/v1/billing/local/subscribe (local provider only): the checkout page's confirmation.
     * The subscription moves to the price at once, active, with that plan's limits; the trial ends.
     */
    async localSubscribe(principal: Principal, input: LocalSubscribeInput): Promise<Subscription> {
      assertBillingAdmin(principal);
      assertLocal();
      const organisationId = principal.organisationId;
      const found = input.priceId === FREE_PRICE_ID ? null : findCataloguePrice(catalogue, input.priceId);
      if (input.priceId !== FREE_PRICE_ID && !found)
        throw changeRefused(`There is no plan with the price "${input.priceId}".`);
      const priceRowId = found ? await catalogueSync.priceRowId(input.priceId) : null;
      const choice: PlanChoice = found
        ? { kind: 'plan', plan: found.plan, interval: found.interval, priceRowId }
        : { kind: 'free' };
      return db.transaction(async (tx) => {
        await lockOrganisation(tx, organisationId);
        const inUse = await usageRepo.countSeats(tx, organisationId);
        const seats = input.seats ?? inUse;
        if (seats < inUse)
          throw changeRefused(
            `${inUse} seats are in use (members and pending invitations): choose at least ${inUse}.`,
          );
        const at = now();
        const columns = planColumns(catalogue, choice, seats);
        const interval = columns.interval === 'year' ? 12 : 1;
        const periodEnd = new Date(
          Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + interval, at.getUTCDate()),
        );
        const before = await subscriptions.find(tx, organisationId);
        const after = await subscriptions.putOnPlan(tx, organisationId, {
          ...columns,
          status: 'active',
          trialEnd: null,
          cancelAt: null,
          currentPeriodStart: at,
          currentPeriodEnd: periodEnd,
        });
        await audit.record(
          tx,
          principal,
          billingAudit({
            kind: 'billing.plan_chosen',
            by: principal.email,
            subscriptionId: after.id,
            plan: auditPlan(after),
            before: before
              ? {
                  ...auditPlan(before),
                  status: before.status,
                  inTrial: toSubscription(before, at).inTrial,
                }
              : null,
            requested: { priceId: input.priceId, seats },
          }),
        );
        return toSubscription(after, at);
      });
    },

    /** PUT /api/v1/billing/local/contact (local provider only): the billing contact "Manage Billing Details" edits. */
    async localContact(principal: Principal, input: BillingContactInput): Promise<BillingInfo> {
      assertBillingAdmin(principal);
      assertLocal();
      const organisationId = principal.organisationId;
      return db.transaction(async (tx) => {
        await lockOrganisation(tx, organisationId);
        const details = await subscriptions.setBillingContact(tx, organisationId, {
          email: input.email || null,
          name: input.name || null,
          phone: input.phone || null,
        });
        await audit.record(
          tx,
          principal,
          billingAudit({ kind: 'billing.contact_updated', by: principal.email }),
        );
        return toBillingInfo(details);
      });
    },
  };
}

function toBillingInfo(details: BillingDetails | null): BillingInfo {
  const contact =
    details && (details.billingEmail || details.billingName || details.billingPhone)
      ? { email: details.billingEmail, name: details.billingName, phone: details.billingPhone }
      : null;
  return {
    lastFour: details?.cardLastFour ?? null,
    brand: details?.cardBrand ?? null,
    customer: contact,
  };
}
