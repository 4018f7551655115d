import { readFileSync } from 'node:fs';
import { and, desc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Segment, Version, VersionDiff, VersionPage } from '@vexil/core';
import { auditItems, versions as versionsTable } from '../../db/schema/index';
import { createTeam, type Caller, type Team } from '../../../test/api';
import { createHarness, type Harness } from '../../../test/helpers';

let h: Harness;
let team: Team;

beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h.close();
});
beforeEach(async () => {
  await h.database.reset();
  team = await createTeam(h);
  const res = await team.admin.call('POST', '/api/v1/projects/', { name: 'Web shop', key: 'web' });
  expect(res.statusCode, res.body).toBe(201);
});

const history = (rest = '', environmentKey = 'development', key = 'vips') =>
  `/api/v2/segments/web/${environmentKey}/${key}/versions${rest}`;

async function createSegment(environmentKey = 'development', comment?: string): Promise<Segment> {
  const res = await team.admin.call('POST', '/api/v2/segments/', {
    projectKey: 'web',
    environmentKey,
    key: 'vips',
    name: 'VIPs',
    description: 'Big spenders',
    ...(comment ? { comment } : {}),
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<Segment>();
}

async function current(environmentKey = 'development'): Promise<Segment> {
  const res = await team.admin.call('GET', `/api/v2/segments/web/${environmentKey}`);
  return res.json<Segment[]>().find((s) => s.key === 'vips')!;
}

async function save(
  changes: Record<string, unknown>,
  environmentKey = 'development',
  call = team.admin.call,
) {
  const { id, projectKey, key, name, description, lastModifiedDate } = await current(environmentKey);
  const res = await call('PUT', '/api/v2/segments/', {
    id,
    projectKey,
    environmentKey,
    key,
    name,
    description,
    lastModifiedDate,
    ...changes,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Segment>();
}

async function versions(call: Caller = team.admin.call, path = history()) {
  const res = await call('GET', path);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<VersionPage>();
}

async function auditData() {
  return h.database.db
    .select({ description: auditItems.description, data: auditItems.data })
    .from(auditItems)
    .where(
      and(eq(auditItems.resourceType, 'segment'), eq(auditItems.organisationId, team.admin.organisationId)),
    )
    .orderBy(desc(auditItems.createdAt), desc(auditItems.id));
}

describe('versions of a segment', () => {
  it('starts with the segment as created, and adds one version per save that changes it', async () => {
    await createSegment('development', 'For the loyalty programme');
    expect((await versions()).content).toMatchObject([
      {
        number: 1,
        parentNumber: null,
        resourceType: 'segment',
        environmentKey: null,
        source: 'ui',
        author: { name: team.admin.email },
        comment: 'For the loyalty programme',
        changes: ['Created'],
      },
    ]);
    await save({ name: 'Whales', comment: 'Clearer name' });
    // The same segment sent back: no version.
    await save({});
    await save({ description: 'Spend over 1000' });
    const page = await versions();
    expect(page.content.map((v) => [v.number, v.parentNumber, v.comment, v.changes])).toEqual([
      [3, 2, null, ['Description changed']],
      [2, 1, 'Clearer name', ['Name: VIPs became Whales']],
      [1, null, 'For the loyalty programme', ['Created']],
    ]);
    const [third, unchanged, second, created] = await auditData();
    expect(third!.data).toEqual({ version: 3 });
    expect(unchanged!.data).toBeNull();
    expect(second!.data).toEqual({ version: 2 });
    expect(created!.data).toEqual({ version: 1 });
  });

  it('shows one version with its snapshot, pages the history and diffs two versions', async () => {
    await createSegment();
    await save({ name: 'Whales' });
    await save({ description: '' });
    const one = (await team.readOnly.call('GET', history('/1'))).json<Version>();
    expect(one.snapshot).toEqual({ key: 'vips', name: 'VIPs', description: 'Big spenders' });
    const first = await versions(team.readOnly.call, history('?pageSize=2'));
    expect(first.content.map((v) => v.number)).toEqual([3, 2]);
    expect(first.last).toBe(false);
    const second = await versions(team.readOnly.call, history('?page=1&pageSize=2'));
    expect(second.content.map((v) => v.number)).toEqual([1]);
    expect(second.last).toBe(true);
    const diff = (await team.readOnly.call('GET', history('/1/diff/3'))).json<VersionDiff>();
    expect(diff.changes).toEqual(['Name: VIPs became Whales', 'Description changed']);
    expect(diff.patch).toEqual(
      expect.arrayContaining([
        { op: 'replace', path: '/name', value: 'Whales' },
        { op: 'replace', path: '/description', value: '' },
      ]),
    );
  });

  it('restores a version as a new one through the segment save, audited with both versions', async () => {
    await createSegment();
    await save({ name: 'Whales', description: '' });
    const res = await team.admin.call('POST', history('/1/restore'), {
      currentVersion: 2,
      comment: 'Back to the old name',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<Segment>()).toMatchObject({ key: 'vips', name: 'VIPs', description: 'Big spenders' });
    expect((await versions()).content[0]).toMatchObject({
      number: 3,
      parentNumber: 2,
      source: 'restore',
      restoredFrom: 1,
      comment: 'Back to the old name',
      author: { name: team.admin.email },
      changes: ['Name: Whales became VIPs', 'Description changed'],
    });
    expect((await team.admin.call('GET', history('/1/diff/3'))).json<VersionDiff>().patch).toEqual([]);
    const [entry] = await auditData();
    expect(entry!.data).toEqual({ version: 3, restoredFrom: 1 });
    expect(entry!.description).toContain('(version 1 restored)');
  });

  it('refuses a restore based on an older version and one that changes nothing (409)', async () => {
    await createSegment();
    await save({ name: 'Whales' });
    await save({ name: 'VIPs' });
    const stale = await team.admin.call('POST', history('/2/restore'), { currentVersion: 2 });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ code: 'stale_write' });
    const same = await team.admin.call('POST', history('/1/restore'), { currentVersion: 3 });
    expect(same.statusCode).toBe(409);
    expect(same.json()).toMatchObject({
      code: 'nothing_to_restore',
      title: 'Nothing to restore: this is already what version 1 was.',
    });
    expect((await versions()).content).toHaveLength(3);
  });

  it('needs the rights of a segment save (production rights in production); other organisations see nothing (404)', async () => {
    await createSegment('production');
    await save({ name: 'Whales' }, 'production');
    const path = history('/1/restore', 'production');
    const readOnly = await team.readOnly.call('POST', path, { currentVersion: 2 });
    expect(readOnly.statusCode).toBe(403);
    const editor = await team.editor.call('POST', path, { currentVersion: 2 });
    expect(editor.statusCode).toBe(403);
    const allowed = await team.productionEditor.call('POST', path, { currentVersion: 2 });
    expect(allowed.statusCode, allowed.body).toBe(200);
    for (const rest of ['', '/1', '/1/diff/2']) {
      expect((await team.outsider.call('GET', history(rest, 'production'))).statusCode).toBe(404);
    }
    expect((await team.outsider.call('POST', path, { currentVersion: 3 })).statusCode).toBe(404);
    // Another organisation with the same keys reads its own segment's history, never this one's.
    await team.outsider.call('POST', '/api/v1/projects/', { name: 'Web shop', key: 'web' });
    const theirs = await team.outsider.call('GET', history('', 'production'));
    expect(theirs.statusCode).toBe(404);
    expect((await versions(team.admin.call, history('', 'production'))).content).toHaveLength(3);
  });

  it('answers 404 for a version or a segment that does not exist, and 400 for a bad body', async () => {
    await createSegment();
    expect((await team.admin.call('GET', history('/9'))).statusCode).toBe(404);
    expect((await team.admin.call('GET', history('/1/diff/9'))).statusCode).toBe(404);
    expect((await team.admin.call('GET', history('', 'development', 'nope'))).statusCode).toBe(404);
    expect((await team.admin.call('GET', history('', 'nowhere'))).statusCode).toBe(404);
    expect((await team.admin.call('GET', history('?pageSize=0'))).statusCode).toBe(400);
    expect((await team.admin.call('POST', history('/1/restore'), {})).statusCode).toBe(400);
    const long = await team.admin.call('POST', history('/1/restore'), {
      currentVersion: 1,
      comment: 'x'.repeat(501),
    });
    expect(long.statusCode).toBe(400);
    const longSave = await team.admin.call('PUT', '/api/v2/segments/', {
      ...(await current()),
      comment: 'x'.repeat(501),
    });
    expect(longSave.statusCode).toBe(400);
  });

  it('deletes a segment’s history with the segment', async () => {
    const segment = await createSegment();
    await save({ name: 'Whales' });
    const res = await team.admin.call('DELETE', `/api/v2/segments/${segment.id}`);
    expect(res.statusCode, res.body).toBe(204);
    const left = await h.database.db
      .select()
      .from(versionsTable)
      .where(eq(versionsTable.resourceId, segment.id));
    expect(left).toEqual([]);
    // A new segment with the key starts a history of its own.
    await createSegment();
    expect((await versions()).content.map((v) => v.number)).toEqual([1]);
  });
});

describe('migration 0015', () => {
  it('gives an existing segment and environment the first version the server would record', async () => {
    const segment = await createSegment();
    await save({ name: 'Whales' });
    const environment = (await team.admin.call('GET', '/api/v1/environments/web/development')).json<{
      id: string;
    }>();
    const db = h.database.db;
    const ids = [segment.id, environment.id];
    const recorded = await db
      .select({ resourceId: versionsTable.resourceId, snapshot: versionsTable.snapshot })
      .from(versionsTable)
      .where(
        sql`${versionsTable.resourceId} in (${sql.join(
          ids.map((id) => sql`${id}`),
          sql`, `,
        )})`,
      )
      .orderBy(desc(versionsTable.number));
    const newest = (id: string) => recorded.find((row) => row.resourceId === id)!.snapshot;
    const expected = { [segment.id]: newest(segment.id), [environment.id]: newest(environment.id) };
    for (const id of ids) await db.delete(versionsTable).where(eq(versionsTable.resourceId, id));
    const migration = readFileSync(
      new URL('../../../drizzle/0015_segment_and_environment_versions.sql', import.meta.url),
      'utf8',
    );
    const backfill = migration.slice(migration.indexOf('-- Every segment'));
    for (const statement of backfill.split('--> statement-breakpoint')) await db.execute(sql.raw(statement));
    for (const id of ids) {
      const rows = await db.select().from(versionsTable).where(eq(versionsTable.resourceId, id));
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        number: 1,
        source: 'system',
        authorId: null,
        changes: ['The state when history began.'],
      });
      expect(rows[0]!.snapshot).toEqual(expected[id]);
    }
    expect(
      (await db.select().from(versionsTable).where(eq(versionsTable.resourceId, segment.id)))[0],
    ).toMatchObject({ segmentId: segment.id, environmentId: environment.id });
    // Resources that have a history keep it.
    for (const statement of backfill.split('--> statement-breakpoint')) await db.execute(sql.raw(statement));
    const again = await db
      .select()
      .from(versionsTable)
      .where(
        sql`${versionsTable.resourceId} in (${sql.join(
          ids.map((id) => sql`${id}`),
          sql`, `,
        )})`,
      );
    expect(again).toHaveLength(2);
  });
});
