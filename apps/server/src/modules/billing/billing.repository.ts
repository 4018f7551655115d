import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { billingEvents, organisations } from '../../db/schema/index';

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
