import { and, eq, gt, inArray, isNull, lt, sql } from 'drizzle-orm';
import { SIGNUP_PIN_TRIES } from '@vexil/core';
import type { Executor } from '../../db/client';
import { organisations, signups } from '../../db/schema/index';

/** A sign-up wizard in progress, found by the SHA-256 of its `once`. */
export type SignupRecord = {
  id: string;
  email: string;
  pinHash: string;
  attempts: number;
  verifiedAt: Date | null;
  completedAt: Date | null;
  expiresAt: Date;
};

export async function insertSignup(
  db: Executor,
  values: {
    email: string;
    onceTokenHash: string;
    pinHash: string;
    beta: boolean;
    expiresAt: Date;
    createdAt: Date;
  },
): Promise<void> {
  await db.insert(signups).values(values);
}

/**
 * Ends the sign-up of `onceTokenHash` (its pin replaced by a new one) unless it was already completed:
 * its pin stops working at once.
 */
export async function endSignup(db: Executor, onceTokenHash: string, at: Date): Promise<void> {
  await db
    .update(signups)
    .set({ expiresAt: at })
    .where(and(eq(signups.onceTokenHash, onceTokenHash), isNull(signups.completedAt)));
}

/** The sign-up row, locked until the caller's transaction ends. */
export async function findSignupForUpdate(db: Executor, onceTokenHash: string): Promise<SignupRecord | null> {
  const [row] = await db
    .select({
      id: signups.id,
      email: signups.email,
      pinHash: signups.pinHash,
      attempts: signups.attempts,
      verifiedAt: signups.verifiedAt,
      completedAt: signups.completedAt,
      expiresAt: signups.expiresAt,
    })
    .from(signups)
    .where(eq(signups.onceTokenHash, onceTokenHash))
    .limit(1)
    .for('update');
  return row ?? null;
}

/** Whether the sign-up of `onceTokenHash` still waits for its pin: not confirmed, ended, completed or spent. */
export async function signupAwaitsPin(db: Executor, onceTokenHash: string, at: Date): Promise<boolean> {
  const [row] = await db
    .select({ id: signups.id })
    .from(signups)
    .where(
      and(
        eq(signups.onceTokenHash, onceTokenHash),
        isNull(signups.verifiedAt),
        isNull(signups.completedAt),
        gt(signups.expiresAt, at),
        lt(signups.attempts, SIGNUP_PIN_TRIES),
      ),
    )
    .limit(1);
  return row !== undefined;
}

export async function countWrongPin(db: Executor, id: string): Promise<void> {
  await db
    .update(signups)
    .set({ attempts: sql`${signups.attempts} + 1` })
    .where(eq(signups.id, id));
}

/** The pin was right: the sign-up may be completed until `expiresAt`. */
export async function markSignupVerified(db: Executor, id: string, at: Date, expiresAt: Date): Promise<void> {
  await db.update(signups).set({ verifiedAt: at, expiresAt }).where(eq(signups.id, id));
}

export async function markSignupCompleted(db: Executor, id: string, at: Date): Promise<void> {
  await db.update(signups).set({ completedAt: at }).where(eq(signups.id, id));
}

/** Which of `domains` (normalised) organisations already have. */
export async function takenDomains(db: Executor, domains: string[]): Promise<Set<string>> {
  if (domains.length === 0) return new Set();
  const rows = await db
    .select({ domain: organisations.domain })
    .from(organisations)
    .where(inArray(organisations.domain, domains));
  return new Set(rows.map((r) => r.domain));
}
