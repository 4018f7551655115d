import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  authenticateInput,
  authenticateResponse,
  findOrganisationInput,
  loginForm,
  passwordForm,
  passwordStrength,
  resetPasswordFinishInput,
  resetPasswordInitInput,
  tokenLoginInput,
} from './auth';
import { toFieldErrors } from './common';

function errors(result: { error?: { issues: Parameters<typeof toFieldErrors>[0] } }) {
  return result.error ? toFieldErrors(result.error.issues) : [];
}

describe('loginForm', () => {
  it('asks for an e-mail address and a password', () => {
    expect(errors(loginForm.safeParse({}))).toEqual([
      { field: 'email', message: 'Please provide an email address.' },
      { field: 'password', message: 'Please provide a password.' },
    ]);
    expect(errors(loginForm.safeParse({ email: '  ', password: '' }))).toEqual([
      { field: 'email', message: 'Please provide an email address.' },
      { field: 'password', message: 'Please provide a password.' },
    ]);
  });

  it('names the typed value when the e-mail is not valid', () => {
    expect(errors(loginForm.safeParse({ email: 'ada@', password: 'x' }))).toEqual([
      { field: 'email', message: 'ada@ is not a valid email.' },
    ]);
  });

  it('trims the e-mail and defaults rememberMe to false', () => {
    expect(loginForm.parse({ email: ' ada@example.com ', password: ' x ' })).toEqual({
      email: 'ada@example.com',
      password: ' x ',
      rememberMe: false,
    });
  });
});

describe('authenticateInput', () => {
  it('accepts a trimmed username of 1 to 254 characters and a password of 1 to 1024', () => {
    expect(authenticateInput.parse({ username: ' ada ', password: 'p' })).toEqual({
      username: 'ada',
      password: 'p',
    });
    expect(
      authenticateInput.safeParse({ username: 'a'.repeat(254), password: 'p'.repeat(1024) }).success,
    ).toBe(true);
    expect(authenticateInput.safeParse({ username: 'a'.repeat(255), password: 'p' }).success).toBe(false);
    expect(authenticateInput.safeParse({ username: 'ada', password: 'p'.repeat(1025) }).success).toBe(false);
    expect(authenticateInput.safeParse({ username: '   ', password: 'p' }).success).toBe(false);
    expect(authenticateInput.safeParse({ username: 'ada', password: '' }).success).toBe(false);
  });

  it('takes an optional domain and rememberMe', () => {
    const body = { username: 'ada', password: 'p', domain: 'acme', rememberMe: true };
    expect(authenticateInput.parse(body)).toEqual(body);
    expect(authenticateInput.safeParse({ ...body, rememberMe: 'yes' }).success).toBe(false);
  });
});

describe('tokenLoginInput', () => {
  it('needs a token of at most 512 characters', () => {
    expect(tokenLoginInput.safeParse({ token: 't' }).success).toBe(true);
    expect(tokenLoginInput.safeParse({ token: '' }).success).toBe(false);
    expect(tokenLoginInput.safeParse({ token: 't'.repeat(513) }).success).toBe(false);
  });
});

describe('authenticateResponse', () => {
  it('carries id_token', () => {
    expect(authenticateResponse.parse({ id_token: 'abc' })).toEqual({ id_token: 'abc' });
  });
});

describe('resetPasswordInitInput and findOrganisationInput', () => {
  it.each([
    ['resetPasswordInitInput', resetPasswordInitInput],
    ['findOrganisationInput', findOrganisationInput],
  ])('%s says "Must be a valid email address"', (_name, schema) => {
    for (const email of [undefined, '', 'nope']) {
      expect(errors(schema.safeParse({ email }))).toEqual([
        { field: 'email', message: 'Must be a valid email address' },
      ]);
    }
    expect(schema.safeParse({ email: 'ada@example.com' }).success).toBe(true);
  });
});

describe('resetPasswordFinishInput', () => {
  it('needs the key and a new password', () => {
    expect(resetPasswordFinishInput.safeParse({ key: 'k', password: 'abcd' }).success).toBe(true);
    expect(errors(resetPasswordFinishInput.safeParse({ key: 'k', password: 'abc' }))).toEqual([
      { field: 'password', message: 'Your password should be greater than 4 characters long' },
    ]);
  });
});

describe('passwordForm', () => {
  it('refuses a password shorter than 4 characters', () => {
    expect(errors(passwordForm.safeParse({ password: 'abc', confirmPassword: 'abc' }))).toContainEqual({
      field: 'password',
      message: 'Your password should be greater than 4 characters long',
    });
  });

  it('accepts 4 characters, the documented minimum', () => {
    expect(passwordForm.safeParse({ password: 'abcd', confirmPassword: 'abcd' }).success).toBe(true);
  });

  it('reports a mismatch on the confirmation', () => {
    expect(errors(passwordForm.safeParse({ password: 'abcde', confirmPassword: 'abcdf' }))).toEqual([
      { field: 'confirmPassword', message: 'The two passwords do not match.' },
    ]);
  });
});

describe('passwordStrength', () => {
  it.each([
    ['', 0],
    ['abc', 0],
    ['abcdefgh', 0],
    ['abcdEFGH', 0],
    ['abcdEF12', 1],
    ['abcdefghijklmno', 0],
    ['abcdefghijKLMNO', 1],
    ['abcdefghiJKLMN0!', 2],
    ['a'.repeat(25), 1],
    ['aB'.repeat(13), 2],
    ['aB3'.repeat(12), 4],
    ['a'.repeat(41), 3],
    ['aB3!'.repeat(11), 4],
  ])('rates %j as %d', (password, level) => {
    expect(passwordStrength(password)).toBe(level);
  });

  it('always gives a level from 0 to 4', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 80 }), (password) => {
        expect([0, 1, 2, 3, 4]).toContain(passwordStrength(password));
      }),
    );
  });

  it('never falls when a password grows by repeating itself', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 30 }), (password) => {
        expect(passwordStrength(password + password)).toBeGreaterThanOrEqual(passwordStrength(password));
      }),
    );
  });
});
