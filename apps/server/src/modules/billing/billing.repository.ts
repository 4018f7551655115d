import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { subscriptions } from '../../db/schema/index';

export async function findSubscription(db: Executor, organisationId: string) {
  const [row] = await db
    .select()
    .from(subscriptions)
    .where(eq(subscriptions.organisationId, organisationId))
    .limit(1);
  return row ?? null;
}
