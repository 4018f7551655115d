import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DENIAL_MESSAGES, denialOf, servedChangeDenial } from './denials';
import { ACTIONS, AUTHORITIES, AUTHORITY_NAMES, can, type Authority, type Resource } from './permissions';

const as = (authority: Authority) => ({ authorities: [authority] });
const production = { production: true };
const taggedProduction = { production: false, tags: ['production'] };
const development = { production: false };

const environmentArb = fc.record({
  production: fc.boolean(),
  tags: fc.array(fc.constantFrom('production', 'PRODUCTION', 'qa', 'eu'), { maxLength: 3 }),
});
const resourceArb: fc.Arbitrary<Resource> = fc.oneof(
  fc.constantFrom<Resource>(
    { type: 'organisation' },
    { type: 'project' },
    { type: 'environment' },
    { type: 'feature' },
    { type: 'target' },
    { type: 'audit' },
  ),
  environmentArb.chain((environment) =>
    fc.constantFrom<Resource>(
      { type: 'feature', environment },
      { type: 'featureControl', environment },
      { type: 'segment', environment },
      { type: 'experiment', environment },
      { type: 'targetUser', environment },
    ),
  ),
);
const principalArb = fc
  .array(fc.constantFrom(...AUTHORITY_NAMES, 'ROLE_UNKNOWN'), { maxLength: 3 })
  .map((authorities) => ({ authorities }));

describe('denialOf', () => {
  it('refuses exactly what can() refuses, always with a message', () => {
    fc.assert(
      fc.property(principalArb, fc.constantFrom(...ACTIONS), resourceArb, (principal, action, resource) => {
        const denial = denialOf(principal, action, resource);
        expect(denial === null).toBe(can(principal, action, resource));
        if (denial) expect(denial.message.length).toBeGreaterThan(0);
      }),
    );
  });

  it('says production rights are needed only to someone allowed the same outside production', () => {
    fc.assert(
      fc.property(principalArb, fc.constantFrom(...ACTIONS), resourceArb, (principal, action, resource) => {
        const denial = denialOf(principal, action, resource);
        if (denial?.code !== 'production_rights_required') return;
        // Deleting a feature takes a production editor wherever the feature is served: the refusal
        // is about production rights when the principal may change features otherwise.
        const elsewhere =
          resource.type === 'feature'
            ? can(principal, 'update', { type: 'feature' })
            : can(principal, action, { ...resource, environment: development } as Resource);
        expect(elsewhere).toBe(true);
      }),
    );
  });

  it.each([
    [AUTHORITIES.ROLE_ORGANISATION_PROD_EDITOR, null],
    [AUTHORITIES.ROLE_ORGANISATION_EDITOR, 'Only a production editor can delete a feature.'],
    [AUTHORITIES.ROLE_ORGANISATION_READONLY_USER, 'You do not have permission to delete this feature.'],
  ])('deleting a feature as %s → %s', (authority, message) => {
    expect(denialOf(as(authority), 'delete', { type: 'feature' })?.message ?? null).toBe(message);
  });

  it('tells an editor a production control needs a production editor, and a reader that they may not', () => {
    expect(
      denialOf(as(AUTHORITIES.ROLE_ORGANISATION_EDITOR), 'update', {
        type: 'featureControl',
        environment: production,
      }),
    ).toEqual({
      code: 'production_rights_required',
      message: DENIAL_MESSAGES.controlUpdateProduction,
    });
    expect(
      denialOf(as(AUTHORITIES.ROLE_ORGANISATION_READONLY_USER), 'update', {
        type: 'featureControl',
        environment: taggedProduction,
      }),
    ).toEqual({ code: 'forbidden', message: DENIAL_MESSAGES.controlUpdate });
  });

  it('names the segment action in its message', () => {
    expect(
      denialOf(as(AUTHORITIES.ROLE_ORGANISATION_EDITOR), 'delete', {
        type: 'segment',
        environment: production,
      })?.message,
    ).toBe('Only a production editor can delete segments in a production environment.');
    expect(
      denialOf(as(AUTHORITIES.ROLE_ORGANISATION_READONLY_USER), 'create', {
        type: 'segment',
        environment: development,
      })?.message,
    ).toBe('You do not have permission to create segments.');
  });

  it('keeps administration to organisation admins', () => {
    for (const type of ['project', 'environment'] as const) {
      expect(denialOf(as(AUTHORITIES.ROLE_ORGANISATION_PROD_EDITOR), 'create', { type })?.message).toBe(
        DENIAL_MESSAGES.administration,
      );
      expect(denialOf(as(AUTHORITIES.ROLE_ORGANISATION_ADMIN), 'create', { type })).toBeNull();
    }
  });
});

describe('servedChangeDenial', () => {
  it.each([
    [AUTHORITIES.ROLE_ADMIN, null],
    [AUTHORITIES.ROLE_ORGANISATION_ADMIN, null],
    [AUTHORITIES.ROLE_ORGANISATION_PROD_EDITOR, null],
    [AUTHORITIES.ROLE_ORGANISATION_EDITOR, DENIAL_MESSAGES.featureVariantsProduction],
    [AUTHORITIES.ROLE_ORGANISATION_READONLY_USER, DENIAL_MESSAGES.featureUpdate],
  ])('%s, in a project with a production environment → %s', (authority, message) => {
    expect(servedChangeDenial(as(authority), [development, production])?.message ?? null).toBe(message);
    expect(servedChangeDenial(as(authority), [development, taggedProduction])?.message ?? null).toBe(message);
  });

  it('lets a non-production editor change what a project without production environments serves', () => {
    expect(servedChangeDenial(as(AUTHORITIES.ROLE_ORGANISATION_EDITOR), [development])).toBeNull();
    expect(servedChangeDenial(as(AUTHORITIES.ROLE_ORGANISATION_EDITOR), [])).toBeNull();
    expect(servedChangeDenial(as(AUTHORITIES.ROLE_ORGANISATION_READONLY_USER), [development])?.message).toBe(
      DENIAL_MESSAGES.featureUpdate,
    );
  });
});
