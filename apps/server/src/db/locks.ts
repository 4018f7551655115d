import { eq } from 'drizzle-orm';
import type { Executor } from './client';
import { organisations } from './schema/index';

/**
 * Locks the organisation's row until the transaction ends. Writes that count before they insert
 * (plan limits, "at least one project") take it first, so two concurrent requests cannot both
 * pass a check that only one of them may pass.
 */
export async function lockOrganisation(tx: Executor, organisationId: string): Promise<void> {
  await tx
    .select({ id: organisations.id })
    .from(organisations)
    .where(eq(organisations.id, organisationId))
    .for('update');
}
