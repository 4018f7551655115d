/**
 * One tenant's events do not hold up another's (docs/adr/0008-event-ingestion-group-commit.md): an
 * environment whose write is slow keeps its lane, and another environment's events are stored beside
 * it on a connection of their own. The slow write is made certain here by a row lock another
 * connection holds on the flooding environment's control. Runs in the PostgreSQL project only.
 */
import { eq } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Environment } from '@vexil/core';
import { impressionCounters } from '../src/db/schema/index';
import { createTeam } from './api';
import { createHarness, type Harness } from './helpers';
import { sdkFixture } from './sdk';

let h: Harness;
let flooding: Awaited<ReturnType<typeof sdkFixture>>;
let quiet: Awaited<ReturnType<typeof sdkFixture>>;

beforeAll(async () => {
  h = await createHarness();
  expect(h.database.kind).toBe('postgres');
  flooding = await sdkFixture((await createTeam(h)).admin.call);
  quiet = await sdkFixture((await createTeam(h)).admin.call);
  await h.app.sdk.store.settled();
});
afterAll(async () => {
  await h?.close();
});

function postEvents(environment: Environment, user: string) {
  return h.app.inject({
    method: 'POST',
    url: '/api/sdk/v1/events',
    headers: { authorization: `Bearer ${environment.apiKey}` },
    payload: JSON.stringify([{ featureKey: 'checkout', evaluatedVariant: 'on', user: { id: user } }]),
  });
}

async function storedImpressions(fixture: typeof quiet) {
  const controlId = fixture.checkout.controls[fixture.development.key]!.id;
  const rows = await h.database.db
    .select({ count: impressionCounters.count })
    .from(impressionCounters)
    .where(eq(impressionCounters.featureControlId, controlId));
  return rows.reduce((sum, row) => sum + row.count, 0);
}

describe('event ingestion with one environment’s write held up', () => {
  it('stores another environment’s events beside it, and the held one once it is free', async () => {
    const locker = new pg.Client({ connectionString: h.database.url });
    await locker.connect();
    await locker.query('begin');
    await locker.query('select id from feature_controls where id = $1 for update', [
      flooding.checkout.controls[flooding.development.key]!.id,
    ]);
    try {
      const held = postEvents(flooding.development, 'flood-user');
      // The flooding environment's write is under way, waiting for the row.
      for (;;) {
        const { rows } = await locker.query<{ n: number }>(
          `select count(*)::int as n from pg_stat_activity
            where datname = current_database() and wait_event_type = 'Lock'`,
        );
        if (rows[0]!.n > 0) break;
      }

      const beside = await postEvents(quiet.development, 'quiet-user');
      expect(beside.statusCode, beside.body).toBe(200);
      expect(await storedImpressions(quiet)).toBe(1);
      expect(await storedImpressions(flooding)).toBe(0);

      await locker.query('rollback');
      expect((await held).statusCode).toBe(200);
      expect(await storedImpressions(flooding)).toBe(1);
    } finally {
      await locker.end();
    }
  });
});
