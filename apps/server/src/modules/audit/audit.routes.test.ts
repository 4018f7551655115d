import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AUDIT_NOT_ON_PLAN, type AuditPage, type Project } from '@vexil/core';
import { createTeam, subscribe, type Team } from '../../../test/api';
import { controlBody, createFeature } from '../../../test/features';
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
});

async function createProjects(count: number) {
  for (let i = 0; i < count; i++) {
    const res = await team.admin.call('POST', '/api/v1/projects/', { name: `Project ${i}`, key: `p${i}` });
    expect(res.statusCode).toBe(201);
  }
}

describe('GET /api/v1/audit-items', () => {
  it('pages the log newest first, 50 at a time, and says which page is the last', async () => {
    await createProjects(52);
    const first = await team.readOnly.call('GET', '/api/v1/audit-items?page=0');
    expect(first.statusCode).toBe(200);
    const page0 = first.json<AuditPage>();
    expect(page0.content).toHaveLength(50);
    expect(page0.last).toBe(false);
    expect(page0.content[0]!.title).toBe('Project Project 51 created');
    const page1 = (await team.readOnly.call('GET', '/api/v1/audit-items?page=1')).json<AuditPage>();
    const titles = page1.content.map((i) => i.title);
    expect(titles.slice(0, 2)).toEqual(['Project Project 1 created', 'Project Project 0 created']);
    // Then the team's sign-ins, which came first.
    expect(titles.slice(2).sort()).toEqual(
      [team.admin, team.productionEditor, team.editor, team.readOnly]
        .map((u) => `${u.email} signed in`)
        .sort(),
    );
    expect(page1.last).toBe(true);
  });

  it('narrows to one project by key or one resource by id', async () => {
    await createProjects(2);
    const project = (await team.admin.call('GET', '/api/v1/projects/p1')).json<Project>();
    await team.admin.call('PUT', '/api/v1/projects/', { id: project.id, name: 'Renamed', key: 'p1' });
    const byKey = (await team.admin.call('GET', '/api/v1/audit-items?projectKey=p1')).json<AuditPage>();
    expect(byKey.content.map((i) => i.title)).toEqual([
      'Project Renamed updated',
      'Project Project 1 created',
    ]);
    const byId = (
      await team.admin.call('GET', `/api/v1/audit-items?resourceId=${project.id}`)
    ).json<AuditPage>();
    expect(byId.content).toHaveLength(2);
  });

  it('narrows to who made the change and what it did', async () => {
    await createProjects(1);
    const feature = await team.editor.call('POST', '/api/v1/projects/p0/features', {
      name: 'Editor feature',
      key: 'editor-feature',
    });
    expect(feature.statusCode).toBe(201);
    const project = (await team.admin.call('GET', '/api/v1/projects/p0')).json<Project>();
    await team.admin.call('PUT', '/api/v1/projects/', { id: project.id, name: 'Renamed', key: 'p0' });

    const byEditor = (
      await team.admin.call('GET', `/api/v1/audit-items?actorId=${team.editor.id}`)
    ).json<AuditPage>();
    expect(byEditor.content.length).toBeGreaterThan(0);
    expect(
      byEditor.content.every(
        (i) => i.title.includes('Editor feature') || i.title === `${team.editor.email} signed in`,
      ),
    ).toBe(true);

    const updates = (await team.admin.call('GET', '/api/v1/audit-items?action=update')).json<AuditPage>();
    expect(updates.content.map((i) => i.title)).toEqual(['Project Renamed updated']);
    const adminCreates = (
      await team.admin.call('GET', `/api/v1/audit-items?actorId=${team.admin.id}&action=create`)
    ).json<AuditPage>();
    expect(adminCreates.content.map((i) => i.title)).toEqual(['Project Project 0 created']);
  });

  it('refuses an unknown action with the ones it knows', async () => {
    const res = await team.admin.call('GET', '/api/v1/audit-items?action=explode');
    expect(res.statusCode).toBe(400);
    expect(JSON.stringify(res.json())).toContain('Action must be one of create, update');
  });

  it('shows one organisation none of another’s entries', async () => {
    await createProjects(1);
    const res = await team.outsider.call('GET', '/api/v1/audit-items');
    // Their own sign-in only.
    expect(res.json<AuditPage>().content.map((i) => i.title)).toEqual([`${team.outsider.email} signed in`]);
  });

  it('is refused when the plan does not include the audit log', async () => {
    await subscribe(h, team.admin.organisationId, { auditLog: false });
    const res = await team.admin.call('GET', '/api/v1/audit-items');
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ title: AUDIT_NOT_ON_PLAN, code: 'plan_required' });
  });

  it('links the entries of versioned changes to the version they created', async () => {
    await createProjects(1);
    const feature = await createFeature(team.admin.call, 'p0', { name: 'Checkout', key: 'checkout' });
    const control = feature.controls.production!;
    const saved = await team.admin.call('PUT', '/api/v1/feature-controls/', {
      ...controlBody(control, { enabled: true }),
      lastModifiedDate: control.lastModifiedDate,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const page = (
      await team.admin.call('GET', '/api/v1/audit-items?projectKey=p0&featureKey=checkout')
    ).json<AuditPage>();
    const toggled = page.content.find((item) => item.title === 'Feature Checkout turned on in Production');
    expect(toggled?.version).toEqual({
      number: 2,
      projectKey: 'p0',
      featureKey: 'checkout',
      environmentKey: 'production',
    });
    // The project's creation keeps no version.
    const all = (await team.admin.call('GET', '/api/v1/audit-items?projectKey=p0')).json<AuditPage>();
    expect(all.content.find((item) => item.title === 'Project Project 0 created')?.version).toBeUndefined();
  });

  it('rejects a page size above 50', async () => {
    const res = await team.admin.call('GET', '/api/v1/audit-items?pageSize=51');
    expect(res.statusCode).toBe(400);
  });
});
