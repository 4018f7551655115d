import { and, asc, count, desc, eq, inArray, lt, lte } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { webhookDeliveries, webhooks } from '../../db/schema/index';
import type { AttemptRecord, DeliveryRecord, WebhookRecord } from './integrations.types';

/*
 * Outgoing webhooks (docs/adr/0017-integrations-and-outgoing-requests.md): the project's endpoints
 * and the durable queue of their deliveries.
 */

const webhookColumns = {
  id: webhooks.id,
  organisationId: webhooks.organisationId,
  projectId: webhooks.projectId,
  url: webhooks.url,
  description: webhooks.description,
  events: webhooks.events,
  environmentKeys: webhooks.environmentKeys,
  enabled: webhooks.enabled,
  secretEncrypted: webhooks.secretEncrypted,
  createdAt: webhooks.createdAt,
  updatedAt: webhooks.updatedAt,
};

export async function listWebhooks(
  db: Executor,
  organisationId: string,
  projectId: string,
): Promise<WebhookRecord[]> {
  return db
    .select(webhookColumns)
    .from(webhooks)
    .where(and(eq(webhooks.organisationId, organisationId), eq(webhooks.projectId, projectId)))
    .orderBy(asc(webhooks.createdAt), asc(webhooks.id));
}

export async function countWebhooks(
  db: Executor,
  organisationId: string,
  projectId: string,
): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(webhooks)
    .where(and(eq(webhooks.organisationId, organisationId), eq(webhooks.projectId, projectId)));
  return row?.n ?? 0;
}

export async function findWebhook(
  db: Executor,
  organisationId: string,
  projectId: string,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<WebhookRecord | null> {
  const query = db
    .select(webhookColumns)
    .from(webhooks)
    .where(
      and(
        eq(webhooks.organisationId, organisationId),
        eq(webhooks.projectId, projectId),
        eq(webhooks.id, id),
      ),
    )
    .limit(1);
  const [row] = options.forUpdate ? await query.for('update') : await query;
  return row ?? null;
}

export async function webhooksByIds(db: Executor, ids: string[]): Promise<WebhookRecord[]> {
  if (ids.length === 0) return [];
  return db.select(webhookColumns).from(webhooks).where(inArray(webhooks.id, ids));
}

export async function insertWebhook(
  db: Executor,
  values: Omit<WebhookRecord, 'updatedAt'> & { createdById: string },
): Promise<WebhookRecord> {
  const [row] = await db
    .insert(webhooks)
    .values({ ...values, updatedAt: values.createdAt })
    .returning(webhookColumns);
  return row!;
}

export async function updateWebhook(
  db: Executor,
  id: string,
  values: Partial<
    Pick<WebhookRecord, 'url' | 'description' | 'events' | 'environmentKeys' | 'enabled' | 'secretEncrypted'>
  > & { updatedAt: Date },
): Promise<WebhookRecord> {
  const [row] = await db.update(webhooks).set(values).where(eq(webhooks.id, id)).returning(webhookColumns);
  return row!;
}

export async function deleteWebhook(db: Executor, id: string): Promise<void> {
  await db.delete(webhooks).where(eq(webhooks.id, id));
}

/** Every webhook's secret, for a key rotation. */
export async function allWebhookSecrets(db: Executor): Promise<{ id: string; secretEncrypted: string }[]> {
  return db.select({ id: webhooks.id, secretEncrypted: webhooks.secretEncrypted }).from(webhooks);
}

export async function setWebhookSecret(db: Executor, id: string, secretEncrypted: string): Promise<void> {
  await db.update(webhooks).set({ secretEncrypted }).where(eq(webhooks.id, id));
}

const deliveryColumns = {
  id: webhookDeliveries.id,
  organisationId: webhookDeliveries.organisationId,
  webhookId: webhookDeliveries.webhookId,
  messageId: webhookDeliveries.messageId,
  eventType: webhookDeliveries.eventType,
  payload: webhookDeliveries.payload,
  status: webhookDeliveries.status,
  attempts: webhookDeliveries.attempts,
  responseCode: webhookDeliveries.responseCode,
  durationMs: webhookDeliveries.durationMs,
  error: webhookDeliveries.error,
  nextAttemptAt: webhookDeliveries.nextAttemptAt,
  lastAttemptAt: webhookDeliveries.lastAttemptAt,
  createdAt: webhookDeliveries.createdAt,
};

/** The newest delivery of each webhook: its status, and when it was last tried (or created). */
export async function lastDeliveries(
  db: Executor,
  webhookIds: string[],
): Promise<Map<string, { status: DeliveryRecord['status']; at: Date }>> {
  if (webhookIds.length === 0) return new Map();
  const rows = await db
    .selectDistinctOn([webhookDeliveries.webhookId], {
      webhookId: webhookDeliveries.webhookId,
      status: webhookDeliveries.status,
      lastAttemptAt: webhookDeliveries.lastAttemptAt,
      createdAt: webhookDeliveries.createdAt,
    })
    .from(webhookDeliveries)
    .where(inArray(webhookDeliveries.webhookId, webhookIds))
    .orderBy(webhookDeliveries.webhookId, desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id));
  return new Map(
    rows.map((row) => [row.webhookId, { status: row.status, at: row.lastAttemptAt ?? row.createdAt }]),
  );
}

export async function insertDeliveries(
  db: Executor,
  rows: {
    organisationId: string;
    webhookId: string;
    messageId: string;
    eventType: string;
    payload: string;
    createdAt: Date;
    nextAttemptAt: Date | null;
  }[],
): Promise<DeliveryRecord[]> {
  if (rows.length === 0) return [];
  return db.insert(webhookDeliveries).values(rows).returning(deliveryColumns);
}

/** A webhook's deliveries, newest first. */
export async function listDeliveries(
  db: Executor,
  organisationId: string,
  webhookId: string,
  limit: number,
): Promise<DeliveryRecord[]> {
  return db
    .select(deliveryColumns)
    .from(webhookDeliveries)
    .where(
      and(eq(webhookDeliveries.organisationId, organisationId), eq(webhookDeliveries.webhookId, webhookId)),
    )
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
    .limit(limit);
}

export async function findDelivery(
  db: Executor,
  organisationId: string,
  id: string,
): Promise<DeliveryRecord | null> {
  const [row] = await db
    .select(deliveryColumns)
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.organisationId, organisationId), eq(webhookDeliveries.id, id)))
    .limit(1);
  return row ?? null;
}

/**
 * Takes up to `limit` pending deliveries whose time has come, across instances: rows another
 * transaction holds are skipped (FOR UPDATE SKIP LOCKED), and the taken ones are leased until
 * `leaseUntil`, so that no other worker takes them while they are being sent; if this one stops
 * halfway, they come due again then.
 */
export async function claimDueDeliveries(
  db: Executor,
  at: Date,
  leaseUntil: Date,
  limit: number,
): Promise<DeliveryRecord[]> {
  return db.transaction(async (tx) => {
    const due = await tx
      .select({ id: webhookDeliveries.id })
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.status, 'pending'), lte(webhookDeliveries.nextAttemptAt, at)))
      .orderBy(asc(webhookDeliveries.nextAttemptAt))
      .limit(limit)
      .for('update', { skipLocked: true });
    if (due.length === 0) return [];
    return tx
      .update(webhookDeliveries)
      .set({ nextAttemptAt: leaseUntil })
      .where(
        inArray(
          webhookDeliveries.id,
          due.map((row) => row.id),
        ),
      )
      .returning(deliveryColumns);
  });
}

export async function recordAttempt(
  db: Executor,
  id: string,
  values: AttemptRecord,
): Promise<DeliveryRecord> {
  const [row] = await db
    .update(webhookDeliveries)
    .set(values)
    .where(eq(webhookDeliveries.id, id))
    .returning(deliveryColumns);
  return row!;
}

/** Forgets deliveries created before `before`. */
export async function pruneDeliveries(db: Executor, before: Date): Promise<void> {
  await db.delete(webhookDeliveries).where(lt(webhookDeliveries.createdAt, before));
}
