import { describe, expect, it } from 'vitest';
import { toFieldErrors } from './common';
import { TOKEN_EXPIRY_OPTIONS, tokenForm, tokenInput, tokenInputOf } from './tokens';

const errors = (result: { error?: { issues: Parameters<typeof toFieldErrors>[0] } }) =>
  result.error ? toFieldErrors(result.error.issues) : [];

describe('tokenInput', () => {
  it('trims the name and takes an optional lifetime in days or an expiry date', () => {
    expect(tokenInput.parse({ name: '  CI  ' })).toEqual({ name: 'CI' });
    expect(tokenInput.parse({ name: 'CI', expiresInDays: 90 })).toEqual({ name: 'CI', expiresInDays: 90 });
    const expiresAt = '2027-01-01T00:00:00.000Z';
    expect(tokenInput.parse({ name: 'CI', expiresAt })).toEqual({ name: 'CI', expiresAt });
  });

  it('refuses both a lifetime and a date, and lifetimes out of range', () => {
    expect(
      errors(tokenInput.safeParse({ name: 'CI', expiresInDays: 30, expiresAt: '2027-01-01T00:00:00Z' })),
    ).toEqual([{ field: 'expiresAt', message: 'Give either expiresInDays or expiresAt, not both.' }]);
    expect(errors(tokenInput.safeParse({ name: 'CI', expiresInDays: 0 }))).toEqual([
      { field: 'expiresInDays', message: 'Must be at least 1 day.' },
    ]);
    expect(errors(tokenInput.safeParse({ name: 'CI', expiresInDays: 3651 }))).toEqual([
      { field: 'expiresInDays', message: 'Must be at most 3650 days.' },
    ]);
    expect(errors(tokenInput.safeParse({ name: 'CI', expiresInDays: '30' }))).toEqual([
      { field: 'expiresInDays', message: 'Must be a whole number of days.' },
    ]);
  });
});

describe('tokenForm', () => {
  it('requires a name, as the New Token modal says', () => {
    expect(errors(tokenForm.safeParse({ name: '', expiry: 'never' }))).toEqual([
      { field: 'name', message: 'Name is required' },
    ]);
  });

  it('offers never, 30, 90 and 365 days, and turns the choice into the request body', () => {
    expect(TOKEN_EXPIRY_OPTIONS).toEqual(['never', '30', '90', '365']);
    expect(tokenInputOf({ name: 'CI', expiry: 'never' })).toEqual({ name: 'CI' });
    expect(tokenInputOf({ name: 'CI', expiry: '90' })).toEqual({ name: 'CI', expiresInDays: 90 });
    for (const expiry of TOKEN_EXPIRY_OPTIONS) {
      expect(tokenInput.safeParse(tokenInputOf({ name: 'CI', expiry })).success).toBe(true);
    }
  });
});
