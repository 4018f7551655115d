import { describe, expect, it } from 'vitest';
import { toFieldErrors } from './common';
import { authorityOptionSchema } from './roles';
import { invitationStatus, inviteForm, invitesInput, userSchema, userUpdateInput } from './team';
import { ID, USER } from './test-samples';

const errors = (result: { error?: { issues: Parameters<typeof toFieldErrors>[0] } }) =>
  result.error ? toFieldErrors(result.error.issues) : [];

describe('inviteForm', () => {
  it('requires a valid e-mail on each row ("Required", "Email must be valid")', () => {
    expect(errors(inviteForm.safeParse({ invites: [{ email: '' }, { email: 'nope' }] }))).toEqual([
      { field: 'invites.0.email', message: 'Required' },
      { field: 'invites.1.email', message: 'Email must be valid' },
    ]);
  });

  it('leaves names optional', () => {
    expect(inviteForm.parse({ invites: [{ email: 'ada@example.com' }] })).toEqual({
      invites: [{ email: 'ada@example.com', firstName: '', lastName: '' }],
    });
  });

  it('keeps at least one row', () => {
    expect(inviteForm.safeParse({ invites: [] }).success).toBe(false);
    expect(invitesInput.safeParse([]).success).toBe(false);
  });
});

describe('userUpdateInput', () => {
  it('requires first and last names and a role', () => {
    expect(errors(userUpdateInput.safeParse({ id: ID }))).toEqual([
      { field: 'firstName', message: 'First name is required' },
      { field: 'lastName', message: 'Last name is required' },
      { field: 'authority', message: 'Role is required' },
    ]);
  });

  it('never grants ROLE_ADMIN', () => {
    const body = { id: ID, firstName: 'Ada', lastName: 'Lovelace' };
    expect(userUpdateInput.safeParse({ ...body, authority: 'ROLE_ADMIN' }).success).toBe(false);
    expect(userUpdateInput.safeParse({ ...body, authority: 'ROLE_ORGANISATION_READONLY_USER' }).success).toBe(
      true,
    );
  });

  it('does not let the e-mail through', () => {
    const parsed = userUpdateInput.parse({
      id: ID,
      firstName: 'Ada',
      lastName: 'Lovelace',
      authority: 'ROLE_ORGANISATION_EDITOR',
      email: 'eve@example.com',
    });
    expect(parsed).not.toHaveProperty('email');
  });
});

describe('userSchema', () => {
  it('accepts a member', () => {
    expect(userSchema.parse(USER)).toEqual(USER);
  });
});

describe('invitationStatus', () => {
  it('is "Invitation Pending" until activated, then "Active"', () => {
    expect(invitationStatus({ activated: false })).toBe('Invitation Pending');
    expect(invitationStatus({ activated: true })).toBe('Active');
  });
});

describe('authorityOptionSchema', () => {
  it('names a known authority', () => {
    expect(
      authorityOptionSchema.safeParse({ name: 'ROLE_ORGANISATION_EDITOR', description: 'Edits' }).success,
    ).toBe(true);
    expect(authorityOptionSchema.safeParse({ name: 'ROLE_X', description: 'x' }).success).toBe(false);
  });
});
