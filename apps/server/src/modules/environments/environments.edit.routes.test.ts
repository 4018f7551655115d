import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Environment, Project } from '@vexil/core';
import { environments } from '../../db/schema/index';
import { auditTrail } from '../../../test/api';
import {
  setUpEnvironmentRoutes,
  h,
  team,
  project,
  staging,
  started,
  createEnvironment,
} from './environments.routes.fixture';

setUpEnvironmentRoutes();

describe('PUT /api/v1/environments/', () => {
  it('updates name, url, colour, local and production, and lists the changes in the audit log', async () => {
    const created = await createEnvironment();
    const res = await team.admin.call('PUT', '/api/v1/environments/', {
      ...staging,
      id: created.id,
      name: 'Pre-production',
      url: 'https://pre.example.com',
      color: '#ff0000',
      local: true,
      production: false,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json<Environment>()).toMatchObject({
      id: created.id,
      key: 'staging',
      name: 'Pre-production',
      url: 'https://pre.example.com',
      color: '#ff0000',
      local: true,
      apiKey: created.apiKey,
    });
    const [item] = await auditTrail(team.admin.call);
    expect(item!.description).toContain('- name: `Staging` → `Pre-production`');
    expect(item!.description).toContain('- colour: `#1273de` → `#ff0000`');
    expect(item!.description).toContain('- local: `false` → `true`');
  });

  it('refuses to change the key or move the environment to another project', async () => {
    const created = await createEnvironment();
    const rekey = await team.admin.call('PUT', '/api/v1/environments/', {
      ...staging,
      id: created.id,
      key: 'qa',
    });
    expect(rekey.statusCode).toBe(400);
    expect(rekey.json()).toMatchObject({
      errors: [{ field: 'key', message: 'The key of an environment cannot be changed.' }],
    });
    await team.admin.call('POST', '/api/v1/projects/', { name: 'Other', key: 'oth' });
    const move = await team.admin.call('PUT', '/api/v1/environments/', {
      ...staging,
      id: created.id,
      projectKey: 'oth',
    });
    expect(move.statusCode).toBe(400);
  });

  it('is for organisation admins of the same organisation only', async () => {
    const created = await createEnvironment();
    const body = { ...staging, id: created.id, name: 'Hijacked' };
    for (const member of [team.productionEditor, team.editor, team.readOnly]) {
      expect((await member.call('PUT', '/api/v1/environments/', body)).statusCode).toBe(403);
    }
    expect((await team.outsider.call('PUT', '/api/v1/environments/', body)).statusCode).toBe(404);
    expect((await team.admin.call('GET', '/api/v1/environments/web/staging')).json<Environment>().name).toBe(
      'Staging',
    );
  });
});

describe('DELETE /api/v1/environments/{id}', () => {
  it('archives the environment: gone from the project, the initial payload and its SDK keys', async () => {
    const created = await createEnvironment();
    const res = await team.admin.call('DELETE', `/api/v1/environments/${created.id}`);
    expect(res.statusCode).toBe(204);
    const after = await team.admin.call('GET', '/api/v1/projects/web');
    expect(after.json<Project>().environments.map((e) => e.key)).toEqual(['development', 'production']);
    expect((await team.admin.call('GET', '/api/v1/environments/web/staging')).statusCode).toBe(404);
    const [row] = await h.database.db.select().from(environments).where(eq(environments.id, created.id));
    expect(row).toMatchObject({ archived: true, serverApiKey: created.apiKey });
    const [item] = await auditTrail(team.admin.call);
    expect(item).toMatchObject({ title: 'Environment Staging deleted from Web shop' });
    // The key can be used again.
    expect((await team.admin.call('POST', '/api/v1/environments/', staging)).statusCode).toBe(201);
  });

  it('refuses to delete the last environment of a project', async () => {
    const [production, development] = [started('production'), started('development')];
    expect((await team.admin.call('DELETE', `/api/v1/environments/${development.id}`)).statusCode).toBe(204);
    const res = await team.admin.call('DELETE', `/api/v1/environments/${production.id}`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ title: 'You must have at least one environment.' });
  });

  it('is for organisation admins of the same organisation only', async () => {
    const created = await createEnvironment();
    for (const member of [team.productionEditor, team.editor, team.readOnly, team.outsider]) {
      const res = await member.call('DELETE', `/api/v1/environments/${created.id}`);
      expect(res.statusCode).toBe(member === team.outsider ? 404 : 403);
    }
    expect((await team.admin.call('GET', '/api/v1/environments/web/staging')).statusCode).toBe(200);
  });
});

describe('change events', () => {
  it('are published after each change commits, and not for a refused change', async () => {
    const seen: string[] = [];
    const unsubscribe = h.app.services.events.subscribe((event) => seen.push(`${event.type}`));
    try {
      const created = await createEnvironment();
      await team.admin.call('PUT', '/api/v1/environments/', { ...staging, id: created.id, name: 'QA' });
      await team.readOnly.call('DELETE', `/api/v1/environments/${created.id}`);
      await team.admin.call('DELETE', `/api/v1/environments/${created.id}`);
    } finally {
      unsubscribe();
    }
    expect(seen).toEqual(['environment.changed', 'environment.changed', 'environment.removed']);
  });
});

describe('sdkCanCreateFeatures', () => {
  async function sdkCanCreate(key: string) {
    const res = await team.admin.call('GET', `/api/v1/environments/web/${key}`);
    return res.json<Environment>().sdkCanCreateFeatures;
  }

  it('is off for production environments and on for others unless asked otherwise', async () => {
    expect(project.environments.map((e) => [e.key, e.sdkCanCreateFeatures])).toEqual([
      ['development', true],
      ['production', false],
    ]);
    expect((await createEnvironment()).sdkCanCreateFeatures).toBe(true);
    expect(
      (await createEnvironment({ ...staging, key: 'live', production: true })).sdkCanCreateFeatures,
    ).toBe(false);
    expect(
      (await createEnvironment({ ...staging, key: 'eu', tags: ['production'] })).sdkCanCreateFeatures,
    ).toBe(false);
    expect(
      (await createEnvironment({ ...staging, key: 'canary', production: true, sdkCanCreateFeatures: true }))
        .sdkCanCreateFeatures,
    ).toBe(true);
  });

  it('is changed by organisation admins, audited, kept when not sent, and off when becoming production', async () => {
    const created = await createEnvironment();
    const body = { ...staging, id: created.id };
    for (const member of [team.productionEditor, team.editor, team.readOnly]) {
      const res = await member.call('PUT', '/api/v1/environments/', { ...body, sdkCanCreateFeatures: false });
      expect(res.statusCode).toBe(403);
    }
    expect(await sdkCanCreate('staging')).toBe(true);

    const off = await team.admin.call('PUT', '/api/v1/environments/', {
      ...body,
      sdkCanCreateFeatures: false,
    });
    expect(off.json<Environment>().sdkCanCreateFeatures).toBe(false);
    const [item] = await auditTrail(team.admin.call);
    expect(item!.description).toContain('- SDKs may create features: `true` → `false`');
    await team.admin.call('PUT', '/api/v1/environments/', { ...body, name: 'QA' });
    expect(await sdkCanCreate('staging')).toBe(false);

    await team.admin.call('PUT', '/api/v1/environments/', { ...body, sdkCanCreateFeatures: true });
    await team.admin.call('PUT', '/api/v1/environments/', { ...body, production: true });
    expect(await sdkCanCreate('staging')).toBe(false);
    await team.admin.call('PUT', '/api/v1/environments/', {
      ...body,
      production: true,
      sdkCanCreateFeatures: true,
    });
    expect(await sdkCanCreate('staging')).toBe(true);
  });
});
