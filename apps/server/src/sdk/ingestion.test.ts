import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Environment } from '@vexil/core';
import { impressionCounters } from '../db/schema/index';
import { createTeam } from '../../test/api';
import { createHarness, type Harness } from '../../test/helpers';
import { sdkFixture } from '../../test/sdk';
import { createIngestion } from './ingestion';

let h: Harness;
let development: Environment;
let controlId: string;

beforeAll(async () => {
  h = await createHarness();
  const team = await createTeam(h);
  const fixture = await sdkFixture(team.admin.call);
  development = fixture.development;
  controlId = fixture.checkout.controls.development!.id;
  await h.app.sdk.store.settled();
});
afterAll(async () => {
  await h.close();
});

const row = { featureKey: 'checkout', evaluatedVariant: 'on', user: { id: 'u1' } };

describe('event ingestion', () => {
  it('refuses new batches once too much waits for a flush, and takes them again after it', async () => {
    const ingestion = createIngestion({
      db: h.database.db,
      logger: h.app.log,
      flushIntervalMs: 60_000,
      maxPending: 2,
    });
    const snapshot = (await h.app.sdk.store.find(development.apiKey))!;
    try {
      expect(ingestion.record(snapshot, [row], new Date())).toBe(true);
      expect(ingestion.pendingSize()).toBeGreaterThanOrEqual(2);
      expect(ingestion.record(snapshot, [row], new Date())).toBe(false);
      await ingestion.flush();
      expect(ingestion.pendingSize()).toBe(0);
      expect(ingestion.record(snapshot, [row], new Date())).toBe(true);
    } finally {
      await ingestion.stop();
    }
    const counters = await h.database.db
      .select()
      .from(impressionCounters)
      .where(eq(impressionCounters.featureControlId, controlId));
    expect(counters.reduce((sum, c) => sum + c.count, 0)).toBe(2);
  });

  it('drops only the rows of a control that no longer exists, and writes the rest', async () => {
    const ingestion = createIngestion({ db: h.database.db, logger: h.app.log, flushIntervalMs: 60_000 });
    const snapshot = (await h.app.sdk.store.find(development.apiKey))!;
    const before = (
      await h.database.db
        .select()
        .from(impressionCounters)
        .where(eq(impressionCounters.featureControlId, controlId))
    ).reduce((s, c) => s + c.count, 0);
    // A row for a control that does not exist fails the whole transaction's foreign key check.
    const broken = {
      ...snapshot,
      controls: new Map([
        [
          'checkout',
          { ...snapshot.controls.get('checkout')!, controlId: '00000000-0000-4000-8000-000000000000' },
        ],
      ]),
    };
    ingestion.record(broken, [row], new Date());
    ingestion.record(snapshot, [row, row], new Date());
    await ingestion.stop();
    expect(ingestion.pendingSize()).toBe(0);
    const after = (
      await h.database.db
        .select()
        .from(impressionCounters)
        .where(eq(impressionCounters.featureControlId, controlId))
    ).reduce((s, c) => s + c.count, 0);
    expect(after - before).toBe(2);
  });

  it('is answered 429 with Retry-After by the events endpoint when overloaded', async () => {
    const own = await createHarness();
    try {
      const team = await createTeam(own);
      const fixture = await sdkFixture(team.admin.call);
      await own.app.sdk.store.settled();
      const many = Array.from({ length: 20_000 }, (_, i) => ({
        featureKey: 'checkout',
        evaluatedVariant: 'on',
        user: { id: `user-${i}` },
      }));
      let status = 200;
      let retryAfter: string | undefined;
      for (let i = 0; i < 20 && status === 200; i++) {
        const res = await own.app.inject({
          method: 'POST',
          url: '/api/sdk/v1/events',
          headers: { authorization: `Bearer ${fixture.development.apiKey}` },
          payload: JSON.stringify(many.map((e) => ({ ...e, user: { id: `${e.user.id}-${i}` } }))),
        });
        status = res.statusCode;
        retryAfter = res.headers['retry-after'] as string | undefined;
      }
      expect(status).toBe(429);
      expect(retryAfter).toBe('60');
    } finally {
      await own.close();
    }
  });
});
