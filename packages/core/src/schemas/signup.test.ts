import { describe, expect, it } from 'vitest';
import { toFieldErrors } from './common';
import {
  checkDomainInput,
  createAccountInput,
  isReservedOrganisationDomain,
  domainSuggestions,
  inviteeSignupForm,
  inviteeSignupInput,
  organisationLoginLink,
  resetPasswordLink,
  resetPasswordRequestInput,
  signupForm,
  signupNameForm,
  signupOrganisationForm,
  validatePinInput,
} from './signup';

const errors = (result: { error?: { issues: Parameters<typeof toFieldErrors>[0] } }) =>
  result.error ? toFieldErrors(result.error.issues) : [];

describe('validatePinInput', () => {
  it.each(['12345', '1234567', '12a456', ''])('refuses the pin %j', (pin) => {
    expect(errors(validatePinInput.safeParse({ email: 'ada@example.com', once: 'o', pin }))).toEqual([
      { field: 'pin', message: 'The pin you have entered is invalid.' },
    ]);
  });

  it('accepts 6 digits', () => {
    expect(validatePinInput.safeParse({ email: 'ada@example.com', once: 'o', pin: '012345' }).success).toBe(
      true,
    );
  });
});

describe('signupOrganisationForm', () => {
  it('requires the organisation name', () => {
    expect(errors(signupOrganisationForm.safeParse({ organisationDomain: 'acme' }))).toEqual([
      { field: 'organisationName', message: 'The Organisation name is required' },
    ]);
  });

  it('normalises the domain and needs at least 4 characters', () => {
    expect(
      signupOrganisationForm.parse({ organisationName: 'Acme', organisationDomain: 'Acme Corp' }),
    ).toEqual({
      organisationName: 'Acme',
      organisationDomain: 'acme-corp',
    });
    expect(errors(checkDomainInput.safeParse({ domain: 'a-b' }))).toEqual([
      { field: 'domain', message: 'The domain must be at least 4 characters long.' },
    ]);
    expect(errors(checkDomainInput.safeParse({ domain: '' }))).toEqual([
      { field: 'domain', message: 'The domain is required' },
    ]);
  });
});

describe('signupNameForm', () => {
  it('requires both names', () => {
    expect(errors(signupNameForm.safeParse({}))).toEqual([
      { field: 'firstName', message: 'First name is required' },
      { field: 'lastName', message: 'Last name is required' },
    ]);
  });
});

describe('signupForm', () => {
  const form = {
    email: 'ada@example.com',
    once: 'o',
    pin: '123456',
    firstName: 'Ada',
    lastName: 'Lovelace',
    organisationName: 'Acme',
    organisationDomain: 'acme',
    password: 'secret',
    confirmPassword: 'secret',
  };

  it('accepts a completed wizard', () => {
    expect(signupForm.parse(form)).toEqual(form);
  });

  it('checks the password and its confirmation', () => {
    expect(errors(signupForm.safeParse({ ...form, confirmPassword: 'other' }))).toEqual([
      { field: 'confirmPassword', message: 'The two passwords do not match.' },
    ]);
    expect(errors(signupForm.safeParse({ ...form, password: 'abc', confirmPassword: 'abc' }))).toEqual([
      { field: 'password', message: 'Your password should be greater than 4 characters long' },
    ]);
  });
});

describe('inviteeSignupForm', () => {
  it('requires first and last names', () => {
    expect(errors(inviteeSignupForm.safeParse({ password: 'secret', confirmPassword: 'secret' }))).toEqual([
      { field: 'firstName', message: 'First name is required' },
      { field: 'lastName', message: 'Last name is required' },
    ]);
  });
});

describe('domainSuggestions', () => {
  it('suffixes -global, -group and -company', () => {
    expect(domainSuggestions('acme')).toEqual(['acme-global', 'acme-group', 'acme-company']);
  });

  it('stays a valid domain for a long name', () => {
    for (const suggestion of domainSuggestions('a'.repeat(63))) {
      expect(checkDomainInput.safeParse({ domain: suggestion }).data?.domain).toBe(suggestion);
    }
  });
});

describe('inviteeSignupInput', () => {
  it('needs the key, both names and a password of at least 4 characters', () => {
    expect(errors(inviteeSignupInput.safeParse({ password: 'abc' }))).toEqual([
      { field: 'activationKey', message: 'Activation key is required' },
      { field: 'firstName', message: 'First name is required' },
      { field: 'lastName', message: 'Last name is required' },
      { field: 'password', message: 'Your password should be greater than 4 characters long' },
    ]);
    expect(
      inviteeSignupInput.parse({
        activationKey: 'vxi_k',
        firstName: ' Ada ',
        lastName: 'L',
        password: ' pw  ',
      }),
    ).toEqual({ activationKey: 'vxi_k', firstName: 'Ada', lastName: 'L', password: ' pw  ' });
  });

  it('refuses a password mismatch in the form', () => {
    expect(
      errors(
        inviteeSignupForm.safeParse({
          firstName: 'Ada',
          lastName: 'L',
          password: 'secret',
          confirmPassword: 'secreT',
        }),
      ),
    ).toEqual([{ field: 'confirmPassword', message: 'The two passwords do not match.' }]);
  });
});

describe('resetPasswordRequestInput', () => {
  it('takes the e-mail and, optionally, the organisation domain', () => {
    expect(resetPasswordRequestInput.parse({ email: 'ada@example.com' })).toEqual({
      email: 'ada@example.com',
    });
    expect(resetPasswordRequestInput.parse({ email: 'ada@example.com', domain: 'acme' })).toEqual({
      email: 'ada@example.com',
      domain: 'acme',
    });
    expect(errors(resetPasswordRequestInput.safeParse({ email: 'nope' }))).toEqual([
      { field: 'email', message: 'Must be a valid email address' },
    ]);
  });
});

describe('links', () => {
  it('builds the reset link with the key in the query', () => {
    expect(resetPasswordLink('https://flags.example.com/', 'vxr_a+b/c')).toBe(
      'https://flags.example.com/resetpassword?key=vxr_a%2Bb%2Fc',
    );
  });

  it('builds an organisation sign-in address in the path form', () => {
    expect(organisationLoginLink('http://localhost:3000//', 'acme')).toBe('http://localhost:3000/acme/login');
  });
});

describe('reserved organisation domains', () => {
  it('refuses the product’s own names in any spelling, and nothing else', () => {
    expect(isReservedOrganisationDomain('admin')).toBe(true);
    expect(isReservedOrganisationDomain(' Sign Up ')).toBe(true);
    expect(isReservedOrganisationDomain('acme')).toBe(false);
    expect(isReservedOrganisationDomain('admin-global')).toBe(false);
  });
});

describe('createAccountInput', () => {
  const body = {
    email: 'ada@example.com',
    once: 'o',
    pin: '123456',
    firstName: 'Ada',
    lastName: 'Lovelace',
    organisationName: 'Engines',
    organisationDomain: 'Analytical Engines',
    password: 'secret!',
  };

  it('normalises the domain, and accepts a body without the confirmation', () => {
    expect(createAccountInput.parse(body).organisationDomain).toBe('analytical-engines');
  });

  it('refuses a confirmation that differs', () => {
    expect(errors(createAccountInput.safeParse({ ...body, confirmPassword: 'other' }))).toEqual([
      { field: 'confirmPassword', message: 'The two passwords do not match.' },
    ]);
    expect(createAccountInput.safeParse({ ...body, confirmPassword: 'secret!' }).success).toBe(true);
  });
});
