import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { escapeMarkdown, type AuthorityOption, type Project, type Role } from '@vexil/core';
import { roles, userRoles } from '../../db/schema/index';
import { auditTrail, callerFor, createTeam, type Team } from '../../../test/api';
import { createHarness, type Harness } from '../../../test/helpers';

/*
 * Custom roles over HTTP (docs/product.md §2 Role Management, §6): organisation admins list the
 * built-in authorities, create, change and delete roles, and give them to members. Every write is
 * audited; another organisation's roles, projects and members are out of reach.
 */

let h: Harness;
let team: Team;
let web: Project;

const ROLES = '/api/v1/roles';
const MISSING = '00000000-0000-4000-8000-000000000001';

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
  web = res.json<Project>();
});

const togglesOutsideProduction = () => ({
  actions: ['update'],
  resources: ['featureControl'],
  projects: [web.id],
  environments: { kind: 'nonProduction' },
});

async function createRole(body: Record<string, unknown> = {}): Promise<Role> {
  const res = await team.admin.call('PUT', ROLES, {
    name: 'Release managers',
    description: 'Switch features outside production',
    grants: [togglesOutsideProduction()],
    ...body,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<Role>();
}

async function giveRole(role: Role, userIds: string[]) {
  return team.admin.call('PUT', `${ROLES}/${role.id}/members`, { userIds });
}

describe('GET /api/v1/iam/authorities', () => {
  it('lists the four built-in authorities with what each may do', async () => {
    const res = await team.admin.call('GET', '/api/v1/iam/authorities');
    expect(res.statusCode).toBe(200);
    const options = res.json<AuthorityOption[]>();
    expect(options.map((option) => option.name)).toEqual([
      'ROLE_ORGANISATION_ADMIN',
      'ROLE_ORGANISATION_PROD_EDITOR',
      'ROLE_ORGANISATION_EDITOR',
      'ROLE_ORGANISATION_READONLY_USER',
    ]);
    expect(options[3]!.description).toContain('changes nothing, unless a custom role grants it');
  });
});

describe('only organisation admins manage roles', () => {
  it('refuses every other member with 403 and a clear message', async () => {
    const role = await createRole();
    for (const member of [team.productionEditor, team.editor, team.readOnly]) {
      for (const [method, url, body] of [
        ['GET', '/api/v1/iam/authorities', undefined],
        ['GET', ROLES, undefined],
        ['PUT', ROLES, { name: 'Mine' }],
        ['PUT', ROLES, { id: role.id, name: 'Mine' }],
        ['DELETE', `${ROLES}/${role.id}`, undefined],
        ['PUT', `${ROLES}/${role.id}/members`, { userIds: [member.id] }],
      ] as const) {
        const res = await member.call(method, url, body);
        expect(res.statusCode, `${method} ${url}`).toBe(403);
        expect(res.json()).toMatchObject({ title: 'Only organisation admins may manage roles.' });
      }
    }
    const [stored] = (await team.admin.call('GET', ROLES)).json<Role[]>();
    expect(stored).toMatchObject({ name: 'Release managers', members: [] });
  });
});

describe('PUT /api/v1/roles', () => {
  it('creates a role without id (201), lists it with its grants, and audits it', async () => {
    const role = await createRole({
      grants: [
        togglesOutsideProduction(),
        {
          actions: ['delete', 'create', 'delete'],
          resources: ['segment'],
          projects: null,
          environments: { kind: 'tagged', tags: ['EU West'] },
        },
      ],
    });
    expect(role).toMatchObject({
      name: 'Release managers',
      description: 'Switch features outside production',
      members: [],
      grants: [
        togglesOutsideProduction(),
        {
          actions: ['create', 'delete'],
          resources: ['segment'],
          projects: null,
          environments: { kind: 'tagged', tags: ['eu-west'] },
        },
      ],
    });
    expect((await team.admin.call('GET', ROLES)).json<Role[]>()).toEqual([role]);
    const [item] = await auditTrail(team.admin.call);
    expect(item!.title).toBe('Role Release managers created');
    expect(item!.description).toContain(
      escapeMarkdown('Update feature controls in Web shop, non-production environments'),
    );
  });

  it('changes a role given its id, and audits what it granted before and now', async () => {
    const role = await createRole();
    const res = await team.admin.call('PUT', ROLES, {
      id: role.id,
      name: 'Releasers',
      description: '',
      grants: [{ ...togglesOutsideProduction(), environments: { kind: 'all' } }],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<Role>()).toMatchObject({
      id: role.id,
      name: 'Releasers',
      description: '',
      grants: [{ environments: { kind: 'all' } }],
    });
    const [item] = await auditTrail(team.admin.call);
    expect(item!.title).toBe('Role Releasers changed');
    expect(item!.description).toContain('(formerly **Release managers**)');
    expect(item!.description).toContain(
      `Now:\n\n- ${escapeMarkdown('Update feature controls in Web shop, all environments')}`,
    );
  });

  it('lists roles by name', async () => {
    await createRole({ name: 'beta testers' });
    await createRole({ name: 'Auditors' });
    await createRole({ name: 'Contractors' });
    const names = (await team.admin.call('GET', ROLES)).json<Role[]>().map((role) => role.name);
    expect(names).toEqual(['Auditors', 'beta testers', 'Contractors']);
  });

  it('needs a name, and refuses a grant without actions, resources or tags, naming the field', async () => {
    for (const [body, field, message] of [
      [{ name: '  ' }, 'name', 'Name is required'],
      [
        { name: 'QA', grants: [{ ...togglesOutsideProduction(), actions: [] }] },
        'grants.0.actions',
        'Choose at least one action.',
      ],
      [
        {
          name: 'QA',
          grants: [togglesOutsideProduction(), { ...togglesOutsideProduction(), resources: ['project'] }],
        },
        'grants.1.resources.0',
        'Resource must be one of feature, featureControl, segment, target, experiment, changeRequest.',
      ],
      [
        {
          name: 'QA',
          grants: [{ ...togglesOutsideProduction(), environments: { kind: 'tagged', tags: [] } }],
        },
        'grants.0.environments.tags',
        'Name at least one tag.',
      ],
      [
        { name: 'QA', grants: [{ ...togglesOutsideProduction(), projects: [] }] },
        'grants.0.projects',
        'Choose at least one project, or all projects.',
      ],
    ] as const) {
      const res = await team.admin.call('PUT', ROLES, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json<{ errors: unknown[] }>().errors).toContainEqual({ field, message });
    }
    expect((await team.admin.call('GET', ROLES)).json<Role[]>()).toEqual([]);
  });

  it('refuses a project that is not one of the organisation’s live projects', async () => {
    const theirs = await team.outsider.call('POST', '/api/v1/projects/', { name: 'Theirs', key: 'th' });
    const mobile = (
      await team.admin.call('POST', '/api/v1/projects/', { name: 'Mobile', key: 'mob' })
    ).json<Project>();
    expect((await team.admin.call('DELETE', `/api/v1/projects/${mobile.id}`)).statusCode).toBe(204);
    for (const id of [theirs.json<Project>().id, mobile.id, MISSING]) {
      const res = await team.admin.call('PUT', ROLES, {
        name: 'QA',
        grants: [{ ...togglesOutsideProduction(), projects: [web.id, id] }],
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        errors: [
          {
            field: 'grants.0.projects.1',
            message: 'Choose projects of this organisation: one of these does not exist.',
          },
        ],
      });
    }
  });

  it('refuses a name another role has, whatever its case, with 409 on the name', async () => {
    const role = await createRole();
    const other = await createRole({ name: 'Auditors' });
    for (const body of [{ name: 'RELEASE MANAGERS' }, { id: other.id, name: 'release managers' }]) {
      const res = await team.admin.call('PUT', ROLES, body);
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({
        title: `A role named "${body.name}" already exists.`,
        errors: [{ field: 'name', message: `A role named "${body.name}" already exists.` }],
      });
    }
    // Its own name is not taken.
    const same = await team.admin.call('PUT', ROLES, { id: role.id, name: 'Release Managers' });
    expect(same.statusCode).toBe(200);
  });
});

describe('PUT /api/v1/roles/{id}/members', () => {
  it('gives the role to exactly the members named, and audits who gained and lost it', async () => {
    const role = await createRole();
    const first = await giveRole(role, [team.readOnly.id, team.editor.id]);
    expect(first.statusCode, first.body).toBe(200);
    expect(
      first
        .json<Role>()
        .members.map((member) => member.id)
        .sort(),
    ).toEqual([team.readOnly.id, team.editor.id].sort());
    const second = await giveRole(role, [team.readOnly.id]);
    expect(second.json<Role>().members).toEqual([{ id: team.readOnly.id, name: 'Test User' }]);
    const [item] = await auditTrail(team.admin.call);
    expect(item).toMatchObject({
      title: 'Members of role Release managers changed',
      description: `${escapeMarkdown(team.admin.email)} took it from **Test User** (role **Release managers**).`,
    });
    expect((await team.admin.call('GET', ROLES)).json<Role[]>()[0]!.members).toHaveLength(1);
  });

  it('takes activated members of this organisation only', async () => {
    const role = await createRole();
    const pending = await h.createUser(team.admin.organisationId, team.admin.domain, { activated: false });
    for (const id of [pending.id, team.outsider.id, MISSING]) {
      const res = await giveRole(role, [team.readOnly.id, id]);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        errors: [
          { field: 'userIds.1', message: 'Only activated members of this organisation can hold a role.' },
        ],
      });
    }
    expect((await team.admin.call('GET', ROLES)).json<Role[]>()[0]!.members).toEqual([]);
  });
});

describe('DELETE /api/v1/roles/{id}', () => {
  it('is refused while members hold the role, naming them; deletes it once nobody does', async () => {
    const role = await createRole();
    await giveRole(role, [team.readOnly.id]);
    const refused = await team.admin.call('DELETE', `${ROLES}/${role.id}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      title: 'The role "Release managers" is held by Test User. Take it from them before deleting it.',
    });
    await giveRole(role, []);
    const res = await team.admin.call('DELETE', `${ROLES}/${role.id}`);
    expect(res.statusCode).toBe(204);
    expect((await team.admin.call('GET', ROLES)).json<Role[]>()).toEqual([]);
    const [item] = await auditTrail(team.admin.call);
    expect(item!.title).toBe('Role Release managers deleted');
    expect((await team.admin.call('DELETE', `${ROLES}/${role.id}`)).statusCode).toBe(404);
  });

  it('a member removed from the team no longer holds the role', async () => {
    const role = await createRole();
    await giveRole(role, [team.readOnly.id]);
    expect((await team.admin.call('DELETE', `/api/v1/users/${team.readOnly.id}`)).statusCode).toBe(204);
    expect((await team.admin.call('DELETE', `${ROLES}/${role.id}`)).statusCode).toBe(204);
  });
});

describe('another organisation', () => {
  it('neither sees nor changes this organisation’s roles: 404', async () => {
    const role = await createRole();
    expect((await team.outsider.call('GET', ROLES)).json<Role[]>()).toEqual([]);
    for (const [method, url, body] of [
      ['PUT', ROLES, { id: role.id, name: 'Hijacked' }],
      ['DELETE', `${ROLES}/${role.id}`, undefined],
      ['PUT', `${ROLES}/${role.id}/members`, { userIds: [team.outsider.id] }],
    ] as const) {
      const res = await team.outsider.call(method, url, body);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
    }
    expect((await team.admin.call('GET', ROLES)).json<Role[]>()).toEqual([role]);
  });
});

describe('the roles-admin UI flag', () => {
  it('off: the routes are not found and roles grant nothing', async () => {
    const off = await createHarness({ VEXIL_UI_FLAGS: 'roles-admin=off' });
    try {
      const admin = await off.createOrganisation();
      const call = callerFor(off.app, await off.login(admin));
      for (const [method, url] of [
        ['GET', '/api/v1/iam/authorities'],
        ['GET', ROLES],
        ['PUT', ROLES],
        ['DELETE', `${ROLES}/${MISSING}`],
        ['PUT', `${ROLES}/${MISSING}/members`],
      ] as const) {
        const body = url === ROLES ? { name: 'QA' } : url.endsWith('members') ? { userIds: [] } : undefined;
        const res = await call(method, url, method === 'PUT' ? body : undefined);
        expect(res.statusCode, `${method} ${url}`).toBe(404);
        expect(res.json()).toMatchObject({ detail: 'Custom roles are turned off on this server.' });
      }
      // A role given while the flag was on grants nothing now.
      const [role] = await off.database.db
        .insert(roles)
        .values({
          organisationId: admin.organisationId,
          name: 'Earlier',
          grants: [
            { actions: ['update'], resources: ['feature'], projects: null, environments: { kind: 'all' } },
          ],
        })
        .returning();
      await off.database.db
        .insert(userRoles)
        .values({ organisationId: admin.organisationId, userId: admin.id, roleId: role!.id });
      const initial = await call('GET', '/api/v1/initial');
      expect(initial.json()).toMatchObject({ principalUser: { grants: [] } });
    } finally {
      await off.close();
    }
  });
});
