import { describe, expect, it } from 'vitest';
import { UI_FLAGS, initialPayloadSchema, principalUserSchema, uiFlagsSchema } from './account';
import { ID, PROJECT, SUBSCRIPTION } from './test-samples';

const allFlags = (value: boolean) => Object.fromEntries(UI_FLAGS.map((flag) => [flag, value]));

describe('UI_FLAGS', () => {
  it('lists the 18 flags of docs/product.md §9 in order', () => {
    expect(UI_FLAGS).toEqual([
      'billing',
      'impressions-limits',
      'jira-integration',
      'roles-admin',
      'access-tokens',
      'integrations',
      'tags',
      'maintainer',
      'bookmarked',
      'experiments',
      'segments',
      'tutorial-tab',
      'traffic',
      'home',
      'home-projects',
      'profile',
      'app-login',
      'welcome-message',
    ]);
  });
});

describe('uiFlagsSchema', () => {
  it('requires every flag as a boolean', () => {
    expect(uiFlagsSchema.safeParse(allFlags(true)).success).toBe(true);
    const { billing: _billing, ...missing } = allFlags(true);
    expect(uiFlagsSchema.safeParse(missing).success).toBe(false);
    expect(uiFlagsSchema.safeParse({ ...allFlags(true), home: 'yes' }).success).toBe(false);
  });

  it('drops flags it does not know', () => {
    expect(uiFlagsSchema.parse({ ...allFlags(false), 'future-flag': true })).toEqual(allFlags(false));
  });
});

const principalUser = {
  id: ID,
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: 'ada@example.com',
  login: 'ada@example.com',
  userHash: 'hash',
  authorities: ['ROLE_ORGANISATION_ADMIN'],
  langKey: 'en',
  activatedDate: '2026-01-01T00:00:00.000Z',
  settings: { introReadDate: null },
};

describe('principalUserSchema', () => {
  it('accepts known authorities only', () => {
    expect(principalUserSchema.safeParse(principalUser).success).toBe(true);
    expect(principalUserSchema.safeParse({ ...principalUser, authorities: ['ROLE_GOD'] }).success).toBe(
      false,
    );
  });
});

describe('initialPayloadSchema', () => {
  const payload = {
    principalUser,
    organisation: { id: ID, name: 'Acme', domain: 'acme', settings: { jiraEnabled: false } },
    projects: [PROJECT],
    subscription: SUBSCRIPTION,
    flags: allFlags(true),
  };

  it('accepts the payload of GET /api/v1/initial', () => {
    const parsed = initialPayloadSchema.parse(payload);
    expect(parsed.principalUser).toEqual(payload.principalUser);
    expect(parsed.projects.map((p) => p.key)).toEqual(payload.projects.map((p) => p.key));
  });

  it('carries environments without their SDK keys', () => {
    const serialised = JSON.stringify(initialPayloadSchema.parse(payload));
    expect(serialised).not.toMatch(/sdk-(srv|js)-env-/);
    expect(serialised).not.toContain('"targets"');
  });

  it('allows no subscription when billing is off', () => {
    expect(initialPayloadSchema.safeParse({ ...payload, subscription: null }).success).toBe(true);
  });
});
