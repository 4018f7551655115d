import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { subscriptions } from '../../db/schema/index';
import type { SubscriptionRecord } from './billing.types';

export async function findSubscription(
  db: Executor,
  organisationId: string,
): Promise<SubscriptionRecord | null> {
  const [row] = await db
    .select({
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
    })
    .from(subscriptions)
    .where(eq(subscriptions.organisationId, organisationId))
    .limit(1);
  return row ?? null;
}
