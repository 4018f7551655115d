/**
 * Two server instances on one PostgreSQL, each with its scheduler running (docs/adr/0025-scheduler.md):
 * 200 steps falling due at the same moment are each applied exactly once — 200 versions with source
 * `schedule`, 200 audit entries, each schedule completed with one `applied` entry. Runs in the
 * PostgreSQL project only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, count, eq, isNotNull, sql } from 'drizzle-orm';
import type { Project, Schedule } from '@vexil/core';
import { auditItems, scheduleEvents, schedules, versions } from '../src/db/schema/index';
import { createTeam, type Team } from './api';
import { createFeature } from './features';
import { createHarness, secondInstance, type Harness, type TestApp } from './helpers';

let h: Harness;
let team: Team;
let second: TestApp;

beforeAll(async () => {
  h = await createHarness();
  expect(h.database.kind).toBe('postgres');
  second = await secondInstance(h);
  team = await createTeam(h);
});
afterAll(async () => {
  await second?.close();
  await h?.close();
});

describe('two instances with their schedulers on one PostgreSQL', () => {
  it('apply each of 200 steps due at the same moment exactly once', async () => {
    const project = (
      await team.admin.call('POST', '/api/v1/projects/', { name: 'Web', key: 'web' })
    ).json<Project>();
    const environments = project.environments.map((e) => e.key).slice(0, 2);
    const features = 200 / environments.length;
    for (let i = 0; i < features; i++)
      await createFeature(team.admin.call, 'web', { name: `Feature ${i}`, key: `feature-${i}` });
    const at = new Date(Date.now() + 4_000).toISOString();
    const made = await Promise.all(
      Array.from({ length: 200 }, async (_, i) => {
        const res = await team.admin.call('POST', '/api/v1/projects/web/schedules', {
          kind: 'once',
          featureKey: `feature-${i % features}`,
          environmentKey: environments[Math.floor(i / features)],
          at,
          change: { enabled: true },
        });
        expect(res.statusCode, res.body).toBe(201);
        return res.json<Schedule>();
      }),
    );
    expect(new Set(made.map((s) => s.id)).size).toBe(200);

    const completed = async () =>
      (await h.database.db.select({ n: count() }).from(schedules).where(eq(schedules.state, 'completed')))[0]!
        .n;
    await expect.poll(completed, { timeout: 60_000, interval: 200 }).toBe(200);

    const [written] = await h.database.db
      .select({ n: count() })
      .from(versions)
      .where(eq(versions.source, 'schedule'));
    expect(written!.n).toBe(200);
    const [audited] = await h.database.db
      .select({ n: count() })
      .from(auditItems)
      .where(and(isNotNull(auditItems.data), sql`${auditItems.data} ? 'scheduleId'`));
    expect(audited!.n).toBe(200);
    const applied = await h.database.db
      .select({ id: scheduleEvents.scheduleId, n: count() })
      .from(scheduleEvents)
      .where(eq(scheduleEvents.kind, 'applied'))
      .groupBy(scheduleEvents.scheduleId);
    expect(applied).toHaveLength(200);
    expect(applied.every((row) => row.n === 1)).toBe(true);
  }, 120_000);
});
