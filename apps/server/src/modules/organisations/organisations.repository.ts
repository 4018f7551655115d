import { eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { organisations, type OrganisationSettings } from '../../db/schema/index';
import type { NewOrganisation, OrganisationRef } from './organisations.types';

/** The new organisation; null when its domain was taken meanwhile. */
export async function insertOrganisation(
  db: Executor,
  values: NewOrganisation & { at: Date },
): Promise<OrganisationRef | null> {
  const [row] = await db
    .insert(organisations)
    .values({ name: values.name, domain: values.domain, createdAt: values.at, updatedAt: values.at })
    .onConflictDoNothing()
    .returning({ id: organisations.id, name: organisations.name, domain: organisations.domain });
  return row ?? null;
}

/** Merges `settings` into the organisation's settings; the others stay as they are. */
export async function mergeSettings(
  db: Executor,
  organisationId: string,
  settings: OrganisationSettings,
): Promise<void> {
  await db
    .update(organisations)
    .set({ settings: sql`${organisations.settings} || ${JSON.stringify(settings)}::jsonb` })
    .where(eq(organisations.id, organisationId));
}

/** One organisation by id, or null. */
export async function findOrganisation(db: Executor, id: string): Promise<OrganisationRef | null> {
  const [row] = await db
    .select({ id: organisations.id, name: organisations.name, domain: organisations.domain })
    .from(organisations)
    .where(eq(organisations.id, id));
  return row ?? null;
}
