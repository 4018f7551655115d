/**
 * A password-reset request is answered before anything of the account is read or written, so its
 * answer takes the same work, and the same time, whether or not the address has an account; and
 * the job that does that work is stored before the answer, so a request answered is never lost.
 * Shown without a clock: the account's tables are locked by another connection while the request
 * is made, so any read of them before the answer would hold the answer back. Runs in the
 * PostgreSQL project only (PGlite has one connection).
 */
import { and, eq } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditItems, jobs, oneTimeTokens } from '../src/db/schema/index';
import { createHarness, randomIp, type Harness, type TestUser } from './helpers';

let h: Harness;
let user: TestUser;

beforeAll(async () => {
  h = await createHarness();
  expect(h.database.kind).toBe('postgres');
  user = await h.createOrganisation();
});
afterAll(async () => {
  await h?.close();
});

/** Holds every table the per-account work reads or writes until `release`. */
async function lockAccountTables() {
  const locker = new pg.Client({ connectionString: h.database.url });
  await locker.connect();
  await locker.query('begin');
  await locker.query('lock table users, one_time_tokens, audit_items in access exclusive mode');
  return {
    /** Resolves once a statement of this database waits for one of the locks. */
    async waiter(): Promise<'waiting'> {
      for (;;) {
        const { rows } = await locker.query<{ n: number }>(
          `select count(*)::int as n from pg_stat_activity
            where datname = current_database() and pid <> pg_backend_pid() and wait_event_type = 'Lock'`,
        );
        if (rows[0]!.n > 0) return 'waiting';
      }
    },
    async release() {
      await locker.query('rollback');
      await locker.end();
    },
  };
}

function requestReset(email: string) {
  return h.app.inject({
    method: 'POST',
    url: '/api/account/reset_password/init',
    remoteAddress: randomIp(),
    payload: { email, domain: user.domain },
  });
}

describe('POST /api/account/reset_password/init', () => {
  it('answers an address with an account, as one without, before reading anything of either', async () => {
    for (const email of [user.email, 'nobody@example.com']) {
      const lock = await lockAccountTables();
      try {
        const answered = requestReset(email).then((res) => res.statusCode);
        expect(await Promise.race([answered, lock.waiter()])).toBe(204);
        // Answered, and on record: the job waits for the lock, not in this process's memory.
        const stored = await h.database.db
          .select({ payload: jobs.payload })
          .from(jobs)
          .where(eq(jobs.kind, 'signup.password-reset'));
        expect(stored.map((job) => (job.payload as { email: string }).email)).toContain(email);
        // The work the answer did not wait for is there, held by the lock.
        expect(await lock.waiter()).toBe('waiting');
      } finally {
        await lock.release();
      }
      // The work held by this lock is done before the next lock is taken.
      await h.app.services.signup.mailsSettled();
    }

    // Once the tables are free the work completes: the member's reset key and its audit entry.
    const keys = await h.database.db
      .select({ id: oneTimeTokens.id })
      .from(oneTimeTokens)
      .where(and(eq(oneTimeTokens.userId, user.id), eq(oneTimeTokens.purpose, 'reset_password')));
    expect(keys).toHaveLength(1);
    const audited = await h.database.db
      .select({ title: auditItems.title })
      .from(auditItems)
      .where(eq(auditItems.organisationId, user.organisationId));
    expect(audited.map((a) => a.title)).toContain(`Password reset requested for ${user.email}`);
  });
});
