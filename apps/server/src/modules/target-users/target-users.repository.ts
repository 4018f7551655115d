import { and, count, desc, eq, ilike, type SQL } from 'drizzle-orm';
import { readTogether, type Executor } from '../../db/client';
import { containsPattern } from '../../db/text-search';
import { targetUsers } from '../../db/schema/index';
import type { TargetUserPage } from './target-users.types';

export async function page(
  db: Executor,
  organisationId: string,
  environmentId: string,
  text: string | undefined,
  offset: number,
  limit: number,
): Promise<TargetUserPage> {
  const pattern = text ? containsPattern(text) : undefined;
  const where: SQL = and(
    eq(targetUsers.organisationId, organisationId),
    eq(targetUsers.environmentId, environmentId),
    pattern ? ilike(targetUsers.userKey, pattern) : undefined,
  )!;
  const [rows, [total]] = await readTogether(db, [
    () =>
      db
        .select({
          userKey: targetUsers.userKey,
          attributes: targetUsers.attributes,
          lastSeenAt: targetUsers.lastSeenAt,
        })
        .from(targetUsers)
        .where(where)
        .orderBy(desc(targetUsers.lastSeenAt), desc(targetUsers.id))
        .offset(offset)
        .limit(limit),
    () => db.select({ total: count() }).from(targetUsers).where(where),
  ]);
  return { rows, total: total?.total ?? 0 };
}

export async function remove(
  db: Executor,
  organisationId: string,
  environmentId: string,
  userKey: string,
): Promise<boolean> {
  const rows = await db
    .delete(targetUsers)
    .where(
      and(
        eq(targetUsers.organisationId, organisationId),
        eq(targetUsers.environmentId, environmentId),
        eq(targetUsers.userKey, userKey),
      ),
    )
    .returning({ id: targetUsers.id });
  return rows.length > 0;
}
