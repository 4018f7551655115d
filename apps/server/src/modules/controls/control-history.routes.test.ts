import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Feature, FeatureControl, Project, Version, VersionDiff, VersionPage } from '@vexil/core';
import { applyJsonPatch } from '@vexil/core';
import { createTeam, type Caller, type Team } from '../../../test/api';
import { controlBody, createFeature, otherwise, rule } from '../../../test/features';
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
  await team.admin.call('POST', '/api/v1/projects/', { name: 'Web shop', key: 'web' });
  await team.admin.call('POST', '/api/v1/projects/web/targets', { key: 'country', name: 'Country' });
  await createFeature(team.admin.call, 'web', { name: 'Checkout', key: 'checkout' });
});

const history = (environmentKey: string, rest = '') =>
  `/api/v1/projects/web/features/checkout/versions${rest}?environmentKey=${environmentKey}`;

async function current(environmentKey: string, call: Caller = team.admin.call): Promise<FeatureControl> {
  const res = await call('GET', '/api/v1/projects/web/features/checkout');
  return res.json<Feature>().controls[environmentKey]!;
}

async function save(environmentKey: string, changes: Parameters<typeof controlBody>[1], comment?: string) {
  const control = await current(environmentKey);
  const res = await team.admin.call('PUT', '/api/v1/feature-controls/', {
    ...controlBody(control, changes),
    lastModifiedDate: control.lastModifiedDate,
    ...(comment ? { comment } : {}),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<FeatureControl>();
}

async function versions(environmentKey: string, call: Caller = team.admin.call) {
  const res = await call('GET', history(environmentKey));
  expect(res.statusCode, res.body).toBe(200);
  return res.json<VersionPage>();
}

describe('versions of a feature control', () => {
  it('starts with the state the feature was created with, and adds one version per change, newest first', async () => {
    expect((await versions('development')).content).toMatchObject([
      { number: 1, parentNumber: null, source: 'ui', author: { name: team.admin.email } },
    ]);
    await save('development', { enabled: true }, 'Launch for the team');
    const split = [
      { variantKey: 'on', split: 50 },
      { variantKey: 'off', split: 50 },
    ];
    await save('development', { rules: [rule('country', 'in', ['NZ', 'AU'], split), otherwise('off')] });
    const page = await versions('development');
    expect(page.last).toBe(true);
    expect(page.content.map((v) => [v.number, v.parentNumber, v.comment])).toEqual([
      [3, 2, null],
      [2, 1, 'Launch for the team'],
      [1, null, null],
    ]);
    expect(page.content[1]!.changes).toEqual(['Turned on']);
    expect(page.content[0]!.changes.join(' ')).toContain('NZ, AU');
    // Each environment keeps its own history.
    expect((await versions('production')).content.map((v) => v.number)).toEqual([1]);
  });

  it('a save that changes nothing adds no version, and a token is the API source', async () => {
    const control = await current('development');
    await team.admin.call('PUT', '/api/v1/feature-controls/', {
      ...controlBody(control),
      lastModifiedDate: control.lastModifiedDate,
    });
    expect((await versions('development')).content).toHaveLength(1);
    const token = await team.admin.call('POST', '/api/internal/v1/tokens', { name: 'ci' });
    expect(token.statusCode, token.body).toBe(201);
    const secret = token.json<{ key: string }>().key;
    const toggled = await h.app.inject({
      method: 'PUT',
      url: `/api/v1/feature-controls/${control.id}/enabled`,
      headers: { authorization: `Bearer ${secret}` },
      payload: { enabled: true },
    });
    expect(toggled.statusCode, toggled.body).toBe(200);
    expect((await versions('development')).content[0]).toMatchObject({ number: 2, source: 'api' });
  });

  it('pages a long history and shows one version with its snapshot', async () => {
    for (let i = 0; i < 5; i++) await save('development', { enabled: i % 2 === 0 });
    const first = await team.admin.call('GET', `${history('development')}&pageSize=2`);
    expect(first.json<VersionPage>()).toMatchObject({ last: false });
    expect(first.json<VersionPage>().content.map((v) => v.number)).toEqual([6, 5]);
    const last = await team.admin.call('GET', `${history('development')}&pageSize=2&page=2`);
    expect(last.json<VersionPage>()).toMatchObject({ last: true });
    expect(last.json<VersionPage>().content.map((v) => v.number)).toEqual([2, 1]);
    const one = await team.readOnly.call('GET', history('development', '/2'));
    expect(one.statusCode, one.body).toBe(200);
    expect(one.json<Version>().snapshot).toMatchObject({ enabled: true, offVariantKey: 'off' });
  });

  it('diffs two versions as a JSON Patch and as sentences', async () => {
    await save('development', { enabled: true });
    await save('development', { rules: [rule('country', 'in', ['NZ']), otherwise('off')] });
    const res = await team.readOnly.call('GET', history('development', '/1/diff/3'));
    expect(res.statusCode, res.body).toBe(200);
    const diff = res.json<VersionDiff>();
    const [v1, v3] = await Promise.all(
      [1, 3].map(async (n) =>
        (await team.admin.call('GET', history('development', `/${n}`))).json<Version>(),
      ),
    );
    expect(applyJsonPatch(v1!.snapshot, diff.patch)).toEqual(v3!.snapshot);
    expect(diff.changes).toContain('Turned on');
    expect(diff.changes.length).toBeGreaterThan(1);
    const same = await team.admin.call('GET', history('development', '/2/diff/2'));
    expect(same.json<VersionDiff>()).toMatchObject({ patch: [], changes: [] });
  });

  it('restores a version as a new one, which the SDK payload serves', async () => {
    await save('development', { enabled: true });
    await save('development', { rules: [rule('country', 'in', ['NZ']), otherwise('off')] });
    const restored = await team.admin.call('POST', history('development', '/2/restore'), {
      currentVersion: 3,
      comment: 'Targeting broke checkout',
    });
    expect(restored.statusCode, restored.body).toBe(200);
    expect(restored.json<FeatureControl>()).toMatchObject({ enabled: true, rules: [otherwise('on')] });
    expect((await versions('development')).content[0]).toMatchObject({
      number: 4,
      parentNumber: 3,
      source: 'restore',
      restoredFrom: 2,
      comment: 'Targeting broke checkout',
    });
    const diff = await team.admin.call('GET', history('development', '/2/diff/4'));
    expect(diff.json<VersionDiff>().patch).toEqual([]);
    const project = (await team.admin.call('GET', '/api/v1/projects/web')).json<Project>();
    const development = project.environments.find((e) => e.key === 'development')!;
    const payload = await h.app.inject({
      method: 'GET',
      url: '/api/sdk/v1/features',
      headers: { authorization: `Bearer ${development.apiKey}` },
    });
    expect(payload.json<Record<string, { enabled: boolean; rules: unknown[] }>>().checkout).toMatchObject({
      enabled: true,
      rules: [otherwise('on')],
    });
  });

  it('refuses a restore based on an older version, and one that would change nothing (409)', async () => {
    await save('development', { enabled: true });
    await save('development', { enabled: false });
    const stale = await team.admin.call('POST', history('development', '/2/restore'), { currentVersion: 2 });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ code: 'stale_write' });
    const same = await team.admin.call('POST', history('development', '/1/restore'), { currentVersion: 3 });
    expect(same.statusCode).toBe(409);
    expect(same.json()).toMatchObject({
      code: 'nothing_to_restore',
      title: 'Nothing to restore: this is already what version 1 was.',
    });
    expect((await versions('development')).content).toHaveLength(3);
  });

  it('needs production rights to restore in production; other organisations see nothing (404)', async () => {
    const control = await current('production');
    await team.admin.call('PUT', `/api/v1/feature-controls/${control.id}/enabled`, {
      enabled: true,
      lastModifiedDate: control.lastModifiedDate,
    });
    const denied = await team.editor.call('POST', history('production', '/1/restore'), { currentVersion: 2 });
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toMatchObject({ code: 'production_rights_required' });
    const allowed = await team.productionEditor.call('POST', history('production', '/1/restore'), {
      currentVersion: 2,
    });
    expect(allowed.statusCode, allowed.body).toBe(200);
    expect(allowed.json<FeatureControl>().enabled).toBe(false);
    for (const path of [
      history('production'),
      history('production', '/1'),
      history('production', '/1/diff/2'),
    ]) {
      expect((await team.outsider.call('GET', path)).statusCode).toBe(404);
    }
    expect(
      (await team.outsider.call('POST', history('production', '/1/restore'), { currentVersion: 3 }))
        .statusCode,
    ).toBe(404);
  });

  it('answers 400 for an empty environment and 404 for a version or environment that does not exist', async () => {
    const empty = await team.admin.call('GET', history(''));
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toMatchObject({ code: 'invalid' });
    expect((await team.admin.call('GET', history('development', '/9'))).statusCode).toBe(404);
    expect((await team.admin.call('GET', history('staging'))).statusCode).toBe(404);
  });
});
