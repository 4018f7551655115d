import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  ACTIONS,
  AUTHORITY_NAMES,
  GRANT_ACTIONS,
  GRANT_RESOURCES,
  can,
  canSeeServerSdkKey,
  grantAllows,
  isProductionEnvironment,
  type EnvironmentConstraint,
  type Grant,
  type GrantEnvironments,
  type Principal,
  type Resource,
} from './permissions';
import { DENIAL_MESSAGES, denialOf, servedChangeDenial } from './denials';

const PROJECTS = ['p1', 'p2', 'p3'];
const TAGS = ['eu', 'us', 'qa', 'production'];

const environment: fc.Arbitrary<EnvironmentConstraint> = fc.record({
  production: fc.boolean(),
  tags: fc.subarray(TAGS),
  projectId: fc.constantFrom(...PROJECTS),
});

const resource: fc.Arbitrary<Resource> = fc.oneof(
  fc.record({ type: fc.constant('organisation' as const) }),
  fc.record({ type: fc.constant('project' as const) }),
  fc.record({ type: fc.constant('environment' as const) }),
  fc.record({ type: fc.constant('audit' as const) }),
  fc.record(
    {
      type: fc.constant('feature' as const),
      environment,
      projectId: fc.constantFrom(...PROJECTS),
    },
    { requiredKeys: ['type'] },
  ),
  fc.record(
    { type: fc.constant('target' as const), projectId: fc.constantFrom(...PROJECTS) },
    { requiredKeys: ['type'] },
  ),
  ...(['featureControl', 'segment', 'targetUser', 'experiment'] as const).map((type) =>
    fc.record({ type: fc.constant(type), environment }),
  ),
);

const scope: fc.Arbitrary<GrantEnvironments> = fc.oneof(
  fc.constant({ kind: 'all' as const }),
  fc.constant({ kind: 'nonProduction' as const }),
  fc.record({ kind: fc.constant('tagged' as const), tags: fc.subarray(TAGS, { minLength: 1 }) }),
);

const grant: fc.Arbitrary<Grant> = fc.record({
  actions: fc.subarray([...GRANT_ACTIONS], { minLength: 1 }),
  resources: fc.subarray([...GRANT_RESOURCES], { minLength: 1 }),
  projects: fc.option(fc.subarray(PROJECTS, { minLength: 1 }), { nil: null }),
  environments: scope,
});

const principal: fc.Arbitrary<Principal> = fc.record({
  authorities: fc.subarray([...AUTHORITY_NAMES], { minLength: 1, maxLength: 1 }),
  grants: fc.array(grant, { maxLength: 3 }),
});

const action = fc.constantFrom(...ACTIONS);

const projectOf = (r: Resource): string | undefined =>
  ('environment' in r && r.environment?.projectId) || ('projectId' in r ? r.projectId : undefined);

describe('custom roles: grants', () => {
  it('only ever add rights to those of the authority', () => {
    fc.assert(
      fc.property(principal, action, resource, (p, a, r) => {
        if (can({ authorities: p.authorities }, a, r)) expect(can(p, a, r)).toBe(true);
      }),
    );
  });

  it('never allow reading, administration or the audit log beyond the authority', () => {
    fc.assert(
      fc.property(principal, action, resource, (p, a, r) => {
        const administration = ['organisation', 'project', 'environment', 'audit', 'targetUser'].includes(
          r.type,
        );
        if (a === 'read' || a === 'manage' || administration)
          expect(can(p, a, r)).toBe(can({ authorities: p.authorities }, a, r));
      }),
    );
  });

  it('never show a server SDK key that the built-in role alone does not', () => {
    fc.assert(
      fc.property(principal, environment, (p, env) => {
        expect(canSeeServerSdkKey(p, env)).toBe(canSeeServerSdkKey({ authorities: p.authorities }, env));
      }),
    );
    // The case: switching non-production features of one project shows none of its keys.
    const switcher: Principal = {
      authorities: ['ROLE_ORGANISATION_READONLY_USER'],
      grants: [
        {
          actions: ['create', 'update', 'delete'],
          resources: [...GRANT_RESOURCES],
          projects: null,
          environments: { kind: 'all' },
        },
      ],
    };
    expect(canSeeServerSdkKey(switcher, { production: false, projectId: 'p1' })).toBe(false);
    expect(canSeeServerSdkKey(switcher, { production: true, projectId: 'p1' })).toBe(false);
  });

  it('limited to non-production never reach a production environment', () => {
    fc.assert(
      fc.property(grant, action, resource, (g, a, r) => {
        const limited = { ...g, environments: { kind: 'nonProduction' as const } };
        if ('environment' in r && r.environment && isProductionEnvironment(r.environment))
          expect(grantAllows(limited, a, r)).toBe(false);
      }),
    );
  });

  it('limited to some projects never reach another project, nor one not named', () => {
    fc.assert(
      fc.property(grant, action, resource, fc.subarray(PROJECTS, { minLength: 1 }), (g, a, r, projects) => {
        const limited = { ...g, projects };
        const project = projectOf(r);
        if (project === undefined || !projects.includes(project))
          expect(grantAllows(limited, a, r)).toBe(false);
      }),
    );
  });

  it('limited to tags reach only environments carrying one of them, whatever the case', () => {
    const g: Grant = {
      actions: ['update'],
      resources: ['featureControl'],
      projects: null,
      environments: { kind: 'tagged', tags: ['EU'] },
    };
    const control = (tags: string[]): Resource => ({
      type: 'featureControl',
      environment: { production: true, tags, projectId: 'p1' },
    });
    expect(grantAllows(g, 'update', control(['eu', 'staging']))).toBe(true);
    expect(grantAllows(g, 'update', control(['us']))).toBe(false);
    expect(grantAllows(g, 'update', control([]))).toBe(false);
    // Settings apply to every environment: a grant limited to some cannot change them.
    expect(
      grantAllows({ ...g, resources: ['feature'] }, 'update', { type: 'feature', projectId: 'p1' }),
    ).toBe(false);
  });

  it('let a member approve, or bypass, change requests only where the grant reaches, and nothing else', () => {
    const member: Principal = {
      authorities: ['ROLE_ORGANISATION_EDITOR'],
      grants: [
        {
          actions: ['approve'],
          resources: ['changeRequest'],
          projects: ['p1'],
          environments: { kind: 'tagged', tags: ['eu'] },
        },
      ],
    };
    const requests = (projectId: string, tags: string[]): Resource => ({
      type: 'changeRequest',
      environment: { production: true, tags, projectId },
    });
    expect(can(member, 'approve', requests('p1', ['EU']))).toBe(true);
    expect(can(member, 'approve', requests('p1', ['us']))).toBe(false);
    expect(can(member, 'approve', requests('p2', ['eu']))).toBe(false);
    expect(can(member, 'bypass', requests('p1', ['eu']))).toBe(false);
    // Approving writes nothing by itself: the grant gives no direct write in production.
    expect(
      can(member, 'update', {
        type: 'featureControl',
        environment: { production: true, tags: ['eu'], projectId: 'p1' },
      }),
    ).toBe(false);
    expect(denialOf(member, 'approve', requests('p2', ['eu']))).toEqual({
      code: 'forbidden',
      message: DENIAL_MESSAGES.changeRequestApprove,
    });
    const bypassing: Principal = {
      ...member,
      grants: [{ ...member.grants![0]!, actions: ['bypass'] }],
    };
    expect(can(bypassing, 'bypass', requests('p1', ['eu']))).toBe(true);
    expect(can(bypassing, 'approve', requests('p1', ['eu']))).toBe(false);
  });

  it('let a read-only member change non-production controls of one project, and say why production is refused', () => {
    const member: Principal = {
      authorities: ['ROLE_ORGANISATION_READONLY_USER'],
      grants: [
        {
          actions: ['update'],
          resources: ['featureControl'],
          projects: ['p1'],
          environments: { kind: 'nonProduction' },
        },
      ],
    };
    const development = { production: false, tags: [], projectId: 'p1' };
    const production = { production: true, tags: [], projectId: 'p1' };
    expect(can(member, 'update', { type: 'featureControl', environment: development })).toBe(true);
    expect(
      can(member, 'update', { type: 'featureControl', environment: { ...development, projectId: 'p2' } }),
    ).toBe(false);
    expect(denialOf(member, 'update', { type: 'featureControl', environment: production })).toEqual({
      code: 'production_rights_required',
      message: 'Only a production editor can change a feature in a production environment.',
    });
    expect(can(member, 'update', { type: 'segment', environment: development })).toBe(false);
    expect(can(member, 'delete', { type: 'featureControl', environment: development })).toBe(false);
  });

  it('delete a feature only when they reach every environment', () => {
    const base: Grant = {
      actions: ['delete'],
      resources: ['feature'],
      projects: null,
      environments: { kind: 'all' },
    };
    expect(grantAllows(base, 'delete', { type: 'feature', projectId: 'p1' })).toBe(true);
    expect(
      grantAllows({ ...base, environments: { kind: 'nonProduction' } }, 'delete', { type: 'feature' }),
    ).toBe(false);
  });

  it('give nothing to someone without an authority', () => {
    fc.assert(
      fc.property(fc.array(grant), action, resource, (grants, a, r) => {
        expect(can({ authorities: [], grants }, a, r)).toBe(false);
      }),
    );
  });
});

describe('a variants change by a member with a project-limited grant', () => {
  it('is refused for want of production rights, not as if the member could not change the feature', () => {
    const member: Principal = {
      authorities: ['ROLE_ORGANISATION_READONLY_USER'],
      grants: [
        {
          actions: ['update'],
          resources: ['feature'],
          projects: ['p1'],
          environments: { kind: 'nonProduction' },
        },
      ],
    };
    const environments = [
      { production: false, tags: [], projectId: 'p1' },
      { production: true, tags: [], projectId: 'p1' },
    ];
    expect(servedChangeDenial(member, environments)).toEqual({
      code: 'production_rights_required',
      message: DENIAL_MESSAGES.featureVariantsProduction,
    });
    expect(servedChangeDenial(member, [environments[0]!])).toBeNull();
  });
});
