import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { JS_SDK_KEY_PATTERN, SERVER_SDK_KEY_PATTERN, type Project } from '@vexil/core';
import { auditTrail, createTeam, subscribe, type Team } from '../../../test/api';
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

async function createProject(name: string, key: string, call = team.admin.call): Promise<Project> {
  const res = await call('POST', '/api/v1/projects/', { name, key });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<Project>();
}

describe('POST /api/v1/projects/', () => {
  it('creates a project with Production and Development environments, each with its own SDK keys', async () => {
    const project = await createProject('Web shop', 'web');
    expect(project).toMatchObject({ name: 'Web shop', key: 'web', url: '', tags: [], targets: [] });
    expect(project.environments.map((e) => [e.name, e.key, e.production, e.projectKey])).toEqual([
      ['Development', 'development', false, 'web'],
      ['Production', 'production', true, 'web'],
    ]);
    const keys = project.environments.flatMap((e) => [e.apiKey, e.jsApiKey]);
    expect(new Set(keys).size).toBe(4);
    for (const e of project.environments) {
      expect(e.apiKey).toMatch(SERVER_SDK_KEY_PATTERN);
      expect(e.jsApiKey).toMatch(JS_SDK_KEY_PATTERN);
    }
  });

  it('normalises the key to a short lowercase abbreviation', async () => {
    const project = await createProject('Mobile App', ' MoB-1 ');
    expect(project.key).toBe('mob1');
  });

  it('answers the form messages when name or key is missing', async () => {
    const res = await team.admin.call('POST', '/api/v1/projects/', { name: ' ', key: '' });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ errors: unknown[] }>().errors).toEqual(
      expect.arrayContaining([
        { field: 'name', message: 'Name is required' },
        { field: 'key', message: 'Key is required' },
      ]),
    );
  });

  it('rejects a key another live project has, with a 400 on the key field', async () => {
    await createProject('Web shop', 'web');
    const res = await team.admin.call('POST', '/api/v1/projects/', { name: 'Website', key: 'WEB' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      title: 'A project with the key "web" already exists.',
      errors: [{ field: 'key', message: 'A project with the key "web" already exists.' }],
    });
  });

  it('lets only organisation admins create projects', async () => {
    for (const member of [team.productionEditor, team.editor, team.readOnly]) {
      const res = await member.call('POST', '/api/v1/projects/', { name: 'Nope', key: 'nope' });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ title: 'Only organisation admins may manage projects.' });
    }
    const list = await team.admin.call('GET', '/api/v1/projects');
    expect(list.json<Project[]>()).toEqual([]);
  });

  it('writes an audit item a person can read, with user text escaped', async () => {
    await createProject('[Shop](http://evil.example)', 'shop');
    const [item] = await auditTrail(team.admin.call);
    expect(item!.title).toBe('Project [Shop](http://evil.example) created');
    expect(item!.description).toContain(
      'created the project **\\[Shop\\]\\(http://evil\\.example\\)** (`shop`)',
    );
    expect(item!.description).toContain('**Production**, **Development**');
  });
});

describe('plan limits (billing flag on, organisation subscribed)', () => {
  it('refuses a project past maxProjects with "Only 1 project(s) allowed."', async () => {
    await subscribe(h, team.admin.organisationId, { maxProjects: 1 });
    await createProject('First', 'first');
    const res = await team.admin.call('POST', '/api/v1/projects/', { name: 'Second', key: 'second' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ title: 'Only 1 project(s) allowed.', code: 'limit_reached' });
  });

  it('lets only one of two simultaneous creations pass the limit', async () => {
    await subscribe(h, team.admin.organisationId, { maxProjects: 1 });
    const results = await Promise.all(
      ['one', 'two', 'three'].map((key) => team.admin.call('POST', '/api/v1/projects/', { name: key, key })),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 400, 400]);
  });

  it('gives a new project only as many environments as maxEnvironments leaves room for', async () => {
    await subscribe(h, team.admin.organisationId, { maxEnvironments: 3 });
    await createProject('First', 'first');
    const second = await createProject('Second', 'sec');
    expect(second.environments.map((e) => e.key)).toEqual(['production']);
    const third = await team.admin.call('POST', '/api/v1/projects/', { name: 'Third', key: 'third' });
    expect(third.statusCode).toBe(400);
    expect(third.json()).toMatchObject({ title: 'Only 3 environment(s) allowed.' });
  });

  it('applies no limit without a subscription', async () => {
    for (const key of ['a', 'b', 'c']) await createProject(key, key);
    expect((await team.admin.call('GET', '/api/v1/projects')).json<Project[]>()).toHaveLength(3);
  });
});

describe('GET /api/v1/projects', () => {
  it('lists live projects by name, filtered by name or key in any case', async () => {
    await createProject('Zebra', 'zeb');
    await createProject('Apple', 'app');
    await createProject('Mango', 'man');
    const all = await team.readOnly.call('GET', '/api/v1/projects/');
    expect(all.json<Project[]>().map((p) => p.name)).toEqual(['Apple', 'Mango', 'Zebra']);
    const byName = await team.readOnly.call('GET', '/api/v1/projects?query=ZEB');
    expect(byName.json<Project[]>().map((p) => p.key)).toEqual(['zeb']);
    const byKey = await team.readOnly.call('GET', '/api/v1/projects?query=man');
    expect(byKey.json<Project[]>().map((p) => p.key)).toEqual(['man']);
    const wildcard = await team.readOnly.call('GET', '/api/v1/projects?query=%25');
    expect(wildcard.json<Project[]>()).toEqual([]);
  });

  it('shows another organisation nothing', async () => {
    await createProject('Secret', 'sec');
    const res = await team.outsider.call('GET', '/api/v1/projects');
    expect(res.json<Project[]>()).toEqual([]);
  });
});

describe('GET /api/v1/projects/{key}', () => {
  it('returns the project with its environments to any member', async () => {
    await createProject('Web shop', 'web');
    const res = await team.editor.call('GET', '/api/v1/projects/web');
    expect(res.statusCode).toBe(200);
    expect(res.json<Project>().environments).toHaveLength(2);
  });

  it('answers 404 for an unknown key and for another organisation’s project', async () => {
    await createProject('Web shop', 'web');
    expect((await team.admin.call('GET', '/api/v1/projects/nope')).statusCode).toBe(404);
    expect((await team.outsider.call('GET', '/api/v1/projects/web')).statusCode).toBe(404);
  });
});

describe('PUT /api/v1/projects/', () => {
  it('renames a project and audits the old and new names', async () => {
    const project = await createProject('Web shop', 'web');
    const res = await team.admin.call('PUT', '/api/v1/projects/', {
      id: project.id,
      name: 'Online shop',
      key: 'web',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json<Project>()).toMatchObject({ id: project.id, name: 'Online shop', key: 'web' });
    const [item] = await auditTrail(team.admin.call);
    expect(item!.description).toContain('renamed the project `web` from **Web shop** to **Online shop**');
  });

  it('refuses to change the key', async () => {
    const project = await createProject('Web shop', 'web');
    const res = await team.admin.call('PUT', '/api/v1/projects/', {
      id: project.id,
      name: 'Web shop',
      key: 'shop',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      errors: [{ field: 'key', message: 'The key of a project cannot be changed.' }],
    });
    expect((await team.admin.call('GET', '/api/v1/projects/web')).statusCode).toBe(200);
  });

  it('is for organisation admins of the same organisation only', async () => {
    const project = await createProject('Web shop', 'web');
    const body = { id: project.id, name: 'Hijacked', key: 'web' };
    for (const member of [team.productionEditor, team.editor, team.readOnly]) {
      expect((await member.call('PUT', '/api/v1/projects/', body)).statusCode).toBe(403);
    }
    expect((await team.outsider.call('PUT', '/api/v1/projects/', body)).statusCode).toBe(404);
    expect((await team.admin.call('GET', '/api/v1/projects/web')).json<Project>().name).toBe('Web shop');
  });
});

describe('DELETE /api/v1/projects/{id}', () => {
  it('archives the project by key, removing it from every list, and frees its key', async () => {
    await createProject('Web shop', 'web');
    await createProject('Mobile', 'mob');
    const res = await team.admin.call('DELETE', '/api/v1/projects/web');
    expect(res.statusCode).toBe(204);
    expect((await team.admin.call('GET', '/api/v1/projects')).json<Project[]>().map((p) => p.key)).toEqual([
      'mob',
    ]);
    expect((await team.admin.call('GET', '/api/v1/projects/web')).statusCode).toBe(404);
    const initial = await team.admin.call('GET', '/api/v1/initial');
    expect(initial.json<{ projects: Project[] }>().projects.map((p) => p.key)).toEqual(['mob']);
    expect((await team.admin.call('GET', '/api/v1/environments/web/production')).statusCode).toBe(404);
    await createProject('Web shop again', 'web');
    const [item] = await auditTrail(team.admin.call);
    expect(item!.title).toBe('Project Web shop again created');
  });

  it('accepts the id as well as the key', async () => {
    const project = await createProject('Web shop', 'web');
    await createProject('Mobile', 'mob');
    expect((await team.admin.call('DELETE', `/api/v1/projects/${project.id}`)).statusCode).toBe(204);
    const [item] = await auditTrail(team.admin.call);
    expect(item).toMatchObject({ title: 'Project Web shop deleted' });
    expect(item!.description).toContain('with its 2 environment(s) and 0 feature(s)');
  });

  it('refuses to delete the last project', async () => {
    await createProject('Web shop', 'web');
    const res = await team.admin.call('DELETE', '/api/v1/projects/web');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ title: 'You must have at least one project.' });
  });

  it('is for organisation admins of the same organisation only', async () => {
    await createProject('Web shop', 'web');
    await createProject('Mobile', 'mob');
    for (const member of [team.productionEditor, team.editor, team.readOnly]) {
      const res = await member.call('DELETE', '/api/v1/projects/web');
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ title: 'Only organisation admins may manage projects.' });
    }
    expect((await team.outsider.call('DELETE', '/api/v1/projects/web')).statusCode).toBe(404);
    expect((await team.admin.call('GET', '/api/v1/projects')).json<Project[]>()).toHaveLength(2);
  });
});
