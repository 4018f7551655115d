/**
 * SDK event ingestion across a network partition (docs/adr/0008-event-ingestion-group-commit.md):
 * while a write hangs on a database that answers nothing, requests are answered 503 at once instead
 * of queueing behind it, nothing is acknowledged that is not stored, and storing resumes after.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../src/db/client';
import { impressionCounters } from '../src/db/schema/index';
import { createIngestion } from '../src/sdk/ingestion';
import type { IngestOutcome } from '../src/sdk/events';
import type { EnvironmentSnapshot } from '../src/sdk/sdk-store';
import { createTeam } from './api';
import { createHarness, type Harness } from './helpers';
import { sdkFixture } from './sdk';
import { startTcpProxy, type TcpProxy } from './tcp-proxy';

let h: Harness;
let proxy: TcpProxy;
let proxied: DatabaseHandle;
let snapshot: EnvironmentSnapshot;
let controlId: string;

beforeAll(async () => {
  h = await createHarness();
  const fixture = await sdkFixture((await createTeam(h)).admin.call);
  await h.app.sdk.store.settled();
  snapshot = (await h.app.sdk.store.find(fixture.development.apiKey))!;
  controlId = fixture.checkout.controls.development!.id;
  const target = new URL(h.database.url!);
  proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
  proxied = openDatabase({
    kind: 'postgres',
    url: proxy.url(h.database.url!),
    max: 2,
    timeouts: {
      connectMs: 1_000,
      statementMs: 2_000,
      queryMs: 3_000,
      idleInTransactionMs: 2_000,
      pingMs: 500,
    },
  });
});
afterAll(async () => {
  proxy?.restore();
  await proxied?.close();
  await proxy?.close();
  await h?.close();
});

const event = (user: string) => ({ featureKey: 'checkout', evaluatedVariant: 'on', user: { id: user } });

async function stored() {
  const rows = await h.database.db
    .select()
    .from(impressionCounters)
    .where(eq(impressionCounters.featureControlId, controlId));
  return rows.reduce((sum, row) => sum + row.count, 0);
}

describe('event ingestion during a partition', () => {
  it('answers 503 at once behind a hung write, acknowledges only what is stored, and resumes', async () => {
    const ingestion = createIngestion({
      db: proxied.db,
      logger: h.app.log,
      stallMs: 300,
      flushIntervalMs: 5,
    });
    const before = await stored();
    // A first write over the proxy, so that the pool holds a connection the cut then strands.
    expect(await ingestion.record(snapshot, [event('warm')], new Date())).toEqual({ status: 'stored' });
    const settled: string[] = [];
    const track = (name: string, outcome: Promise<IngestOutcome>) =>
      outcome.then((result) => {
        settled.push(name);
        return result;
      });

    proxy.cut();
    let first: Promise<IngestOutcome>;
    try {
      first = track('first', ingestion.record(snapshot, [event('a')], new Date()));
      await new Promise((resolve) => setTimeout(resolve, 50));
      // Queued behind the hung write: answered when the write is seen to hang, not after it.
      const queued = track('queued', ingestion.record(snapshot, [event('b')], new Date()));
      expect(await queued).toMatchObject({ status: 'unavailable' });
      // Arriving while storage is known to be down: answered at once.
      const later = await track('later', ingestion.record(snapshot, [event('c')], new Date()));
      expect(later).toMatchObject({ status: 'unavailable', retryAfterSeconds: 5 });
      expect(settled).toEqual(['queued', 'later']);
    } finally {
      proxy.restore();
    }
    const firstOutcome = await first;
    expect(['stored', 'unavailable']).toContain(firstOutcome.status);

    // Once the database answers again, events are stored.
    let resumed: IngestOutcome = { status: 'unavailable', retryAfterSeconds: 5 };
    for (let attempt = 0; attempt < 50 && resumed.status !== 'stored'; attempt++) {
      resumed = await ingestion.record(snapshot, [event('d')], new Date());
      if (resumed.status !== 'stored') await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(resumed).toEqual({ status: 'stored' });
    await ingestion.stop();
    // Stored = acknowledged: the warm-up, `d`, and `a` only if it was acknowledged.
    expect((await stored()) - before).toBe(2 + (firstOutcome.status === 'stored' ? 1 : 0));
  });
});
