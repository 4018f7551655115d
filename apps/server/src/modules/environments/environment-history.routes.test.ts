import { and, desc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { Environment, Version, VersionDiff, VersionPage } from '@vexil/core';
import { auditItems } from '../../db/schema/index';
import type { Caller } from '../../../test/api';
import {
  createEnvironment,
  setUpEnvironmentRoutes,
  staging,
  started,
  team,
} from './environments.routes.fixture';
import { h } from './environments.routes.fixture';

setUpEnvironmentRoutes();

const history = (rest = '', key = 'staging') => `/api/v1/environments/web/${key}/versions${rest}`;

async function current(key = 'staging'): Promise<Environment> {
  return (await team.admin.call('GET', `/api/v1/environments/web/${key}`)).json<Environment>();
}

async function save(changes: Record<string, unknown>, key = 'staging') {
  const { id, name, lastModifiedDate } = await current(key);
  const res = await team.admin.call('PUT', '/api/v1/environments/', {
    id,
    projectKey: 'web',
    key,
    name,
    lastModifiedDate,
    ...changes,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Environment>();
}

async function versions(call: Caller = team.admin.call, path = history()) {
  const res = await call('GET', path);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<VersionPage>();
}

async function auditData(environmentKey = 'staging') {
  return h.database.db
    .select({ description: auditItems.description, data: auditItems.data })
    .from(auditItems)
    .where(
      and(
        eq(auditItems.resourceType, 'environment'),
        eq(auditItems.environmentKey, environmentKey),
        eq(auditItems.organisationId, team.admin.organisationId),
      ),
    )
    .orderBy(desc(auditItems.createdAt), desc(auditItems.id));
}

describe('versions of an environment’s settings', () => {
  it('starts with the settings it was created with, and adds one version per save that changes them', async () => {
    await createEnvironment({ ...staging, tags: ['eu'] });
    expect((await versions()).content).toMatchObject([
      {
        number: 1,
        parentNumber: null,
        resourceType: 'environment',
        environmentKey: null,
        source: 'ui',
        author: { name: team.admin.email },
        changes: ['Created'],
      },
    ]);
    await save({ name: 'QA', color: '#123456', comment: 'Renamed for the QA team' });
    // The same settings sent back, and a key rotation: no version.
    await save({});
    const rotated = await team.admin.call(
      'POST',
      `/api/v1/environments/${(await current()).id}/keys/server/rotate`,
    );
    expect(rotated.statusCode, rotated.body).toBe(200);
    await save({ production: true, tags: ['eu', 'live'] });
    const page = await versions();
    expect(page.content.map((v) => [v.number, v.comment, v.changes])).toEqual([
      [3, null, ['Marked as production', 'Tags: added live', 'SDKs may no longer create features']],
      [2, 'Renamed for the QA team', ['Name: Staging became QA', 'Color: #1273de became #123456']],
      [1, null, ['Created']],
    ]);
    const [third, , unchanged, second, created] = await auditData();
    expect(third!.data).toMatchObject({ version: 3 });
    expect(unchanged!.data).toEqual({});
    expect(second!.data).toMatchObject({ version: 2, name: { from: 'Staging', to: 'QA' } });
    expect(created!.data).toEqual({ version: 1 });
    // The projects' own environments have their first versions too.
    expect((await versions(team.readOnly.call, history('', 'production'))).content).toHaveLength(1);
  });

  it('keeps the settings, never the SDK keys, and diffs two versions', async () => {
    await createEnvironment({ ...staging, url: 'https://staging.example.com' });
    await save({ url: '', local: true });
    const one = (await team.readOnly.call('GET', history('/1'))).json<Version>();
    expect(one.snapshot).toEqual({
      name: 'Staging',
      key: 'staging',
      url: 'https://staging.example.com',
      color: expect.any(String) as string,
      local: false,
      production: false,
      tags: [],
      sdkCanCreateFeatures: true,
    });
    const diff = (await team.readOnly.call('GET', history('/1/diff/2'))).json<VersionDiff>();
    expect(diff.changes).toEqual(['URL: https://staging.example.com became none', 'Marked as local']);
    expect(diff.patch).toEqual(
      expect.arrayContaining([
        { op: 'replace', path: '/url', value: '' },
        { op: 'replace', path: '/local', value: true },
      ]),
    );
    const paged = await versions(team.readOnly.call, history('?pageSize=1'));
    expect(paged.content.map((v) => v.number)).toEqual([2]);
    expect(paged.last).toBe(false);
  });

  it('restores a version as a new one through the settings save, audited with both versions', async () => {
    await createEnvironment();
    await save({ name: 'Live', production: true, comment: 'Going live' });
    expect((await current()).sdkCanCreateFeatures).toBe(false);
    const res = await team.admin.call('POST', history('/1/restore'), {
      currentVersion: 2,
      comment: 'Too early',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<Environment>()).toMatchObject({
      name: 'Staging',
      production: false,
      sdkCanCreateFeatures: true,
    });
    expect(await current()).toMatchObject({ name: 'Staging', production: false, sdkCanCreateFeatures: true });
    expect((await versions()).content[0]).toMatchObject({
      number: 3,
      parentNumber: 2,
      source: 'restore',
      restoredFrom: 1,
      comment: 'Too early',
      changes: ['Name: Live became Staging', 'No longer production', 'SDKs may create features'],
    });
    expect((await team.admin.call('GET', history('/1/diff/3'))).json<VersionDiff>().patch).toEqual([]);
    const [entry] = await auditData();
    expect(entry!.data).toMatchObject({ version: 3, restoredFrom: 1 });
    expect(entry!.description).toContain('(version 1 restored)');
  });

  it('refuses a restore based on an older version and one that changes nothing (409)', async () => {
    await createEnvironment();
    await save({ name: 'QA' });
    await save({ name: 'Staging' });
    const stale = await team.admin.call('POST', history('/2/restore'), { currentVersion: 2 });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ code: 'stale_write' });
    const same = await team.admin.call('POST', history('/1/restore'), { currentVersion: 3 });
    expect(same.statusCode).toBe(409);
    expect(same.json()).toMatchObject({ code: 'nothing_to_restore' });
    expect((await versions()).content).toHaveLength(3);
  });

  it('restores for organisation admins only; other organisations see nothing (404)', async () => {
    await createEnvironment();
    await save({ name: 'QA' });
    for (const member of [team.productionEditor, team.editor, team.readOnly]) {
      const res = await member.call('POST', history('/1/restore'), { currentVersion: 2 });
      expect(res.statusCode).toBe(403);
    }
    for (const rest of ['', '/1', '/1/diff/2']) {
      expect((await team.outsider.call('GET', history(rest))).statusCode).toBe(404);
    }
    expect((await team.outsider.call('POST', history('/1/restore'), { currentVersion: 2 })).statusCode).toBe(
      404,
    );
    expect((await versions()).content).toHaveLength(2);
    expect(started('development').key).toBe('development');
  });

  it('answers 404 for a version or an environment that does not exist, and 400 for a bad body', async () => {
    await createEnvironment();
    expect((await team.admin.call('GET', history('/9'))).statusCode).toBe(404);
    expect((await team.admin.call('GET', history('/1/diff/9'))).statusCode).toBe(404);
    expect((await team.admin.call('GET', history('', 'nope'))).statusCode).toBe(404);
    expect((await team.admin.call('GET', history('/x'))).statusCode).toBe(400);
    expect((await team.admin.call('POST', history('/1/restore'), { currentVersion: 0 })).statusCode).toBe(
      400,
    );
    const { id } = await current();
    const long = await team.admin.call('PUT', '/api/v1/environments/', {
      id,
      projectKey: 'web',
      key: 'staging',
      name: 'Staging',
      comment: 'x'.repeat(501),
    });
    expect(long.statusCode).toBe(400);
  });
});
