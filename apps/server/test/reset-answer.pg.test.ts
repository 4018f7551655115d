/**
 * A password-reset request is answered before anything of the organisation or the account is read
 * or written, so its answer takes the same work, and the same time, whether or not the address has
 * an account. Shown without a clock: those tables are locked by another connection while the
 * request is made, so any read of them before the answer would hold the answer back. Runs in the
 * PostgreSQL project only (PGlite has one connection).
 */
import { and, eq } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditItems, oneTimeTokens } from '../src/db/schema/index';
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
  await locker.query(
    'lock table organisations, users, one_time_tokens, audit_items in access exclusive mode',
  );
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
