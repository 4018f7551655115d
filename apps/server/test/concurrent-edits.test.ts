/**
 * Two people edit the same record (docs/adr/0013-concurrent-edits.md): each write says which
 * version it was based on, a stale one gets 409 `stale_write` naming who changed the record, and
 * nothing of it is stored.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Environment, Feature, FeatureControl, Project, Segment } from '@vexil/core';
import { callerFor, createTeam, type Team } from './api';
import { controlBody, createFeature, otherwise, rule } from './features';
import { createHarness, type Harness } from './helpers';

let h: Harness;
let team: Team;
let feature: Feature;

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
  feature = await createFeature(team.admin.call, 'web', { name: 'Checkout', key: 'checkout' });
});

async function readControl(): Promise<FeatureControl> {
  const res = await team.admin.call('GET', '/api/v1/projects/web/features/checkout');
  return res.json<Feature>().controls.development!;
}

const STALE_BY_EDITOR =
  /^Test User changed this targeting at \d\d:\d\d UTC\. Nothing of this save was stored/;

describe('a control edited in two sessions', () => {
  it('refuses a stale toggle with 409 naming who changed it, and keeps their targeting', async () => {
    const opened = feature.controls.development!;
    // The editor saves targeting while the admin still has the control open.
    const targeting = [rule('country', 'equals', ['NZ']), otherwise()];
    const saved = await team.editor.call('PUT', '/api/v1/feature-controls/', {
      ...controlBody(opened, { rules: targeting }),
      lastModifiedDate: opened.lastModifiedDate,
    });
    expect(saved.statusCode, saved.body).toBe(200);

    const toggle = await team.admin.call('PUT', `/api/v1/feature-controls/${opened.id}/enabled`, {
      enabled: true,
      lastModifiedDate: opened.lastModifiedDate,
    });
    expect(toggle.statusCode).toBe(409);
    const savedAt = saved.json<FeatureControl>().lastModifiedDate;
    expect(toggle.json()).toEqual({
      code: 'stale_write',
      title: expect.stringMatching(STALE_BY_EDITOR),
      changedBy: 'Test User',
      changedAt: savedAt,
    });
    expect(toggle.json<{ title: string }>().title).toContain(`at ${savedAt.slice(11, 16)} UTC.`);

    const stored = await readControl();
    expect(stored.enabled).toBe(false);
    expect(stored.rules).toEqual(targeting);
  });

  it('refuses a stale targeting save with 409 and changes nothing', async () => {
    const opened = feature.controls.development!;
    const toggled = await team.editor.call('PUT', `/api/v1/feature-controls/${opened.id}/enabled`, {
      enabled: true,
      lastModifiedDate: opened.lastModifiedDate,
    });
    expect(toggled.statusCode, toggled.body).toBe(200);

    const stale = await team.admin.call('PUT', '/api/v1/feature-controls/', {
      ...controlBody(opened, { rules: [rule('country', 'equals', ['AU']), otherwise()] }),
      lastModifiedDate: opened.lastModifiedDate,
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ code: 'stale_write' });

    const stored = await readControl();
    expect(stored.enabled).toBe(true);
    expect(stored.rules).toEqual(opened.rules);
    expect(stored.lastModifiedDate).toBe(toggled.json<FeatureControl>().lastModifiedDate);
  });

  it('names the member who changed it, and when, even when it is the caller (their header switch, not another window)', async () => {
    const opened = feature.controls.development!;
    const body = { enabled: true, lastModifiedDate: opened.lastModifiedDate };
    expect(
      (await team.admin.call('PUT', `/api/v1/feature-controls/${opened.id}/enabled`, body)).statusCode,
    ).toBe(200);
    const again = await team.admin.call('PUT', `/api/v1/feature-controls/${opened.id}/enabled`, {
      ...body,
      enabled: false,
    });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ changedBy: 'Test User', changedAt: expect.any(String) });
    expect(again.json<{ title: string }>().title).toMatch(
      /^Test User changed this targeting at \d\d:\d\d UTC\./,
    );
    expect(again.json<{ title: string }>().title).not.toContain('another window');
  });

  it('saves a write based on the current version, and one that names no version', async () => {
    const opened = feature.controls.development!;
    const first = await team.admin.call('PUT', `/api/v1/feature-controls/${opened.id}/enabled`, {
      enabled: true,
      lastModifiedDate: opened.lastModifiedDate,
    });
    expect(first.statusCode).toBe(200);
    const next = first.json<FeatureControl>();
    const second = await team.admin.call('PUT', '/api/v1/feature-controls/', {
      ...controlBody(next, { rules: [rule('country', 'equals', ['NZ']), otherwise()] }),
      lastModifiedDate: next.lastModifiedDate,
    });
    expect(second.statusCode, second.body).toBe(200);
    const unversioned = await team.admin.call(
      'PUT',
      '/api/v1/feature-controls/',
      controlBody(second.json<FeatureControl>(), { enabled: false }),
    );
    expect(unversioned.statusCode).toBe(200);
  });

  it('lets exactly one of two simultaneous writes based on the same version through', async () => {
    const opened = feature.controls.development!;
    const answers = await Promise.all(
      [team.admin, team.editor].map((member, i) =>
        member.call('PUT', `/api/v1/feature-controls/${opened.id}/enabled`, {
          enabled: i === 0,
          lastModifiedDate: opened.lastModifiedDate,
        }),
      ),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
  });
});

describe('a toggle', () => {
  it('changes only the switch and does not check rules it leaves alone', async () => {
    const opened = feature.controls.development!;
    const targeting = [rule('plan', 'equals', ['gold']), otherwise()];
    await team.admin.call('PUT', '/api/v1/feature-controls/', controlBody(opened, { rules: targeting }));
    // `plan` becomes a number target: the stored rule no longer passes the rule checks, yet a toggle,
    // which does not touch it, still goes through; a targeting save of the same rule does not.
    await team.admin.call('POST', '/api/v1/projects/web/targets', {
      key: 'plan',
      name: 'Plan',
      type: 'number',
    });
    const toggle = await team.admin.call('PUT', `/api/v1/feature-controls/${opened.id}/enabled`, {
      enabled: true,
    });
    expect(toggle.statusCode, toggle.body).toBe(200);
    expect(toggle.json<FeatureControl>()).toMatchObject({ enabled: true, rules: targeting });
    const resave = await team.admin.call(
      'PUT',
      '/api/v1/feature-controls/',
      controlBody(toggle.json<FeatureControl>(), {
        rules: [rule('plan', 'equals', ['silver']), otherwise()],
      }),
    );
    expect(resave.statusCode).toBe(400);
  });

  it('needs the same rights as a targeting save', async () => {
    const control = feature.controls.production!;
    const res = await team.editor.call('PUT', `/api/v1/feature-controls/${control.id}/enabled`, {
      enabled: true,
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'production_rights_required' });
    const outsider = await team.outsider.call('PUT', `/api/v1/feature-controls/${control.id}/enabled`, {
      enabled: true,
    });
    expect(outsider.statusCode).toBe(404);
  });
});

describe('settings, segments, projects and environments edited in two sessions', () => {
  it('refuses a stale feature settings save, but not because a control changed', async () => {
    const opened = feature;
    const body = {
      id: opened.id,
      name: opened.name,
      key: opened.key,
      description: opened.description,
      variants: opened.variants,
      tags: opened.tags,
      maintainerId: opened.maintainer?.id ?? null,
      lastModifiedDate: opened.lastModifiedDate,
    };
    // A toggle elsewhere does not make the settings stale.
    await team.editor.call('PUT', `/api/v1/feature-controls/${opened.controls.development!.id}/enabled`, {
      enabled: true,
    });
    const renamed = await team.editor.call('PUT', '/api/v1/projects/web/features', {
      ...body,
      name: 'Checkout v2',
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    const stale = await team.admin.call('PUT', '/api/v1/projects/web/features', {
      ...body,
      description: 'Old text',
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ code: 'stale_write' });
    expect(stale.json<{ title: string }>().title).toMatch(/changed this feature after you opened it/);
    const stored = (await team.admin.call('GET', '/api/v1/projects/web/features/checkout')).json<Feature>();
    expect(stored).toMatchObject({ name: 'Checkout v2', description: opened.description });
  });

  it('refuses a stale segment save', async () => {
    const created = await team.admin.call('POST', '/api/v2/segments/', {
      projectKey: 'web',
      environmentKey: 'development',
      key: 'beta',
      name: 'Beta',
    });
    const segment = created.json<Segment>();
    const base = { ...segment, lastModifiedDate: segment.lastModifiedDate };
    expect(
      (await team.editor.call('PUT', '/api/v2/segments/', { ...base, name: 'Beta testers' })).statusCode,
    ).toBe(200);
    const stale = await team.admin.call('PUT', '/api/v2/segments/', { ...base, name: 'Early access' });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ code: 'stale_write' });
    const listed = (await team.admin.call('GET', '/api/v2/segments/web/development')).json<Segment[]>();
    expect(listed.map((s) => s.name)).toEqual(['Beta testers']);
  });

  it('refuses a stale project rename and a stale environment save', async () => {
    const project = (await team.admin.call('GET', '/api/v1/projects/web')).json<Project>();
    const other = await h.createUser(team.admin.organisationId, team.admin.domain, {
      authority: 'ROLE_ORGANISATION_ADMIN',
    });
    const otherAdmin = callerFor(h.app, await h.login(other));

    const rename = { id: project.id, key: 'web', lastModifiedDate: project.lastModifiedDate };
    expect((await otherAdmin('PUT', '/api/v1/projects/', { ...rename, name: 'Shop' })).statusCode).toBe(200);
    const staleProject = await team.admin.call('PUT', '/api/v1/projects/', { ...rename, name: 'Store' });
    expect(staleProject.statusCode).toBe(409);
    expect(staleProject.json()).toMatchObject({ code: 'stale_write' });

    const environment = project.environments[0]! satisfies Environment;
    const edit = {
      id: environment.id,
      projectKey: 'web',
      key: environment.key,
      name: environment.name,
      color: environment.color,
      lastModifiedDate: environment.lastModifiedDate,
    };
    expect((await otherAdmin('PUT', '/api/v1/environments/', { ...edit, color: '#00aa00' })).statusCode).toBe(
      200,
    );
    const staleEnvironment = await team.admin.call('PUT', '/api/v1/environments/', {
      ...edit,
      color: '#aa0000',
    });
    expect(staleEnvironment.statusCode).toBe(409);
    const stored = (await team.admin.call('GET', '/api/v1/projects/web')).json<Project>();
    expect(stored.name).toBe('Shop');
    expect(stored.environments.find((e) => e.id === environment.id)?.color).toBe('#00aa00');
  });
});
