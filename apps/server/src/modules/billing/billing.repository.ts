// Over 400 lines: it still holds the subscriptions, billing events, catalogue and usage counts together; subscriptions move to a module of their own with the structure issue (#30).
import { and, count, countDistinct, eq, gte, notInArray, or, sum, type SQL } from 'drizzle-orm';
import { readTogether, type Executor } from '../../db/client';
import { isUuid } from '../../db/text-search';
import {
  billingEvents,
  environments,
  features,
  impressionCounters,
  organisations,
  prices,
  products,
  projects,
  subscriptions,
  targetUsers,
  users,
  type NewSubscriptionRow,
  type PlanLimits,
} from '../../db/schema/index';
import type { BillingDetails, CataloguePriceRecord, SubscriptionRecord, UsageCounts } from './billing.types';

const subscriptionColumns = {
  id: subscriptions.id,
  externalSubscriptionId: subscriptions.externalSubscriptionId,
  status: subscriptions.status,
  quantity: subscriptions.quantity,
  total: subscriptions.total,
  percentOff: subscriptions.percentOff,
  amountOff: subscriptions.amountOff,
  trialEnd: subscriptions.trialEnd,
  productName: subscriptions.productName,
  currency: subscriptions.currency,
  interval: subscriptions.interval,
  intervalCount: subscriptions.intervalCount,
  amount: subscriptions.amount,
  unitLabel: subscriptions.unitLabel,
  limits: subscriptions.limits,
};

export async function findSubscription(
  db: Executor,
  organisationId: string,
): Promise<SubscriptionRecord | null> {
  const [row] = await db
    .select(subscriptionColumns)
    .from(subscriptions)
    .where(eq(subscriptions.organisationId, organisationId))
    .limit(1);
  return row ?? null;
}

export async function findBillingDetails(
  db: Executor,
  organisationId: string,
): Promise<BillingDetails | null> {
  const [row] = await db
    .select({
      externalCustomerId: subscriptions.externalCustomerId,
      externalSubscriptionId: subscriptions.externalSubscriptionId,
      cardBrand: subscriptions.cardBrand,
      cardLastFour: subscriptions.cardLastFour,
      billingEmail: subscriptions.billingEmail,
      billingName: subscriptions.billingName,
      billingPhone: subscriptions.billingPhone,
    })
    .from(subscriptions)
    .where(eq(subscriptions.organisationId, organisationId))
    .limit(1);
  return row ?? null;
}

/** Creates the organisation's subscription, or replaces the given columns of the one it has. */
export async function upsertSubscription(
  db: Executor,
  organisationId: string,
  values: Omit<NewSubscriptionRow, 'organisationId' | 'id'>,
): Promise<void> {
  await db
    .insert(subscriptions)
    .values({ ...values, organisationId })
    .onConflictDoUpdate({ target: subscriptions.organisationId, set: { ...values, updatedAt: new Date() } });
}

/** Inserts a subscription unless the organisation has one; whether it did. */
export async function insertSubscriptionIfNone(
  db: Executor,
  organisationId: string,
  values: Omit<NewSubscriptionRow, 'organisationId' | 'id'>,
): Promise<boolean> {
  const inserted = await db
    .insert(subscriptions)
    .values({ ...values, organisationId })
    .onConflictDoNothing({ target: subscriptions.organisationId })
    .returning({ id: subscriptions.id });
  return inserted.length > 0;
}

export async function updateSubscription(
  db: Executor,
  organisationId: string,
  values: Partial<Omit<NewSubscriptionRow, 'organisationId' | 'id'>>,
): Promise<void> {
  await db.update(subscriptions).set(values).where(eq(subscriptions.organisationId, organisationId));
}

/**
 * The organisation a provider's change is about, locked: by its organisation id when the provider
 * carries it, else by the provider's subscription id, else by its customer id.
 */
export async function findOrganisationOfChange(
  db: Executor,
  ref: { organisationId?: string | null; externalSubscriptionId?: string | null; externalCustomerId: string },
): Promise<string | null> {
  // The provider carries what it was given (Stripe metadata): an id that is no UUID names no one.
  if (ref.organisationId && isUuid(ref.organisationId)) {
    const [organisation] = await db
      .select({ id: organisations.id })
      .from(organisations)
      .where(eq(organisations.id, ref.organisationId))
      .for('update');
    if (organisation) return organisation.id;
  }
  const matches: SQL[] = [eq(subscriptions.externalCustomerId, ref.externalCustomerId)];
  if (ref.externalSubscriptionId)
    matches.unshift(eq(subscriptions.externalSubscriptionId, ref.externalSubscriptionId));
  const rows = await db
    .select({
      organisationId: subscriptions.organisationId,
      externalSubscriptionId: subscriptions.externalSubscriptionId,
    })
    .from(subscriptions)
    .where(or(...matches))
    .for('update');
  const bySubscription = ref.externalSubscriptionId
    ? rows.find((r) => r.externalSubscriptionId === ref.externalSubscriptionId)
    : undefined;
  return (bySubscription ?? rows[0])?.organisationId ?? null;
}

/** Records a webhook event; false when it was already recorded (a replay). */
export async function recordEvent(
  db: Executor,
  event: { id: string; type: string; receivedAt: Date },
): Promise<boolean> {
  const inserted = await db
    .insert(billingEvents)
    .values(event)
    .onConflictDoNothing({ target: billingEvents.id })
    .returning({ id: billingEvents.id });
  return inserted.length > 0;
}

export async function organisationOf(
  db: Executor,
  organisationId: string,
): Promise<{ id: string; name: string; domain: string } | null> {
  const [row] = await db
    .select({ id: organisations.id, name: organisations.name, domain: organisations.domain })
    .from(organisations)
    .where(eq(organisations.id, organisationId));
  return row ?? null;
}

export async function organisationByDomain(
  db: Executor,
  domain: string,
): Promise<{ id: string; name: string; domain: string } | null> {
  const [row] = await db
    .select({ id: organisations.id, name: organisations.name, domain: organisations.domain })
    .from(organisations)
    .where(eq(organisations.domain, domain.toLowerCase()));
  return row ?? null;
}

// --- The catalogue (products and prices tables) --------------------------------------------------

export type CatalogueEntry = {
  externalId: string;
  name: string;
  features: string[];
  limits: PlanLimits;
  position: number;
  prices: { externalId: string; currency: string; interval: 'month' | 'year'; amount: number }[];
};

/**
 * Makes the products and prices tables say what the provider sells: rows written only where they
 * differ, products and prices the provider no longer lists marked inactive (subscriptions keep
 * their copy of the price).
 */
export async function syncCatalogue(db: Executor, entries: readonly CatalogueEntry[]): Promise<void> {
  const existing = await db
    .select({
      id: products.id,
      externalId: products.externalId,
      name: products.name,
      features: products.features,
      limits: products.limits,
      active: products.active,
      position: products.position,
    })
    .from(products);
  const byExternal = new Map(existing.map((p) => [p.externalId, p]));
  const listedPrices: string[] = [];
  for (const entry of entries) {
    const found = byExternal.get(entry.externalId);
    let productId: string;
    const wanted = {
      name: entry.name,
      features: entry.features,
      limits: entry.limits,
      active: true,
      position: entry.position,
    };
    if (!found) {
      const [row] = await db
        .insert(products)
        .values({ externalId: entry.externalId, ...wanted })
        .onConflictDoUpdate({ target: products.externalId, set: wanted })
        .returning({ id: products.id });
      productId = row!.id;
    } else {
      productId = found.id;
      const same =
        found.name === wanted.name &&
        JSON.stringify(found.features) === JSON.stringify(wanted.features) &&
        JSON.stringify(sortKeys(found.limits)) === JSON.stringify(sortKeys(wanted.limits)) &&
        found.active &&
        found.position === wanted.position;
      if (!same) await db.update(products).set(wanted).where(eq(products.id, productId));
    }
    for (const price of entry.prices) {
      listedPrices.push(price.externalId);
      const [current] = await db
        .select({
          productId: prices.productId,
          currency: prices.currency,
          interval: prices.interval,
          amount: prices.amount,
          active: prices.active,
        })
        .from(prices)
        .where(eq(prices.externalId, price.externalId));
      const values = {
        productId,
        currency: price.currency,
        interval: price.interval,
        intervalCount: 1,
        amount: price.amount,
        unitLabel: 'seat',
        active: true,
      };
      if (!current) {
        await db
          .insert(prices)
          .values({ externalId: price.externalId, ...values })
          .onConflictDoUpdate({ target: prices.externalId, set: values });
      } else if (
        current.productId !== productId ||
        current.currency !== price.currency ||
        current.interval !== price.interval ||
        current.amount !== price.amount ||
        !current.active
      ) {
        await db.update(prices).set(values).where(eq(prices.externalId, price.externalId));
      }
    }
  }
  const listedProducts = entries.map((e) => e.externalId);
  await db
    .update(products)
    .set({ active: false })
    .where(
      and(
        eq(products.active, true),
        listedProducts.length ? notInArray(products.externalId, listedProducts) : undefined,
      ),
    );
  await db
    .update(prices)
    .set({ active: false })
    .where(
      and(
        eq(prices.active, true),
        listedPrices.length ? notInArray(prices.externalId, listedPrices) : undefined,
      ),
    );
}

function sortKeys(value: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).sort(([a], [b]) => a.localeCompare(b)));
}

/** A price of the catalogue by the provider's id, with its product's name and limits. */
export async function findCataloguePrice(
  db: Executor,
  externalPriceId: string,
): Promise<CataloguePriceRecord | null> {
  const [row] = await db
    .select({
      priceId: prices.id,
      externalPriceId: prices.externalId,
      productName: products.name,
      currency: prices.currency,
      interval: prices.interval,
      intervalCount: prices.intervalCount,
      amount: prices.amount,
      unitLabel: prices.unitLabel,
      limits: products.limits,
    })
    .from(prices)
    .innerJoin(products, eq(products.id, prices.productId))
    .where(eq(prices.externalId, externalPriceId));
  return row ? { ...row, externalPriceId: row.externalPriceId ?? externalPriceId } : null;
}

// --- Usage -----------------------------------------------------------------------------------------
// Read joins over the tables of team, projects, environments, features, targeting and statistics
// (docs/adr/0009-module-layout.md allows them in a repository): the counts the limit checks of those
// modules compare with.

/** What a limit checked at creation counts (docs/product.md §9). */
export type CountedLimitKey = 'maxProjects' | 'maxEnvironments' | 'maxFeatures' | 'maxOrganisationUsers';

const firstCount = async (query: PromiseLike<{ n: unknown }[]>) => Number((await query)[0]?.n ?? 0);

/** Live projects. */
export function countProjects(db: Executor, organisationId: string): Promise<number> {
  return firstCount(
    db
      .select({ n: count() })
      .from(projects)
      .where(and(eq(projects.organisationId, organisationId), eq(projects.archived, false))),
  );
}

/** Live environments of live projects (maxEnvironments counts them across projects). */
export function countEnvironments(db: Executor, organisationId: string): Promise<number> {
  return firstCount(
    db
      .select({ n: count() })
      .from(environments)
      .innerJoin(projects, eq(projects.id, environments.projectId))
      .where(
        and(
          eq(environments.organisationId, organisationId),
          eq(environments.archived, false),
          eq(projects.archived, false),
        ),
      ),
  );
}

/** Live features of live projects. */
export function countFeatures(db: Executor, organisationId: string): Promise<number> {
  return firstCount(
    db
      .select({ n: count() })
      .from(features)
      .innerJoin(projects, eq(projects.id, features.projectId))
      .where(
        and(
          eq(features.organisationId, organisationId),
          eq(features.archived, false),
          eq(projects.archived, false),
        ),
      ),
  );
}

/** What `key` counts now: the one definition both the limit checks and the usage read. */
export function countUsed(db: Executor, organisationId: string, key: CountedLimitKey): Promise<number> {
  switch (key) {
    case 'maxProjects':
      return countProjects(db, organisationId);
    case 'maxEnvironments':
      return countEnvironments(db, organisationId);
    case 'maxFeatures':
      return countFeatures(db, organisationId);
    case 'maxOrganisationUsers':
      return countSeats(db, organisationId);
  }
}

/**
 * What the organisation uses: seats (members and pending invitations: every user not removed), live
 * projects, live environments of live projects, live features of live projects, and the application
 * users seen and impressions counted from `since` (the first day of the month, UTC).
 */
export async function usage(db: Executor, organisationId: string, since: Date): Promise<UsageCounts> {
  const sinceDay = since.toISOString().slice(0, 10);
  const [seats, liveProjects, liveEnvironments, liveFeatures, applicationUsers, impressions] =
    await readTogether<[number, number, number, number, number, number]>(db, [
      () => countSeats(db, organisationId),
      () => countProjects(db, organisationId),
      () => countEnvironments(db, organisationId),
      () => countFeatures(db, organisationId),
      () =>
        firstCount(
          db
            .select({ n: countDistinct(targetUsers.userKey) })
            .from(targetUsers)
            .where(and(eq(targetUsers.organisationId, organisationId), gte(targetUsers.lastSeenAt, since))),
        ),
      () =>
        firstCount(
          db
            .select({ n: sum(impressionCounters.count) })
            .from(impressionCounters)
            .where(
              and(
                eq(impressionCounters.organisationId, organisationId),
                gte(impressionCounters.day, sinceDay),
              ),
            ),
        ),
    ]);
  return {
    seats,
    projects: liveProjects,
    environments: liveEnvironments,
    features: liveFeatures,
    applicationUniqueUsers: applicationUsers,
    impressions,
  };
}

/** Members and pending invitations: the seats a provider bills. */
export async function countSeats(db: Executor, organisationId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(users)
    .where(and(eq(users.organisationId, organisationId), eq(users.archived, false)));
  return Number(row?.n ?? 0);
}

/** Members who accepted their invitation and were not removed: the seats taken for good. */
export async function countActiveMembers(db: Executor, organisationId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(users)
    .where(
      and(eq(users.organisationId, organisationId), eq(users.archived, false), eq(users.activated, true)),
    );
  return Number(row?.n ?? 0);
}

/** The active prices of a catalogue product, by the provider's product id (monthly first). */
export async function findProductPrices(
  db: Executor,
  externalProductId: string,
): Promise<CataloguePriceRecord[]> {
  const rows = await db
    .select({
      priceId: prices.id,
      externalPriceId: prices.externalId,
      productName: products.name,
      currency: prices.currency,
      interval: prices.interval,
      intervalCount: prices.intervalCount,
      amount: prices.amount,
      unitLabel: prices.unitLabel,
      limits: products.limits,
    })
    .from(prices)
    .innerJoin(products, eq(products.id, prices.productId))
    .where(and(eq(products.externalId, externalProductId), eq(prices.active, true)));
  return rows
    .map((row) => ({ ...row, externalPriceId: row.externalPriceId ?? '' }))
    .sort((a, b) => (a.interval === b.interval ? 0 : a.interval === 'month' ? -1 : 1));
}
