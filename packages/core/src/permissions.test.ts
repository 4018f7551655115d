import { describe, expect, it } from 'vitest';
import {
  ACTIONS,
  AUTHORITIES,
  AUTHORITY_LABELS,
  AUTHORITY_NAMES,
  can,
  canSeeServerSdkKey,
  hasProductionEditRights,
  isOrganisationAdmin,
  isProductionEnvironment,
  primaryAuthority,
  type Action,
  type Authority,
  type Resource,
} from './permissions';

/** Where an action is allowed: in both kinds of environment, only non-production, or nowhere. */
type Scope = 'both' | 'non-production' | 'production' | 'none';

// The expected answers, written out by hand from docs/product.md §6 rather than derived from the code.
const ENVIRONMENT_SCOPED: Record<Authority, Record<Action, Scope>> = {
  ROLE_ADMIN: {
    read: 'both',
    create: 'both',
    update: 'both',
    delete: 'both',
    manage: 'both',
    approve: 'none',
    bypass: 'none',
  },
  ROLE_ORGANISATION_ADMIN: {
    read: 'both',
    create: 'both',
    update: 'both',
    delete: 'both',
    manage: 'both',
    approve: 'none',
    bypass: 'none',
  },
  ROLE_ORGANISATION_PROD_EDITOR: {
    read: 'both',
    create: 'both',
    update: 'both',
    delete: 'both',
    manage: 'none',
    approve: 'none',
    bypass: 'none',
  },
  ROLE_ORGANISATION_EDITOR: {
    read: 'both',
    create: 'non-production',
    update: 'non-production',
    delete: 'non-production',
    manage: 'none',
    approve: 'none',
    bypass: 'none',
  },
  ROLE_ORGANISATION_READONLY_USER: {
    read: 'both',
    create: 'none',
    update: 'none',
    delete: 'none',
    manage: 'none',
    approve: 'none',
    bypass: 'none',
  },
};

// Feature deletion removes the feature from every environment, so it needs production rights.
const FEATURE: Record<Authority, Record<Action, Scope>> = {
  ...ENVIRONMENT_SCOPED,
  ROLE_ORGANISATION_EDITOR: { ...ENVIRONMENT_SCOPED.ROLE_ORGANISATION_EDITOR, delete: 'none' },
};

const ADMIN_ONLY: Record<Authority, boolean> = {
  ROLE_ADMIN: true,
  ROLE_ORGANISATION_ADMIN: true,
  ROLE_ORGANISATION_PROD_EDITOR: false,
  ROLE_ORGANISATION_EDITOR: false,
  ROLE_ORGANISATION_READONLY_USER: false,
};

// Change requests: drafting as a direct write there; approving by an admin, or a production editor in
// production; bypassing only through a custom role's grant.
const CHANGE_REQUEST: Record<Authority, Record<Action, Scope>> = {
  ROLE_ADMIN: { ...ENVIRONMENT_SCOPED.ROLE_ADMIN, approve: 'both' },
  ROLE_ORGANISATION_ADMIN: { ...ENVIRONMENT_SCOPED.ROLE_ORGANISATION_ADMIN, approve: 'both' },
  ROLE_ORGANISATION_PROD_EDITOR: {
    ...ENVIRONMENT_SCOPED.ROLE_ORGANISATION_PROD_EDITOR,
    approve: 'production',
  },
  ROLE_ORGANISATION_EDITOR: ENVIRONMENT_SCOPED.ROLE_ORGANISATION_EDITOR,
  ROLE_ORGANISATION_READONLY_USER: ENVIRONMENT_SCOPED.ROLE_ORGANISATION_READONLY_USER,
};

const allows = (scope: Scope, production: boolean) =>
  scope === 'both' || (scope === 'non-production' && !production) || (scope === 'production' && production);

function rows(table: Record<Authority, Record<Action, Scope>>) {
  return AUTHORITY_NAMES.flatMap((authority) =>
    ACTIONS.flatMap((action) =>
      [true, false].map((production) => ({
        authority,
        action,
        production,
        environment: production ? 'production' : 'non-production',
        expected: allows(table[authority][action], production),
      })),
    ),
  );
}

const as = (authority: string) => ({ authorities: [authority] });

describe('can', () => {
  describe.each(['featureControl', 'segment', 'experiment'] as const)('on a %s', (type) => {
    it.each(rows(ENVIRONMENT_SCOPED))(
      '$authority: $action in a $environment environment → $expected',
      ({ authority, action, production, expected }) => {
        expect(can(as(authority), action, { type, environment: { production } })).toBe(expected);
      },
    );
  });

  describe('on the change requests of an environment', () => {
    it.each(rows(CHANGE_REQUEST))(
      '$authority: $action in a $environment environment → $expected',
      ({ authority, action, production, expected }) => {
        expect(can(as(authority), action, { type: 'changeRequest', environment: { production } })).toBe(
          expected,
        );
      },
    );
  });

  describe('on a feature in an environment', () => {
    it.each(rows(FEATURE))(
      '$authority: $action in a $environment environment → $expected',
      ({ authority, action, production, expected }) => {
        expect(can(as(authority), action, { type: 'feature', environment: { production } })).toBe(expected);
      },
    );
  });

  describe('on a feature outside any environment (settings, create page)', () => {
    it.each(rows(FEATURE).filter((row) => !row.production))(
      '$authority: $action → $expected',
      ({ authority, action, expected }) => {
        expect(can(as(authority), action, { type: 'feature' })).toBe(expected);
      },
    );
  });

  describe('on the organisation (projects, environments, billing, integrations, team, roles, tokens)', () => {
    it.each(AUTHORITY_NAMES.flatMap((authority) => ACTIONS.map((action) => ({ authority, action }))))(
      '$authority: $action',
      ({ authority, action }) => {
        expect(can(as(authority), action, { type: 'organisation' })).toBe(ADMIN_ONLY[authority]);
      },
    );
  });

  describe.each(['project', 'environment'] as const)('on a %s', (type) => {
    it.each(AUTHORITY_NAMES.flatMap((authority) => ACTIONS.map((action) => ({ authority, action }))))(
      '$authority: $action',
      ({ authority, action }) => {
        const administration = action !== 'approve' && action !== 'bypass';
        expect(can(as(authority), action, { type })).toBe(
          action === 'read' || (administration && ADMIN_ONLY[authority]),
        );
      },
    );
  });

  describe('on a target', () => {
    it.each(rows(ENVIRONMENT_SCOPED).filter((row) => !row.production))(
      '$authority: $action → $expected',
      ({ authority, action, expected }) => {
        expect(can(as(authority), action, { type: 'target' })).toBe(expected);
      },
    );
  });

  describe('on the audit log', () => {
    it.each(AUTHORITY_NAMES)('%s may read it but never write it', (authority) => {
      expect(can(as(authority), 'read', { type: 'audit' })).toBe(true);
      for (const action of ['create', 'update', 'delete'] as const) {
        expect(can(as(authority), action, { type: 'audit' })).toBe(false);
      }
    });
  });

  const everyResource: Resource[] = [
    { type: 'organisation' },
    { type: 'project' },
    { type: 'environment' },
    { type: 'feature' },
    { type: 'featureControl', environment: { production: false } },
    { type: 'segment', environment: { production: false } },
    { type: 'experiment', environment: { production: false } },
    { type: 'target' },
    { type: 'audit' },
  ];

  it.each([
    { case: 'no authorities', principal: { authorities: [] } },
    { case: 'only unknown authorities', principal: { authorities: ['ROLE_USER', 'toString', '__proto__'] } },
  ])('denies everything to a principal with $case', ({ principal }) => {
    for (const resource of everyResource) {
      for (const action of ACTIONS) expect(can(principal, action, resource)).toBe(false);
    }
  });

  it('uses the most powerful of several authorities', () => {
    const principal = {
      authorities: [AUTHORITIES.ROLE_ORGANISATION_READONLY_USER, AUTHORITIES.ROLE_ORGANISATION_PROD_EDITOR],
    };
    expect(can(principal, 'update', { type: 'featureControl', environment: { production: true } })).toBe(
      true,
    );
  });

  it('treats an environment tagged "production" as production', () => {
    const environment = { production: false, tags: ['Production'] };
    expect(
      can(as(AUTHORITIES.ROLE_ORGANISATION_EDITOR), 'update', { type: 'featureControl', environment }),
    ).toBe(false);
    expect(
      can(as(AUTHORITIES.ROLE_ORGANISATION_PROD_EDITOR), 'update', { type: 'featureControl', environment }),
    ).toBe(true);
  });
});

describe('isProductionEnvironment', () => {
  it('reads the production marker and the production tag', () => {
    expect(isProductionEnvironment({ production: true })).toBe(true);
    expect(isProductionEnvironment({ production: false, tags: ['PRODUCTION'] })).toBe(true);
    expect(isProductionEnvironment({ production: false, tags: ['prod-like'] })).toBe(false);
  });
});

describe('canSeeServerSdkKey', () => {
  it.each([
    [AUTHORITIES.ROLE_ADMIN, true, true],
    [AUTHORITIES.ROLE_ORGANISATION_ADMIN, true, true],
    [AUTHORITIES.ROLE_ORGANISATION_PROD_EDITOR, true, true],
    [AUTHORITIES.ROLE_ORGANISATION_EDITOR, false, true],
    [AUTHORITIES.ROLE_ORGANISATION_READONLY_USER, false, false],
  ])('%s: production %s, other environments %s', (authority, inProduction, elsewhere) => {
    expect(canSeeServerSdkKey(as(authority), { production: true })).toBe(inProduction);
    expect(canSeeServerSdkKey(as(authority), { production: false, tags: ['Production'] })).toBe(inProduction);
    expect(canSeeServerSdkKey(as(authority), { production: false })).toBe(elsewhere);
  });

  it('shows nothing to a principal without authorities', () => {
    expect(canSeeServerSdkKey({ authorities: [] }, { production: false })).toBe(false);
  });
});

describe('isOrganisationAdmin and hasProductionEditRights', () => {
  it.each([
    [AUTHORITIES.ROLE_ADMIN, true, true],
    [AUTHORITIES.ROLE_ORGANISATION_ADMIN, true, true],
    [AUTHORITIES.ROLE_ORGANISATION_PROD_EDITOR, false, true],
    [AUTHORITIES.ROLE_ORGANISATION_EDITOR, false, false],
    [AUTHORITIES.ROLE_ORGANISATION_READONLY_USER, false, false],
  ])('%s: admin %s, production rights %s', (authority, admin, production) => {
    expect(isOrganisationAdmin(as(authority))).toBe(admin);
    expect(hasProductionEditRights(as(authority))).toBe(production);
  });
});

describe('AUTHORITY_LABELS', () => {
  it('names the badges of docs/product.md §6', () => {
    expect(AUTHORITY_LABELS).toEqual({
      ROLE_ADMIN: 'Administrator',
      ROLE_ORGANISATION_ADMIN: 'Organisation admin',
      ROLE_ORGANISATION_PROD_EDITOR: 'Production editor',
      ROLE_ORGANISATION_EDITOR: 'Non-Production editor',
      ROLE_ORGANISATION_READONLY_USER: 'Read-only user',
    });
  });
});

describe('primaryAuthority', () => {
  it('picks the most powerful known authority', () => {
    expect(primaryAuthority(['ROLE_ORGANISATION_EDITOR', 'ROLE_ORGANISATION_ADMIN'])).toBe(
      'ROLE_ORGANISATION_ADMIN',
    );
    expect(primaryAuthority(['ROLE_USER'])).toBeNull();
  });
});
