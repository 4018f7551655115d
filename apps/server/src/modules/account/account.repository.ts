import { and, eq } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { organisations, users } from '../../db/schema/index';

export async function findUser(db: Executor, organisationId: string, userId: string) {
  const [row] = await db
    .select()
    .from(users)
    .where(and(eq(users.organisationId, organisationId), eq(users.id, userId)))
    .limit(1);
  return row ?? null;
}

export async function findOrganisation(db: Executor, organisationId: string) {
  const [row] = await db.select().from(organisations).where(eq(organisations.id, organisationId)).limit(1);
  return row ?? null;
}

export async function markIntroRead(db: Executor, organisationId: string, userId: string, at: Date) {
  const user = await findUser(db, organisationId, userId);
  if (!user) return null;
  const settings = { ...user.settings, introReadDate: at.toISOString() };
  await db
    .update(users)
    .set({ settings, updatedAt: at })
    .where(and(eq(users.organisationId, organisationId), eq(users.id, userId)));
  return settings;
}
