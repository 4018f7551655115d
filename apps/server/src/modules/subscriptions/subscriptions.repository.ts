import { eq, or, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { isUuid } from '../../db/text-search';
import { organisations, subscriptions } from '../../db/schema/index';
import type { BillingDetails, SubscriptionRecord, SubscriptionValues } from './subscriptions.types';

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
  values: SubscriptionValues,
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
  values: SubscriptionValues,
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
  values: Partial<SubscriptionValues>,
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
