import { and, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { auditItems, type AuditAction, type NewAuditItemRow } from '../../db/schema/index';

export async function insertAuditItem(db: Executor, row: NewAuditItemRow): Promise<void> {
  await db.insert(auditItems).values(row);
}

export type AuditFilter = {
  resourceId?: string | undefined;
  projectKey?: string | undefined;
  featureKey?: string | undefined;
  actorId?: string | undefined;
  action?: AuditAction | undefined;
};

/** One page of the organisation's audit log, newest first; one row more than asked tells whether it is the last. */
export async function listAuditItems(
  db: Executor,
  organisationId: string,
  filter: AuditFilter,
  page: { offset: number; limit: number },
) {
  const conditions: SQL[] = [eq(auditItems.organisationId, organisationId)];
  if (filter.resourceId) conditions.push(eq(auditItems.resourceId, filter.resourceId));
  if (filter.projectKey) conditions.push(eq(auditItems.projectKey, filter.projectKey));
  if (filter.featureKey) conditions.push(eq(auditItems.featureKey, filter.featureKey));
  if (filter.actorId) conditions.push(eq(auditItems.actorId, filter.actorId));
  if (filter.action) conditions.push(eq(auditItems.action, filter.action));
  return db
    .select({
      id: auditItems.id,
      title: auditItems.title,
      description: auditItems.description,
      createdAt: auditItems.createdAt,
      resourceType: auditItems.resourceType,
      projectKey: auditItems.projectKey,
      environmentKey: auditItems.environmentKey,
      featureKey: auditItems.featureKey,
      // Only the version the change created, not the whole of what the entry keeps.
      version: sql<number | null>`(${auditItems.data} ->> 'version')::int`,
    })
    .from(auditItems)
    .where(and(...conditions))
    .orderBy(desc(auditItems.createdAt), desc(auditItems.id))
    .offset(page.offset)
    .limit(page.limit);
}

/** Who made the latest audited change of one resource (per environment for controls), if anyone did. */
export async function lastActorOf(
  db: Executor,
  organisationId: string,
  resource: { type: string; id: string; environmentKey?: string | undefined },
) {
  const [row] = await db
    .select({ actorId: auditItems.actorId, data: auditItems.data })
    .from(auditItems)
    .where(
      and(
        eq(auditItems.organisationId, organisationId),
        eq(auditItems.resourceId, resource.id),
        eq(auditItems.resourceType, resource.type),
        resource.environmentKey === undefined
          ? undefined
          : eq(auditItems.environmentKey, resource.environmentKey),
      ),
    )
    .orderBy(desc(auditItems.createdAt), desc(auditItems.id))
    .limit(1);
  return row ?? null;
}
