import { readFileSync } from 'node:fs';
import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  AUTHORITIES,
  applyJsonPatch,
  type Feature,
  type Version,
  type VersionDiff,
  type VersionPage,
} from '@vexil/core';
import { auditItems, users, versions as versionsTable } from '../../db/schema/index';
import type { Caller } from '../../../test/api';
import { settingsSnapshot } from './feature-versions';
import * as repo from './features.repository';
import { createFeature, h, project, settings, setUpFeatureRoutes, team } from './features.routes.fixture';

setUpFeatureRoutes();

const history = (rest = '', key = 'checkout') => `/api/v1/projects/web/features/${key}/versions${rest}`;

async function current(call: Caller = team.admin.call, key = 'checkout'): Promise<Feature> {
  return (await call('GET', `/api/v1/projects/web/features/${key}`)).json<Feature>();
}

async function save(changes: Record<string, unknown>, call: Caller = team.admin.call) {
  const feature = await current();
  const res = await call('PUT', '/api/v1/projects/web/features', {
    ...settings(feature, changes),
    lastModifiedDate: feature.lastModifiedDate,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Feature>();
}

async function versions(call: Caller = team.admin.call, key = 'checkout') {
  const res = await call('GET', history('', key));
  expect(res.statusCode, res.body).toBe(200);
  return res.json<VersionPage>();
}

async function auditData(featureKey = 'checkout') {
  const rows = await h.database.db
    .select({ title: auditItems.title, description: auditItems.description, data: auditItems.data })
    .from(auditItems)
    .where(and(eq(auditItems.featureKey, featureKey), eq(auditItems.resourceType, 'feature')))
    .orderBy(sql`${auditItems.createdAt} desc, ${auditItems.id} desc`);
  return rows;
}

const checkout = () => createFeature({ name: 'Checkout', key: 'checkout', tags: ['shop'] });

describe('versions of a feature’s settings', () => {
  it('starts with the settings it was created with, and adds one version per change that changes them', async () => {
    await createFeature({ name: 'Checkout', key: 'checkout', comment: 'For the spring sale' });
    expect((await versions()).content).toMatchObject([
      {
        number: 1,
        parentNumber: null,
        resourceType: 'feature',
        environmentKey: null,
        source: 'ui',
        author: { name: team.admin.email },
        comment: 'For the spring sale',
        changes: ['Created'],
      },
    ]);
    await save({ name: 'One-page checkout', tags: ['payments'], comment: 'Shorter name' });
    // The same settings sent back: no version.
    await save({});
    await save({ description: 'Faster', goals: ['purchase'], permanent: true });
    const page = await versions();
    expect(page.last).toBe(true);
    expect(page.content.map((v) => [v.number, v.parentNumber, v.comment])).toEqual([
      [3, 2, null],
      [2, 1, 'Shorter name'],
      [1, null, 'For the spring sale'],
    ]);
    expect(page.content[1]!.changes).toEqual([
      'Name: Checkout became One-page checkout',
      'Tags: added payments',
    ]);
    expect(page.content[0]!.changes).toEqual([
      'Description changed',
      'Made permanent',
      'Goals: added purchase',
    ]);
    // The audit entries link to the versions they created; the save that changed nothing to none.
    const [third, unchanged, second, created] = await auditData();
    expect(third!.data).toEqual({ version: 3 });
    expect(unchanged!.data).toBeNull();
    expect(second!.data).toEqual({ version: 2 });
    expect(created!.data).toEqual({ version: 1 });
    // The controls keep their own histories, beside the settings'.
    const control = await team.admin.call('GET', `${history()}?environmentKey=development`);
    expect(control.json<VersionPage>().content.map((v) => v.resourceType)).toEqual(['feature_control']);
  });

  it('versions an issue linked from the issue tracker, and names the API as the source of a token', async () => {
    const feature = await checkout();
    const linked = await team.admin.call('PUT', '/api/v1/features/link', {
      featureId: feature.id,
      jiraIssueKey: 'shop-12',
    });
    expect(linked.statusCode, linked.body).toBe(200);
    expect(linked.json<Feature>().lastModifiedDate).not.toBe(feature.lastModifiedDate);
    // Linked again: nothing changes.
    await team.admin.call('PUT', '/api/v1/features/link', { featureId: feature.id, jiraIssueKey: 'SHOP-12' });
    expect((await versions()).content[0]).toMatchObject({
      number: 2,
      changes: ['Jira issues: added SHOP-12'],
    });
    expect((await auditData())[0]!.data).toEqual({ version: 2 });
    const token = await team.admin.call('POST', '/api/internal/v1/tokens', { name: 'ci' });
    expect(token.statusCode, token.body).toBe(201);
    const latest = await current();
    const res = await h.app.inject({
      method: 'PUT',
      url: '/api/v1/projects/web/features',
      headers: { authorization: `Bearer ${token.json<{ key: string }>().key}` },
      payload: settings(latest, { description: 'From the pipeline' }),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await versions()).content[0]).toMatchObject({ number: 3, source: 'api' });
  });

  it('shows one version with its snapshot, pages a long history and diffs two versions', async () => {
    await checkout();
    for (let i = 1; i <= 4; i++) await save({ name: `Checkout ${i}` });
    await save({ variants: [...(await current()).variants, { key: 'beta', name: 'Beta', value: [1] }] });
    const first = await team.readOnly.call('GET', `${history()}?pageSize=2`);
    expect(first.json<VersionPage>()).toMatchObject({ last: false });
    expect(first.json<VersionPage>().content.map((v) => v.number)).toEqual([6, 5]);
    const last = await team.readOnly.call('GET', `${history()}?pageSize=2&page=2`);
    expect(last.json<VersionPage>()).toMatchObject({ last: true });
    expect(last.json<VersionPage>().content.map((v) => v.number)).toEqual([2, 1]);
    const one = await team.readOnly.call('GET', history('/1'));
    expect(one.statusCode, one.body).toBe(200);
    expect(one.json<Version>()).toMatchObject({ number: 1, resourceType: 'feature', environmentKey: null });
    expect(one.json<Version>().snapshot).toEqual({
      name: 'Checkout',
      key: 'checkout',
      description: '',
      permanent: false,
      variants: [
        { key: 'on', name: 'On', description: '' },
        { key: 'off', name: 'Off', description: '' },
      ],
      tags: ['shop'],
      goals: [],
      jiraIssueKeys: [],
      maintainer: { id: team.admin.id, name: 'Test User' },
    });
    const diff = await team.readOnly.call('GET', history('/1/diff/6'));
    expect(diff.statusCode, diff.body).toBe(200);
    const six = (await team.readOnly.call('GET', history('/6'))).json<Version>();
    expect(applyJsonPatch(one.json<Version>().snapshot, diff.json<VersionDiff>().patch)).toEqual(
      six.snapshot,
    );
    expect(diff.json<VersionDiff>().changes).toEqual([
      'Name: Checkout became Checkout 4',
      'Variant added: Beta (beta)',
    ]);
    const same = await team.readOnly.call('GET', history('/3/diff/3'));
    expect(same.json<VersionDiff>()).toMatchObject({ patch: [], changes: [] });
  });

  it('restores a version as a new one through the settings save, which every SDK payload serves', async () => {
    await createFeature({
      name: 'Banner',
      key: 'checkout',
      variants: [
        { key: 'on', name: 'On', value: { colour: 'green' } },
        { key: 'off', name: 'Off' },
      ],
    });
    await save({
      name: 'Red banner',
      variants: [
        { key: 'on', name: 'Red', value: { colour: 'red' } },
        { key: 'off', name: 'Off' },
      ],
    });
    const restored = await team.productionEditor.call('POST', history('/1/restore'), {
      currentVersion: 2,
      comment: 'Red hurt sales',
    });
    expect(restored.statusCode, restored.body).toBe(200);
    expect(restored.json<Feature>()).toMatchObject({
      name: 'Banner',
      variants: [{ key: 'on', name: 'On', value: { colour: 'green' } }, { key: 'off' }],
    });
    expect((await versions()).content[0]).toMatchObject({
      number: 3,
      parentNumber: 2,
      source: 'restore',
      restoredFrom: 1,
      comment: 'Red hurt sales',
      author: { name: team.productionEditor.email },
      changes: [
        'Name: Red banner became Banner',
        'Variant on renamed: Red became On',
        'Variant on: value {"colour":"red"} became {"colour":"green"}',
      ],
    });
    expect((await team.admin.call('GET', history('/1/diff/3'))).json<VersionDiff>().patch).toEqual([]);
    const [entry] = await auditData();
    expect(entry!.data).toEqual({ version: 3, restoredFrom: 1 });
    expect(entry!.description).toContain('(version 1 restored)');
    const production = project.environments.find((e) => e.key === 'production')!;
    await h.app.sdk.store.settled();
    const payload = await h.app.inject({
      method: 'GET',
      url: '/api/sdk/v1/features',
      headers: { authorization: `Bearer ${production.apiKey}` },
    });
    expect(payload.json<Record<string, { variants: unknown[] }>>().checkout!.variants).toEqual([
      { key: 'on', name: 'On', value: { colour: 'green' } },
      { key: 'off', name: 'Off' },
    ]);
  });

  it('refuses a restore based on an older version, one that changes nothing, and one that cannot come back (409)', async () => {
    await checkout();
    await save({ name: 'Checkout 2' });
    await save({ name: 'Checkout' });
    const stale = await team.admin.call('POST', history('/2/restore'), { currentVersion: 2 });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ code: 'stale_write' });
    const same = await team.admin.call('POST', history('/1/restore'), { currentVersion: 3 });
    expect(same.statusCode).toBe(409);
    expect(same.json()).toMatchObject({
      code: 'nothing_to_restore',
      title: 'Nothing to restore: this is already what version 1 was.',
    });
    // A variant added since cannot be removed: the restore says so rather than failing.
    await save({ variants: [...(await current()).variants, { key: 'beta', name: 'Beta' }] });
    const removing = await team.admin.call('POST', history('/2/restore'), { currentVersion: 4 });
    expect(removing.statusCode, removing.body).toBe(409);
    expect(removing.json()).toEqual({
      code: 'conflict',
      title:
        'Version 2 cannot be restored: the variant "beta" was added after it, and a saved variant cannot be removed.',
    });
    expect((await versions()).content).toHaveLength(4);
    expect((await current()).name).toBe('Checkout');
  });

  it('counts the maintainer by id: a member renaming themselves changes no feature', async () => {
    await createFeature({ name: 'Checkout', key: 'checkout', maintainerId: team.editor.id });
    const renamed = await team.admin.call('PUT', '/api/v1/users', {
      id: team.editor.id,
      firstName: 'Eddie',
      lastName: 'Tor',
      authority: AUTHORITIES.ROLE_ORGANISATION_EDITOR,
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    await save({});
    expect((await versions()).content).toHaveLength(1);
    await save({ description: 'Faster' });
    const [latest] = (await versions()).content;
    expect(latest).toMatchObject({ number: 2, changes: ['Description changed'] });
    const two = (await team.admin.call('GET', history('/2'))).json<Version>();
    expect(two.snapshot['maintainer']).toEqual({ id: team.editor.id, name: 'Eddie Tor' });
  });

  it('refuses to restore a maintainer who left the organisation (409)', async () => {
    const maintainer = await h.createUser(team.admin.organisationId, team.admin.domain);
    await createFeature({ name: 'Checkout', key: 'checkout', maintainerId: maintainer.id });
    await save({ maintainerId: null });
    await h.database.db.delete(users).where(eq(users.id, maintainer.id));
    const res = await team.admin.call('POST', history('/1/restore'), { currentVersion: 2 });
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json()).toMatchObject({
      code: 'conflict',
      title:
        'Version 1 cannot be restored: its maintainer Test User is no longer a member of this organisation.',
    });
  });

  it('versions the features a removed member maintained, by the admin who removed them', async () => {
    const maintainer = await h.createUser(team.admin.organisationId, team.admin.domain);
    await createFeature({ name: 'Checkout', key: 'checkout', maintainerId: maintainer.id });
    const removed = await team.admin.call('DELETE', `/api/v1/users/${maintainer.id}`);
    expect(removed.statusCode, removed.body).toBe(204);
    expect((await current()).maintainer).toBeNull();
    const [latest] = (await versions()).content;
    expect(latest).toMatchObject({
      number: 2,
      author: { id: team.admin.id, name: team.admin.email },
      comment: 'The maintainer was removed from the organisation.',
      changes: ['Maintainer: Test User became nobody'],
    });
  });

  it('needs the rights of the save it makes; other organisations see nothing (404)', async () => {
    await checkout();
    await save({ name: 'Checkout 2' });
    await save({
      variants: [
        { key: 'on', name: 'Shown' },
        { key: 'off', name: 'Off' },
      ],
    });
    const readOnly = await team.readOnly.call('POST', history('/2/restore'), { currentVersion: 3 });
    expect(readOnly.statusCode).toBe(403);
    // Settings apply to every environment: an editor may restore them, but not variants production serves.
    const variants = await team.editor.call('POST', history('/2/restore'), { currentVersion: 3 });
    expect(variants.statusCode).toBe(403);
    expect(variants.json()).toMatchObject({ code: 'production_rights_required' });
    const allowed = await team.productionEditor.call('POST', history('/2/restore'), { currentVersion: 3 });
    expect(allowed.statusCode, allowed.body).toBe(200);
    const named = await team.editor.call('POST', history('/1/restore'), { currentVersion: 4 });
    expect(named.statusCode, named.body).toBe(200);
    expect(named.json<Feature>().name).toBe('Checkout');
    for (const path of [history(), history('/1'), history('/1/diff/2')]) {
      expect((await team.outsider.call('GET', path)).statusCode).toBe(404);
    }
    const outsider = await team.outsider.call('POST', history('/1/restore'), { currentVersion: 5 });
    expect(outsider.statusCode).toBe(404);
    expect((await versions()).content).toHaveLength(5);
  });

  it('answers 404 for a version or a feature that does not exist, and 400 for a bad body', async () => {
    await checkout();
    expect((await team.admin.call('GET', history('/9'))).statusCode).toBe(404);
    expect((await team.admin.call('GET', history('/1/diff/9'))).statusCode).toBe(404);
    expect((await team.admin.call('GET', history('', 'nope'))).statusCode).toBe(404);
    const noVersion = await team.admin.call('POST', history('/1/restore'), {});
    expect(noVersion.statusCode).toBe(400);
    const long = await team.admin.call('POST', history('/1/restore'), {
      currentVersion: 1,
      comment: 'x'.repeat(501),
    });
    expect(long.statusCode).toBe(400);
  });
});

describe('the first version of a feature registered by an SDK', () => {
  it('has the SDK as its source and no author', async () => {
    const development = project.environments.find((e) => e.key === 'development')!;
    const res = await h.app.inject({
      method: 'PUT',
      url: '/api/sdk/v1/register',
      headers: { authorization: `Bearer ${development.apiKey}` },
      payload: [{ key: 'new-nav', variants: [{ key: 'wide' }, { key: 'narrow' }] }],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await versions(team.admin.call, 'new-nav')).content).toMatchObject([
      { number: 1, source: 'sdk', author: null, changes: ['Created'] },
    ]);
  });
});

describe('migration 0014', () => {
  it('gives an existing feature the first version the server would record for its settings', async () => {
    const maintainer = await h.createUser(team.admin.organisationId, team.admin.domain);
    const feature = await createFeature({
      name: 'Checkout',
      key: 'checkout',
      description: 'Pay on one page',
      permanent: true,
      tags: ['shop', 'beta'],
      goals: ['purchase', 'add-to-cart'],
      jiraIssueKeys: ['SHOP-2', 'SHOP-1'],
      maintainerId: maintainer.id,
      variants: [
        { key: 'off', name: 'Off' },
        { key: 'on', name: 'On', description: 'Live', value: { steps: [1, 2], note: null } },
      ],
    });
    await team.admin.call('PUT', '/api/v1/features/link', { featureId: feature.id, jiraIssueKey: 'SHOP-0' });
    const db = h.database.db;
    await db
      .delete(versionsTable)
      .where(and(eq(versionsTable.resourceType, 'feature'), eq(versionsTable.resourceId, feature.id)));
    const migration = readFileSync(
      new URL('../../../drizzle/0014_feature_settings_versions.sql', import.meta.url),
      'utf8',
    );
    await db.execute(sql.raw(migration));
    const rows = await db
      .select()
      .from(versionsTable)
      .where(and(eq(versionsTable.resourceType, 'feature'), eq(versionsTable.resourceId, feature.id)));
    expect(rows).toHaveLength(1);
    const found = await repo.findById(db, team.admin.organisationId, feature.id);
    expect(rows[0]).toMatchObject({
      number: 1,
      source: 'system',
      authorId: null,
      featureId: feature.id,
      environmentId: null,
      changes: ['The state when history began.'],
    });
    expect(rows[0]!.snapshot).toEqual(
      await settingsSnapshot(db, h.app.services.team, team.admin.organisationId, found!.feature),
    );
    // Features that have a history keep it.
    await db.execute(sql.raw(migration));
    expect(
      await db.select().from(versionsTable).where(eq(versionsTable.resourceId, feature.id)),
    ).toHaveLength(1);
  });
});
