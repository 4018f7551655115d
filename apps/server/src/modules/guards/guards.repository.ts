import { and, eq } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { rampAlerts } from '../../db/schema/index';

/* The guards module's tables (docs/adr/0026-guarded-rollouts.md): every query is scoped to the organisation. */

export type RampAlertRecord = typeof rampAlerts.$inferSelect;
export type NewRampAlert = Omit<typeof rampAlerts.$inferInsert, 'createdAt' | 'lastAlertAt' | 'lastResult'>;

/** A ramp's alert URL, if it has one. */
export async function alertOf(
  db: Executor,
  organisationId: string,
  scheduleId: string,
): Promise<RampAlertRecord | undefined> {
  const [row] = await db
    .select()
    .from(rampAlerts)
    .where(and(eq(rampAlerts.organisationId, organisationId), eq(rampAlerts.scheduleId, scheduleId)));
  return row;
}

/** The alert URL a token opens; the token is the only scope a caller without a session has. */
export async function alertByToken(db: Executor, tokenHash: string): Promise<RampAlertRecord | undefined> {
  const [row] = await db.select().from(rampAlerts).where(eq(rampAlerts.tokenHash, tokenHash));
  return row;
}

/** Makes a ramp's alert URL, or replaces its token and action (the old token stops working). */
export async function putAlert(db: Executor, alert: NewRampAlert, at: Date): Promise<RampAlertRecord> {
  const [row] = await db
    .insert(rampAlerts)
    .values({ ...alert, createdAt: at })
    .onConflictDoUpdate({
      target: rampAlerts.scheduleId,
      set: {
        tokenHash: alert.tokenHash,
        action: alert.action,
        createdById: alert.createdById,
        createdByName: alert.createdByName,
        createdAt: at,
      },
    })
    .returning();
  return row!;
}

export async function deleteAlert(
  db: Executor,
  organisationId: string,
  scheduleId: string,
): Promise<boolean> {
  const rows = await db
    .delete(rampAlerts)
    .where(and(eq(rampAlerts.organisationId, organisationId), eq(rampAlerts.scheduleId, scheduleId)))
    .returning({ scheduleId: rampAlerts.scheduleId });
  return rows.length > 0;
}

/** Notes when an alert came and what it did. */
export async function noteAlert(
  db: Executor,
  organisationId: string,
  scheduleId: string,
  at: Date,
  result: string,
): Promise<void> {
  await db
    .update(rampAlerts)
    .set({ lastAlertAt: at, lastResult: result })
    .where(and(eq(rampAlerts.organisationId, organisationId), eq(rampAlerts.scheduleId, scheduleId)));
}
