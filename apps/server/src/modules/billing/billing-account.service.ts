import {
  BILLING_ADMIN_ONLY,
  FREE_PRICE_ID,
  MONTHLY_LIMIT_KEYS,
  can,
  escapeMarkdown,
  formatCount,
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
import type { Database, Executor } from '../../db/client';
import type { NewSubscriptionRow } from '../../db/schema/index';
import { lockOrganisation } from '../../db/locks';
import { AppError, ForbiddenError, NotFoundError } from '../../errors';
import type { AuditService } from '../audit/audit.service';
import type { Principal } from '../auth/auth.service';
import {
  BillingProviderUnavailable,
  SubscriptionChangeRefused,
  WebhookSignatureInvalid,
  type BillingCustomer,
  type BillingProvider,
  type ProviderEvent,
  type ProviderRedirect,
  type ReturnUrls,
  type SubscriptionChange,
} from './billing-provider';
import * as repo from './billing.repository';
import {
  DAY_MS,
  completeLimits,
  planColumns,
  toSubscription,
  type BillingService,
  type PlanChoice,
} from './billing.service';
import type { CataloguePriceRecord, SubscriptionRecord } from './billing.types';
import { FREE_PLAN_ID, LOCAL_ID_PREFIX, findCataloguePrice, type BillingCatalogue } from './catalogue';

/** docs/product.md §8: the billing portal failure dialog's words, also the 503's title. */
export const BILLING_PORTAL_UNAVAILABLE =
  'Sorry, we were unable to access the billing portal. Please try again later.';
/** The title of a refused change; the dialog shows "We could not update this subscription: " and the detail. */
export const CHANGE_REFUSED_TITLE = 'We could not update this subscription.';
export const BILLING_TURNED_OFF = 'Billing is turned off on this server.';
export const NOT_LOCAL_PROVIDER = 'This server’s plans are sold by its payment provider, not chosen here.';

const PROVIDER_NAMES: Record<BillingProvider['kind'], string> = {
  local: 'the billing service',
  stripe: 'Stripe',
};

/** 400 `subscription_change_refused`, whose detail the change dialog shows. */
function changeRefused(detail: string): AppError {
  return new AppError(400, CHANGE_REFUSED_TITLE, detail, undefined, 'subscription_change_refused');
}

/** 503 `billing_unavailable`: the provider could not be reached or answered an error. */
function providerUnavailable(detail?: string): AppError {
  return new AppError(503, BILLING_PORTAL_UNAVAILABLE, detail, undefined, 'billing_unavailable');
}

/** The calendar month (UTC) `at` falls in: the period of the monthly usage counts. */
export function monthOf(at: Date): { start: Date; end: Date } {
  const start = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
  const end = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1));
  return { start, end };
}

const WARNING_NOUNS: Record<(typeof MONTHLY_LIMIT_KEYS)[number], string> = {
  maxApplicationUniqueUsers: 'application users',
  maxImpressions: 'impressions',
};

/** The warning of a monthly limit reached: it never stops evaluation (docs/product.md §9). */
export function usageWarningMessage(key: (typeof MONTHLY_LIMIT_KEYS)[number], used: number, limit: number) {
  return `${formatCount(used)} ${WARNING_NOUNS[key]} this month: your plan includes ${formatCount(limit)}. Features keep evaluating; upgrade your plan to stay within it.`;
}

export type Logger = {
  warn(object: Record<string, unknown>, message: string): void;
  info?(object: Record<string, unknown>, message: string): void;
};

export type WebhookResult = { received: true; duplicate: boolean };

export type SetPlanInput = {
  /** The organisation's domain (sub-domain). */
  organisation: string;
  /** A catalogue product id (`local-team` or `team`), a synced provider product id, or `free`. */
  plan: string;
  /** Starts a trial of that many days (0 ends it now: inactive). */
  trialDays?: number;
  status?: 'active' | 'inactive';
  seats?: number;
};

export type BillingAccountService = ReturnType<typeof createBillingAccountService>;

/**
 * The Billing tab's calls (docs/product.md §2 Billing, §7), the local provider's checkout and contact
 * pages, the provider's webhooks and the instance administrator's `set-plan`
 * (docs/adr/0016-billing-providers.md). Above `audit` and `billing`: the subscription rows are the
 * billing module's; the provider only says where to send the browser and what changed.
 */
export function createBillingAccountService(deps: {
  db: Database;
  audit: AuditService;
  billing: BillingService;
  provider: BillingProvider;
  catalogue: BillingCatalogue;
  uiFlags: Record<UiFlag, boolean>;
  publicUrl: string;
  baseDomain: string;
  logger: Logger;
  now?: () => Date;
}) {
  const { db, audit, billing, provider, catalogue, uiFlags, publicUrl, baseDomain, logger } = deps;
  const now = deps.now ?? (() => new Date());

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
      repo.findBillingDetails(db, principal.organisationId),
      repo.countSeats(db, principal.organisationId),
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
    const customerId = redirect.externalCustomerId;
    if (!customerId) return;
    await db.transaction(async (tx) => {
      await lockOrganisation(tx, organisationId);
      const details = await repo.findBillingDetails(tx, organisationId);
      if (details?.externalCustomerId === customerId) return;
      if (details) await repo.updateSubscription(tx, organisationId, { externalCustomerId: customerId });
      // An organisation without a subscription (billing turned on later) keeps no limits.
      else
        await repo.insertSubscriptionIfNone(tx, organisationId, {
          status: 'active',
          externalCustomerId: customerId,
        });
    });
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

  /** The catalogue tables made to say what the provider sells. */
  async function syncCatalogue(): Promise<void> {
    const listed = await provider.products();
    await db.transaction((tx) =>
      repo.syncCatalogue(
        tx,
        listed.map((product, position) => ({
          externalId: product.id,
          name: product.name,
          features: product.features,
          limits: product.limits ?? {},
          position,
          prices: Object.values(product.prices)
            .filter((price) => price !== undefined)
            .map((price) => ({
              externalId: price.id,
              currency: price.currency,
              interval: price.interval,
              amount: price.amount,
            })),
        })),
      ),
    );
  }

  /** A catalogue price by the provider's id, syncing the catalogue once if it is not there yet. */
  async function cataloguePrice(externalPriceId: string): Promise<CataloguePriceRecord | null> {
    const found = await repo.findCataloguePrice(db, externalPriceId);
    if (found) return found;
    try {
      await syncCatalogue();
    } catch (error) {
      logger.warn(
        { provider: provider.kind, error: error instanceof Error ? error.message : String(error) },
        'the billing catalogue could not be refreshed',
      );
      return null;
    }
    return repo.findCataloguePrice(db, externalPriceId);
  }

  function describePlan(row: Pick<SubscriptionRecord, 'productName' | 'interval' | 'quantity'>): string {
    const name = row.productName ? `**${escapeMarkdown(row.productName)}**` : 'no plan';
    const interval = row.interval === 'year' ? 'yearly' : row.interval === 'month' ? 'monthly' : null;
    return `${name}${interval ? ` (${interval}, ${row.quantity} seat(s))` : ''}`;
  }

  /**
   * Applies a provider's change to the organisation's subscription inside `tx`: the fields it sets,
   * and for a new price the catalogue's product name, price and limits. Returns what the audit log
   * should say, or null when nothing it shows changed.
   */
  async function applyChange(
    tx: Executor,
    organisationId: string,
    change: SubscriptionChange,
    price: CataloguePriceRecord | null,
  ): Promise<{ before: SubscriptionRecord | null; after: SubscriptionRecord | null }> {
    const before = await repo.findSubscription(tx, organisationId);
    const values: Partial<NewSubscriptionRow> = { externalCustomerId: change.externalCustomerId };
    const set = <K extends keyof NewSubscriptionRow>(key: K, value: NewSubscriptionRow[K] | undefined) => {
      if (value !== undefined) values[key] = value;
    };
    set('externalSubscriptionId', change.externalSubscriptionId);
    set('status', change.status);
    set('quantity', change.quantity);
    set('trialEnd', change.trialEnd);
    set('currentPeriodStart', change.currentPeriodStart);
    set('currentPeriodEnd', change.currentPeriodEnd);
    set('cancelAt', change.cancelAt);
    set('total', change.total);
    set('percentOff', change.percentOff);
    set('amountOff', change.amountOff);
    if (change.card !== undefined) {
      values.cardBrand = change.card?.brand ?? null;
      values.cardLastFour = change.card?.lastFour ?? null;
    }
    if (change.billingContact !== undefined) {
      values.billingEmail = change.billingContact?.email ?? null;
      values.billingName = change.billingContact?.name ?? null;
      values.billingPhone = change.billingContact?.phone ?? null;
    }
    if (change.externalPriceId === null) {
      values.priceId = null;
    } else if (price) {
      Object.assign(values, {
        priceId: price.priceId,
        productName: price.productName,
        currency: price.currency,
        interval: price.interval,
        intervalCount: price.intervalCount,
        amount: price.amount,
        unitLabel: price.unitLabel,
        limits: price.limits,
      });
      if (change.total === undefined)
        values.total = price.amount * (change.quantity ?? before?.quantity ?? 1);
    }
    if (before) await repo.updateSubscription(tx, organisationId, values);
    else
      await repo.insertSubscriptionIfNone(tx, organisationId, {
        ...values,
        status: change.status ?? 'active',
      });
    return { before, after: await repo.findSubscription(tx, organisationId) };
  }

  /** A provider's event, applied once: recorded and applied in one transaction, a replay changes nothing. */
  async function applyEvent(event: ProviderEvent): Promise<WebhookResult> {
    const change = event.change;
    const price = change?.externalPriceId ? await cataloguePrice(change.externalPriceId) : null;
    if (change?.externalPriceId && !price)
      logger.warn(
        { provider: provider.kind, eventId: event.id },
        'a billing event names a price the catalogue does not have: the plan is left as it was',
      );
    return db.transaction(async (tx) => {
      const fresh = await repo.recordEvent(tx, { id: event.id, type: event.type, receivedAt: now() });
      if (!fresh) return { received: true, duplicate: true } as const;
      if (!change) return { received: true, duplicate: false } as const;
      const organisationId = await repo.findOrganisationOfChange(tx, change);
      if (!organisationId) {
        logger.info?.(
          { provider: provider.kind, eventId: event.id, type: event.type },
          'a billing event for a customer of no organisation was recorded and ignored',
        );
        return { received: true, duplicate: false } as const;
      }
      const { before, after } = await applyChange(tx, organisationId, change, price);
      if (after) {
        const statusBefore = before ? toSubscription(before, now()).status : null;
        const statusAfter = toSubscription(after, now()).status;
        const planChanged =
          before?.productName !== after.productName ||
          before?.interval !== after.interval ||
          before?.quantity !== after.quantity;
        if (statusBefore !== statusAfter || planChanged || before?.status !== after.status) {
          await audit.record(
            tx,
            { organisationId, userId: null },
            {
              action: 'update',
              resourceType: 'subscription',
              resourceId: after.id,
              title: `Subscription updated by ${PROVIDER_NAMES[provider.kind]}`,
              description: `${PROVIDER_NAMES[provider.kind]} reported the subscription ${describePlan(after)} as ${after.status}${before ? `; it was ${describePlan(before)}, ${before.status}` : ''}.`,
              data: { eventId: event.id, eventType: event.type, status: after.status },
            },
          );
        }
      }
      return { received: true, duplicate: false } as const;
    });
  }

  /** The plan a catalogue or provider product id names: `free`, `local-team`, `team`, or a synced id. */
  async function choiceOf(plan: string): Promise<PlanChoice | null> {
    if (plan === FREE_PLAN_ID) return { kind: 'free' };
    const local = catalogue.plans.find(
      (p) =>
        p.id === plan ||
        p.id === `${LOCAL_ID_PREFIX}${plan}` ||
        p.prices.month?.id === plan ||
        p.prices.year?.id === plan,
    );
    if (local) {
      const interval =
        local.prices.year?.id === plan ? 'year' : local.prices.month ? 'month' : ('year' as const);
      const row = await repo.findCataloguePrice(db, local.prices[interval]!.id);
      return { kind: 'plan', plan: local, interval, priceRowId: row?.priceId ?? null };
    }
    const synced = (await repo.findProductPrices(db, plan))[0] ?? (await repo.findCataloguePrice(db, plan));
    if (!synced) return null;
    return {
      kind: 'plan',
      interval: synced.interval,
      priceRowId: synced.priceId,
      plan: {
        id: plan,
        name: synced.productName,
        features: [],
        limits: completeLimits(synced.limits),
        prices: { [synced.interval]: { id: synced.externalPriceId, amount: synced.amount } },
      },
    };
  }

  return {
    syncCatalogue,
    applyEvent,

    /** GET /api/v1/products/: the plans on sale (organisation admins); the catalogue tables follow. */
    async products(principal: Principal): Promise<Product[]> {
      assertBillingAdmin(principal);
      const listed = await askProvider('list the plans', () => provider.products());
      try {
        await syncCatalogue();
      } catch (error) {
        logger.warn(
          { provider: provider.kind, error: error instanceof Error ? error.message : String(error) },
          'the billing catalogue could not be refreshed',
        );
      }
      return listed.map(({ id, name, features, prices }) => ({ id, name, features, prices }));
    },

    /** GET /api/v1/billing/info: the card and billing contact the provider last reported (or the local page set). */
    async info(principal: Principal): Promise<BillingInfo> {
      assertBillingAdmin(principal);
      return toBillingInfo(await repo.findBillingDetails(db, principal.organisationId));
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
        repo.usage(db, organisationId, period.start),
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
      const priceRow = found ? await repo.findCataloguePrice(db, input.priceId) : null;
      const choice: PlanChoice = found
        ? { kind: 'plan', plan: found.plan, interval: found.interval, priceRowId: priceRow?.priceId ?? null }
        : { kind: 'free' };
      return db.transaction(async (tx) => {
        await lockOrganisation(tx, organisationId);
        const inUse = await repo.countSeats(tx, organisationId);
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
        const before = await repo.findSubscription(tx, organisationId);
        await repo.upsertSubscription(tx, organisationId, {
          ...columns,
          status: 'active',
          trialEnd: null,
          cancelAt: null,
          currentPeriodStart: at,
          currentPeriodEnd: periodEnd,
        });
        const after = (await repo.findSubscription(tx, organisationId))!;
        await audit.record(tx, principal, {
          action: 'update',
          resourceType: 'subscription',
          resourceId: after.id,
          title: `Subscription changed to ${after.productName ?? 'a plan'}`,
          description: `${escapeMarkdown(principal.email)} subscribed to ${describePlan(after)}${before ? `; it was ${describePlan(before)}, ${toSubscription(before, at).inTrial ? 'in trial' : before.status}` : ''}.`,
          data: { priceId: input.priceId, seats },
        });
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
        const contact = {
          billingEmail: input.email || null,
          billingName: input.name || null,
          billingPhone: input.phone || null,
        };
        if (await repo.findBillingDetails(tx, organisationId))
          await repo.updateSubscription(tx, organisationId, contact);
        // An organisation without a subscription (billing turned on later) keeps no limits.
        else await repo.insertSubscriptionIfNone(tx, organisationId, { status: 'active', ...contact });
        await audit.record(tx, principal, {
          action: 'update',
          resourceType: 'subscription',
          title: 'Billing details updated',
          description: `${escapeMarkdown(principal.email)} updated the billing contact.`,
        });
        return toBillingInfo(await repo.findBillingDetails(tx, organisationId));
      });
    },

    /**
     * POST /api/v1/billing/webhook: the provider's event, verified, then applied once. A bad
     * signature is 400; a provider without webhooks is 404; a provider that cannot be asked for the
     * current state is 503 and the event is not recorded, so the provider delivers it again.
     */
    async webhook(rawBody: Buffer, signature: string | undefined): Promise<WebhookResult> {
      if (!provider.verifyWebhook)
        throw new AppError(404, 'Not found', 'This server’s billing provider sends no webhooks.');
      let event: ProviderEvent;
      try {
        event = await provider.verifyWebhook(rawBody, signature);
      } catch (error) {
        if (error instanceof WebhookSignatureInvalid) throw new AppError(400, error.message);
        if (error instanceof BillingProviderUnavailable) {
          logger.warn(
            { provider: provider.kind, error: error.message },
            'a billing webhook could not be read',
          );
          throw providerUnavailable('The payment provider could not be reached; deliver the event again.');
        }
        throw error;
      }
      return applyEvent(event);
    },

    /**
     * `npm run billing -- set-plan`: an instance administrator puts an organisation on a plan, or
     * starts a trial of it (`trialDays`), or marks it inactive. Audited as the system.
     */
    async setPlan(input: SetPlanInput): Promise<{ organisation: string; subscription: Subscription }> {
      const organisation = await repo.organisationByDomain(db, input.organisation);
      if (!organisation) throw new NotFoundError('organisation', input.organisation);
      const choice = await choiceOf(input.plan);
      if (!choice) {
        const known = [FREE_PLAN_ID, ...catalogue.plans.map((p) => p.id)].join(', ');
        throw new AppError(400, `There is no plan "${input.plan}" (plans: ${known}).`);
      }
      return db.transaction(async (tx) => {
        await lockOrganisation(tx, organisation.id);
        const before = await repo.findSubscription(tx, organisation.id);
        const seats = input.seats ?? before?.quantity ?? (await repo.countSeats(tx, organisation.id));
        const at = now();
        const trial = input.trialDays !== undefined;
        await repo.upsertSubscription(tx, organisation.id, {
          ...planColumns(catalogue, choice, seats),
          status: input.status === 'inactive' ? 'inactive' : trial ? 'trialing' : 'active',
          trialEnd: trial ? new Date(at.getTime() + input.trialDays! * DAY_MS) : null,
          cancelAt: null,
        });
        const after = (await repo.findSubscription(tx, organisation.id))!;
        const subscription = toSubscription(after, at);
        await audit.record(
          tx,
          { organisationId: organisation.id, userId: null },
          {
            action: 'update',
            resourceType: 'subscription',
            resourceId: after.id,
            title: `Plan set to ${after.productName ?? 'a plan'} by an instance administrator`,
            description: `An instance administrator put the organisation on ${describePlan(after)}, ${subscription.inTrial ? `in trial for ${subscription.daysUntilEndOfTrial} day(s)` : subscription.status}.`,
            data: { plan: input.plan, status: after.status, trialEnd: after.trialEnd?.toISOString() ?? null },
          },
        );
        return { organisation: organisation.domain, subscription };
      });
    },

    /** The subscription as stored, whatever the billing flag (for `npm run billing -- show`). */
    async subscriptionOf(
      domain: string,
    ): Promise<{ organisation: string; subscription: Subscription | null }> {
      const organisation = await repo.organisationByDomain(db, domain);
      if (!organisation) throw new NotFoundError('organisation', domain);
      const row = await repo.findSubscription(db, organisation.id);
      return { organisation: organisation.domain, subscription: row ? toSubscription(row, now()) : null };
    },
  };
}

function toBillingInfo(details: Awaited<ReturnType<typeof repo.findBillingDetails>>): BillingInfo {
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
