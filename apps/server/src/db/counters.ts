import { createHash } from 'node:crypto';
import { and, eq, gt, lt, sql } from 'drizzle-orm';
import type { Database, Executor } from './client';
import { throttleCounters } from './schema/index';

/** Expired rows are deleted at most this often by each instance, on its next count. */
const SWEEP_EVERY_MS = 10 * 60 * 1000;

export type SharedCounters = ReturnType<typeof createSharedCounters>;

/** A counter's state after a count: how many in its window, and how long until the window ends. */
export type Counted = { count: number; msLeft: number };

function keyHash(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

const timestamp = (at: Date) => sql`${at.toISOString()}::timestamptz`;

/**
 * Counters in the database, so that every instance on one PostgreSQL counts against the same limit
 * and a restart forgets nothing: the login throttle, the e-mails an address may be sent, and the
 * per-client-address limits of the public routes. Each count is one statement (an upsert), on paths
 * that are rare by nature: sign-in attempts, sign-up, reset and find-organisation requests.
 */
export function createSharedCounters(db: Database, now: () => Date = () => new Date()) {
  let lastSweep = 0;

  async function sweep(at: Date): Promise<void> {
    if (at.getTime() - lastSweep < SWEEP_EVERY_MS) return;
    lastSweep = at.getTime();
    await db.delete(throttleCounters).where(lt(throttleCounters.expiresAt, at));
  }

  return {
    now,

    /**
     * Counts one for `key` in a window of `windowMs` that starts at its first count; with `slide`,
     * each count starts the window again (a run forgotten after a quiet spell). Pass a transaction
     * to count several keys all or none.
     */
    async count(
      key: string,
      windowMs: number,
      options: { slide?: boolean; executor?: Executor } = {},
    ): Promise<Counted> {
      const at = now();
      if (!options.executor) await sweep(at);
      const ends = new Date(at.getTime() + windowMs);
      const { expiresAt, count, blockedUntil } = throttleCounters;
      const expired = sql`${expiresAt} <= ${timestamp(at)}`;
      const [row] = await (options.executor ?? db)
        .insert(throttleCounters)
        .values({ keyHash: keyHash(key), count: 1, expiresAt: ends })
        .onConflictDoUpdate({
          target: throttleCounters.keyHash,
          set: {
            count: sql`case when ${expired} then 1 else ${count} + 1 end`,
            expiresAt: options.slide
              ? ends
              : sql`case when ${expired} then ${timestamp(ends)} else ${expiresAt} end`,
            blockedUntil: sql`case when ${expired} then null else ${blockedUntil} end`,
          },
        })
        .returning({ count, expiresAt });
      return { count: row!.count, msLeft: Math.max(0, row!.expiresAt.getTime() - at.getTime()) };
    },

    /** Milliseconds until `key` may be tried again (`block`), 0 when it may be now. */
    async blockedFor(key: string): Promise<number> {
      const at = now();
      const [row] = await db
        .select({ blockedUntil: throttleCounters.blockedUntil })
        .from(throttleCounters)
        .where(
          and(
            eq(throttleCounters.keyHash, keyHash(key)),
            gt(throttleCounters.expiresAt, at),
            gt(throttleCounters.blockedUntil, at),
          ),
        );
      return row?.blockedUntil ? row.blockedUntil.getTime() - at.getTime() : 0;
    },

    /** Blocks a counted `key` for `ms` from now. */
    async block(key: string, ms: number): Promise<void> {
      await db
        .update(throttleCounters)
        .set({ blockedUntil: new Date(now().getTime() + ms) })
        .where(eq(throttleCounters.keyHash, keyHash(key)));
    },

    async forget(key: string): Promise<void> {
      await db.delete(throttleCounters).where(eq(throttleCounters.keyHash, keyHash(key)));
    },

    /** Runs `work` in one transaction, for counts that must be taken all or none. */
    transaction<T>(work: (tx: Executor) => Promise<T>): Promise<T> {
      return db.transaction(work);
    },
  };
}
