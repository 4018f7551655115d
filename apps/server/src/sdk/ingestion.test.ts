import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { eq, sql } from 'drizzle-orm';
import type { Environment } from '@vexil/core';
import { impressionCounters, targetUsers } from '../db/schema/index';
import { createTeam } from '../../test/api';
import { createHarness, type Harness } from '../../test/helpers';
import { sdkFixture } from '../../test/sdk';
import { createIngestion } from './ingestion';
import type { SdkEvent } from './events';
import type { EnvironmentSnapshot } from './sdk-store';

/** Two organisations, each with a project `web`, a feature `checkout` and its environments. */
let h: Harness;
let mine: Awaited<ReturnType<typeof sdkFixture>>;
let theirs: Awaited<ReturnType<typeof sdkFixture>>;

beforeAll(async () => {
  // Retries a millisecond apart: the outage test waits out every retry before its 503.
  h = await createHarness({}, { ingestion: { retryDelayMs: 1 } });
  mine = await sdkFixture((await createTeam(h)).admin.call);
  theirs = await sdkFixture((await createTeam(h)).admin.call);
  await h.app.sdk.store.settled();
});
afterAll(async () => {
  await h.close();
});

async function storedImpressions(fixture: typeof mine, environment: Environment = fixture.development) {
  const controlId = fixture.checkout.controls[environment.key]!.id;
  const rows = await h.database.db
    .select()
    .from(impressionCounters)
    .where(eq(impressionCounters.featureControlId, controlId));
  return rows.reduce((sum, row) => sum + row.count, 0);
}

function postServer(environment: Environment, payload: string) {
  return h.app.inject({
    method: 'POST',
    url: '/api/sdk/v1/events',
    headers: { authorization: `Bearer ${environment.apiKey}` },
    payload,
  });
}

function postJs(environment: Environment, payload: string) {
  return h.app.inject({ method: 'POST', url: `/api/js/v1/event/${environment.jsApiKey}`, payload });
}

const evaluate = (user = 'u1', extra: Record<string, unknown> = {}) => ({
  featureKey: 'checkout',
  evaluatedVariant: 'on',
  user: { id: user },
  ...extra,
});

async function snapshotOf(environment: Environment): Promise<EnvironmentSnapshot> {
  return (await h.app.sdk.store.find(environment.apiKey))!;
}

describe('POST events: acknowledged means stored', () => {
  it.each([
    ['server', postServer],
    ['JS client', postJs],
  ] as const)('answers the %s route only once its impressions are in the database', async (_, post) => {
    const before = await storedImpressions(mine);
    const res = await post(
      mine.development,
      JSON.stringify([evaluate('a'), evaluate('b', { impressions: 4 })]),
    );
    expect(res.statusCode).toBe(200);
    // No flush, no wait: the 200 itself says the rows are committed.
    expect((await storedImpressions(mine)) - before).toBe(5);
  });

  it('answers 503 with Retry-After, and stores nothing, while storage fails; then stores again', async () => {
    const before = await storedImpressions(mine);
    await h.database.db.execute(sql`alter table impression_counters rename to impression_counters_away`);
    try {
      const res = await postServer(mine.development, JSON.stringify([evaluate('down')]));
      expect(res.statusCode).toBe(503);
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      expect(res.json()).toMatchObject({ title: 'The events could not be stored, please retry.' });
    } finally {
      await h.database.db.execute(sql`alter table impression_counters_away rename to impression_counters`);
    }
    expect(await storedImpressions(mine)).toBe(before);
    const again = await postServer(mine.development, JSON.stringify([evaluate('up')]));
    expect(again.statusCode).toBe(200);
    expect((await storedImpressions(mine)) - before).toBe(1);
  });
});

describe('POST events: poison is refused at intake and never blocks anyone', () => {
  const poisons: [string, unknown][] = [
    ['a NUL in the variant', [evaluate('p', { evaluatedVariant: 'o\u0000n' })]],
    ['a NUL in the user id', [evaluate('p\u0000q')]],
    ['a NUL in an attribute key', [{ ...evaluate(), user: { id: 'p', attributes: { 'a\u0000b': 'x' } } }]],
    ['a NUL in an attribute value', [{ ...evaluate(), user: { id: 'p', attributes: { plan: 'x\u0000' } } }]],
    ['a NUL in a goal key', [{ type: 'goal', goalKey: 'buy\u0000', user: { id: 'p' } }]],
    [
      'a lone surrogate in an attribute value',
      [{ ...evaluate(), user: { id: 'p', attributes: { a: '\ud800' } } }],
    ],
    [
      'a 1 MB attribute value',
      [{ ...evaluate(), user: { id: 'p', attributes: { a: 'x'.repeat(1_000_000) } } }],
    ],
    [
      'deeply nested JSON',
      [evaluate('p', { extra: JSON.parse('['.repeat(200) + ']'.repeat(200)) as unknown })],
    ],
    ['a wrong type', [evaluate('p', { impressions: 'many' })]],
    [
      'too many attributes',
      [
        {
          ...evaluate(),
          user: {
            id: 'p',
            attributes: Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`k${i}`, i])),
          },
        },
      ],
    ],
  ];

  it.each(poisons)('refuses %s with 400 on both routes', async (_, events) => {
    for (const post of [postServer, postJs]) {
      const res = await post(mine.development, JSON.stringify(events));
      expect(res.statusCode).toBe(400);
      expect(res.json<{ title: string }>().title).toMatch(/not valid/);
    }
  });

  it('stores another organisation’s events after every kind of poison was posted', async () => {
    for (const [, events] of poisons) await postJs(mine.development, JSON.stringify(events));
    const before = await storedImpressions(theirs);
    const res = await postJs(theirs.development, JSON.stringify([evaluate('x'), evaluate('y')]));
    expect(res.statusCode).toBe(200);
    expect((await storedImpressions(theirs)) - before).toBe(2);
  });

  it.each([
    ['year 10000', '+010000-01-01T00:00:00.000Z'],
    ['before year 0', '-000001-01-01T00:00:00.000Z'],
    ['not a date', 'yesterday'],
  ])('counts an event stamped %s as happening when it arrived', async (_, timestamp) => {
    const before = await storedImpressions(mine);
    const res = await postServer(mine.development, JSON.stringify([evaluate('t', { timestamp })]));
    expect(res.statusCode).toBe(200);
    expect((await storedImpressions(mine)) - before).toBe(1);
    const today = new Date().toISOString().slice(0, 10);
    const [row] = await h.database.db
      .select()
      .from(impressionCounters)
      .where(eq(impressionCounters.featureControlId, mine.checkout.controls.development!.id))
      .orderBy(sql`${impressionCounters.day} desc`)
      .limit(1);
    expect(row?.day).toBe(today);
  });

  it('never answers 5xx, and stores exactly what it acknowledges, whatever the events (property)', async () => {
    const text = fc.oneof(
      fc.string(),
      fc.string({ unit: 'binary' }),
      fc.constantFrom('\u0000', '\ud800x', ''),
    );
    const event = fc.record(
      {
        type: fc.constantFrom('evaluate', 'goal', undefined, 'other'),
        featureKey: fc.constantFrom('checkout', 'missing'),
        evaluatedVariant: fc.oneof(fc.constantFrom('on', 'off'), text),
        impressions: fc.option(fc.integer({ min: 0, max: 5 }), { nil: undefined }),
        timestamp: fc.oneof(
          text,
          fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
        ),
        goalKey: text,
        user: fc.oneof(
          text,
          fc.record({
            id: text,
            attributes: fc.dictionary(text, fc.oneof(text, fc.integer(), fc.boolean())),
          }),
        ),
      },
      { requiredKeys: ['featureKey'] },
    );
    await fc.assert(
      fc.asyncProperty(fc.array(event, { maxLength: 8 }), async (events) => {
        const before = await storedImpressions(mine);
        const res = await postJs(mine.development, JSON.stringify(events));
        expect(res.statusCode).toBeLessThan(500);
        const after = await storedImpressions(mine);
        if (res.statusCode !== 200) {
          expect(after).toBe(before);
          return;
        }
        // Counted: evaluations of the feature naming a variant, once each or `impressions` times
        // (a variant the feature lacks counts too, up to a daily bound this test stays under).
        const expected = (events as SdkEvent[])
          .filter((e) => (e.type ?? 'evaluate') === 'evaluate' && e.featureKey === 'checkout')
          .filter((e) => !!e.evaluatedVariant)
          .reduce((sum, e) => sum + (e.impressions ?? 1), 0);
        expect(after - before).toBe(expected);
      }),
      { numRuns: 40 },
    );
  });
});

describe('ingestion isolation and limits', () => {
  it('refuses only the request whose rows the database rejects; the others in its group are stored', async () => {
    // Past intake (which refuses NUL): as if a row the database rejects had slipped through.
    const ingestion = createIngestion({ db: h.database.db, logger: h.app.log, flushIntervalMs: 60_000 });
    const minesBefore = await storedImpressions(mine);
    const theirsBefore = await storedImpressions(theirs);
    try {
      const bad = ingestion.record(await snapshotOf(mine.development), [evaluate('bad\u0000id')], new Date());
      const good = ingestion.record(await snapshotOf(mine.development), [evaluate('ok')], new Date());
      const other = ingestion.record(await snapshotOf(theirs.development), [evaluate('ok')], new Date());
      await ingestion.flush();
      expect(await bad).toEqual({ status: 'refused' });
      expect(await good).toEqual({ status: 'stored' });
      expect(await other).toEqual({ status: 'stored' });
    } finally {
      await ingestion.stop();
    }
    expect((await storedImpressions(mine)) - minesBefore).toBe(1);
    expect((await storedImpressions(theirs)) - theirsBefore).toBe(1);
  });

  it('drops only the rows of a control deleted meanwhile, and stores the rest', async () => {
    const ingestion = createIngestion({ db: h.database.db, logger: h.app.log, flushIntervalMs: 60_000 });
    const snapshot = await snapshotOf(mine.development);
    const before = await storedImpressions(mine);
    const vanished = {
      ...snapshot,
      controls: new Map([
        [
          'checkout',
          { ...snapshot.controls.get('checkout')!, controlId: '00000000-0000-4000-8000-000000000000' },
        ],
      ]),
    };
    try {
      const gone = ingestion.record(vanished, [evaluate()], new Date());
      const kept = ingestion.record(snapshot, [evaluate(), evaluate()], new Date());
      await ingestion.flush();
      expect(await gone).toEqual({ status: 'stored' });
      expect(await kept).toEqual({ status: 'stored' });
    } finally {
      await ingestion.stop();
    }
    expect((await storedImpressions(mine)) - before).toBe(2);
  });

  it('gives a flooding environment 429 past its fair share while a quiet one is always let in', async () => {
    const ingestion = createIngestion({
      db: h.database.db,
      logger: h.app.log,
      flushIntervalMs: 60_000,
      maxPendingEvents: 10,
    });
    const flood = await snapshotOf(mine.development);
    const quiet = await snapshotOf(theirs.development);
    const waiting: Promise<unknown>[] = [];
    try {
      waiting.push(
        ingestion.record(
          flood,
          Array.from({ length: 8 }, (_, i) => evaluate(`f${i}`)),
          new Date(),
        ),
      );
      expect(
        await ingestion.record(flood, [evaluate('f9'), evaluate('f10'), evaluate('f11')], new Date()),
      ).toEqual({
        status: 'busy',
        retryAfterSeconds: 60,
      });
      waiting.push(ingestion.record(quiet, [evaluate('q1'), evaluate('q2')], new Date()));
      expect(ingestion.pendingEvents(quiet.keys.environmentId)).toBe(2);
      await ingestion.flush();
      expect(await Promise.all(waiting)).toEqual([{ status: 'stored' }, { status: 'stored' }]);
      // Answered requests give their share back.
      expect(ingestion.pendingEvents(flood.keys.environmentId)).toBe(0);
    } finally {
      await ingestion.stop();
    }
  });

  it('records at most the daily number of new users of an environment, and still counts every impression', async () => {
    // A new organisation's environment: no user of it was seen before.
    const fixture = await sdkFixture((await createTeam(h)).admin.call);
    await h.app.sdk.store.settled();
    const ingestion = createIngestion({ db: h.database.db, logger: h.app.log, maxUsersPerDay: 3 });
    const snapshot = await snapshotOf(fixture.development);
    try {
      const events = Array.from({ length: 5 }, (_, i) => evaluate(`new-${i}`));
      expect(await ingestion.record(snapshot, events, new Date())).toEqual({ status: 'stored' });
      // A user already seen today is still recorded.
      expect(await ingestion.record(snapshot, [evaluate('new-0'), evaluate('new-9')], new Date())).toEqual({
        status: 'stored',
      });
    } finally {
      await ingestion.stop();
    }
    const users = await h.database.db
      .select()
      .from(targetUsers)
      .where(eq(targetUsers.environmentId, fixture.development.id));
    expect(users).toHaveLength(3);
    expect(await storedImpressions(fixture)).toBe(7);
  });

  it('answers what waits when it stops, and refuses new events with 503 afterwards', async () => {
    const ingestion = createIngestion({ db: h.database.db, logger: h.app.log, flushIntervalMs: 60_000 });
    const snapshot = await snapshotOf(mine.development);
    const before = await storedImpressions(mine);
    const waiting = ingestion.record(snapshot, [evaluate('last')], new Date());
    await ingestion.stop();
    expect(await waiting).toEqual({ status: 'stored' });
    expect((await storedImpressions(mine)) - before).toBe(1);
    expect((await ingestion.record(snapshot, [evaluate('late')], new Date())).status).toBe('unavailable');
  });
});
