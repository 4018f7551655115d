import { describe, expect, it } from 'vitest';
import { can, type Grant, type Principal } from '../permissions';
import { toFieldErrors } from './common';
import {
  AUTHORITY_OPTIONS,
  GRANT_MESSAGES,
  authorityOptionSchema,
  describeGrant,
  grantSchema,
  roleInput,
  roleMembersInput,
  roleSchema,
} from './roles';

const P1 = '3f0b7c1e-2a4d-4e8f-9b6a-1c2d3e4f5a6b';
const P2 = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';

const grant = {
  actions: ['update'],
  resources: ['featureControl'],
  projects: [P1],
  environments: { kind: 'nonProduction' },
};

function errorsOf(schema: { safeParse: (v: unknown) => { error?: { issues: unknown[] } } }, value: unknown) {
  const result = schema.safeParse(value);
  return result.error ? toFieldErrors(result.error.issues as never) : [];
}

describe('grantSchema', () => {
  it('accepts a grant and gives back one that can() reads', () => {
    const parsed: Grant = grantSchema.parse(grant);
    const member: Principal = { authorities: ['ROLE_ORGANISATION_READONLY_USER'], grants: [parsed] };
    expect(
      can(member, 'update', {
        type: 'featureControl',
        environment: { production: false, projectId: P1 },
      }),
    ).toBe(true);
  });

  it('needs at least one action and one resource', () => {
    expect(errorsOf(grantSchema, { ...grant, actions: [], resources: [] })).toEqual([
      { field: 'actions', message: GRANT_MESSAGES.actions },
      { field: 'resources', message: GRANT_MESSAGES.resources },
    ]);
    expect(errorsOf(grantSchema, { ...grant, actions: undefined })).toEqual([
      { field: 'actions', message: GRANT_MESSAGES.actions },
    ]);
  });

  it('refuses an action or resource it does not know, saying which ones it takes', () => {
    expect(errorsOf(grantSchema, { ...grant, actions: ['read'] })).toEqual([
      { field: 'actions.0', message: 'Action must be one of create, update, delete, approve, bypass.' },
    ]);
    expect(errorsOf(grantSchema, { ...grant, resources: ['project'] })).toEqual([
      {
        field: 'resources.0',
        message:
          'Resource must be one of feature, featureControl, segment, target, experiment, changeRequest.',
      },
    ]);
  });

  it('keeps each action and resource once, in a fixed order', () => {
    const parsed = grantSchema.parse({
      ...grant,
      actions: ['delete', 'create', 'delete'],
      resources: ['segment', 'feature', 'segment'],
    });
    expect(parsed.actions).toEqual(['create', 'delete']);
    expect(parsed.resources).toEqual(['feature', 'segment']);
  });

  it('takes project ids, or null for every project, never an empty list', () => {
    expect(grantSchema.parse({ ...grant, projects: null }).projects).toBeNull();
    expect(grantSchema.parse({ ...grant, projects: [P1, P2, P1] }).projects).toEqual([P1, P2]);
    expect(errorsOf(grantSchema, { ...grant, projects: [] })).toEqual([
      { field: 'projects', message: GRANT_MESSAGES.projects },
    ]);
    expect(errorsOf(grantSchema, { ...grant, projects: ['web'] })).toEqual([
      { field: 'projects.0', message: 'Must be a valid id.' },
    ]);
  });

  it('normalises tags like environment tags and needs one', () => {
    const parsed = grantSchema.parse({
      ...grant,
      environments: { kind: 'tagged', tags: ['EU West', 'eu-west'] },
    });
    expect(parsed.environments).toEqual({ kind: 'tagged', tags: ['eu-west'] });
    expect(errorsOf(grantSchema, { ...grant, environments: { kind: 'tagged', tags: [] } })).toEqual([
      { field: 'environments.tags', message: GRANT_MESSAGES.tags },
    ]);
    expect(errorsOf(grantSchema, { ...grant, environments: { kind: 'tagged', tags: ['  '] } })).toEqual([
      { field: 'environments.tags.0', message: 'Tag is required' },
    ]);
  });

  it('refuses an environment scope it does not know', () => {
    expect(errorsOf(grantSchema, { ...grant, environments: { kind: 'production' } })).toEqual([
      { field: 'environments.kind', message: GRANT_MESSAGES.environments },
    ]);
  });
});

describe('roleInput', () => {
  it('needs a name ("Name is required") and defaults the description and grants', () => {
    expect(errorsOf(roleInput, { name: '   ' })).toEqual([{ field: 'name', message: 'Name is required' }]);
    expect(roleInput.parse({ name: ' Release managers ' })).toEqual({
      name: 'Release managers',
      description: '',
      grants: [],
    });
  });

  it('reports a bad grant where it is', () => {
    expect(errorsOf(roleInput, { name: 'QA', grants: [grant, { ...grant, resources: [] }] })).toEqual([
      { field: 'grants.1.resources', message: GRANT_MESSAGES.resources },
    ]);
  });
});

describe('roleMembersInput', () => {
  it('takes member ids, each once', () => {
    expect(roleMembersInput.parse({ userIds: [P1, P1, P2] }).userIds).toEqual([P1, P2]);
    expect(roleMembersInput.parse({ userIds: [] }).userIds).toEqual([]);
    expect(roleMembersInput.safeParse({ userIds: ['ada'] }).success).toBe(false);
  });
});

describe('roleSchema and authority options', () => {
  it('describes a role with its grants and members', () => {
    expect(
      roleSchema.safeParse({
        id: P1,
        name: 'QA',
        description: '',
        grants: [grant],
        members: [{ id: P2, name: 'Ada Lovelace' }],
      }).success,
    ).toBe(true);
  });

  it('lists the four built-in authorities, each with what it may do', () => {
    expect(AUTHORITY_OPTIONS.map((option) => option.name)).toEqual([
      'ROLE_ORGANISATION_ADMIN',
      'ROLE_ORGANISATION_PROD_EDITOR',
      'ROLE_ORGANISATION_EDITOR',
      'ROLE_ORGANISATION_READONLY_USER',
    ]);
    for (const option of AUTHORITY_OPTIONS) {
      expect(authorityOptionSchema.parse(option)).toEqual(option);
      expect(option.description.length).toBeGreaterThan(20);
    }
  });
});

describe('describeGrant', () => {
  const names = new Map([[P1, 'Web shop']]);
  const name = (id: string) => names.get(id);

  it('says what a grant allows, where', () => {
    expect(describeGrant(grantSchema.parse(grant), name)).toBe(
      'Update feature controls in Web shop, non-production environments',
    );
    expect(
      describeGrant(
        grantSchema.parse({
          actions: ['create', 'update', 'delete'],
          resources: ['feature', 'segment'],
          projects: null,
          environments: { kind: 'tagged', tags: ['eu', 'us'] },
        }),
        name,
      ),
    ).toBe('Create, Update and Delete features and segments in all projects, environments tagged eu or us');
  });

  it('names a project it no longer knows "a deleted project"', () => {
    expect(
      describeGrant(grantSchema.parse({ ...grant, projects: [P1, P2], environments: { kind: 'all' } }), name),
    ).toBe('Update feature controls in Web shop and a deleted project, all environments');
  });
});
