import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  authenticateInput,
  findOrganisationInput,
  loginForm,
  passwordForm,
  resetPasswordFinishInput,
  resetPasswordInitInput,
  tokenLoginInput,
} from './auth';
import { changeSubscriptionInput } from './billing';
import { NUL_MESSAGE } from './common';
import { environmentInput } from './environments';
import { experimentInput } from './experiments';
import {
  conditionForm,
  createFeatureForm,
  featureControlInput,
  featureInput,
  linkFeatureForm,
  linkFeatureInput,
  variantInput,
} from './features';
import { jiraConnectInput } from './integrations';
import { projectInput } from './projects';
import { segmentForm, segmentInput } from './segments';
import {
  checkDomainInput,
  createAccountInput,
  inviteeSignupForm,
  inviteeSignupInput,
  registerEmailInput,
  signupForm,
  validatePinInput,
} from './signup';
import { targetForm, targetInput } from './targets';
import { roleInput } from './roles';
import { inviteForm, invitesInput, userUpdateInput } from './team';
import { tokenInput } from './tokens';

const ID = '3f0b7c1e-2a4d-4e8f-9b6a-1c2d3e4f5a6b';
const EMAIL = 'ada@example.com';
const variants = [
  { key: 'on', name: 'On', description: '' },
  { key: 'off', name: 'Off', description: '' },
];
const signup = {
  email: EMAIL,
  once: 'once-value',
  pin: '123456',
  firstName: 'Ada',
  lastName: 'Lovelace',
  organisationName: 'Acme',
  organisationDomain: 'acme',
  password: 'secret',
};

// One valid body or form per request schema; every string in it is then corrupted in turn.
const VALID: [string, z.ZodType, unknown][] = [
  ['loginForm', loginForm, { email: EMAIL, password: 'secret', rememberMe: true }],
  [
    'authenticateInput',
    authenticateInput,
    { username: EMAIL, password: 'secret', domain: 'acme', rememberMe: true },
  ],
  ['tokenLoginInput', tokenLoginInput, { token: 'one-time', domain: 'acme', rememberMe: false }],
  ['resetPasswordInitInput', resetPasswordInitInput, { email: EMAIL }],
  ['resetPasswordFinishInput', resetPasswordFinishInput, { key: 'reset-key', password: 'secret' }],
  ['findOrganisationInput', findOrganisationInput, { email: EMAIL }],
  ['passwordForm', passwordForm, { password: 'secret', confirmPassword: 'secret' }],
  ['projectInput', projectInput, { id: ID, name: 'Mobile', key: 'mob' }],
  [
    'environmentInput',
    environmentInput,
    {
      id: ID,
      projectKey: 'mob',
      name: 'Production',
      key: 'production',
      url: 'https://example.com',
      color: '#1273de',
      local: false,
      production: true,
      tags: ['eu'],
      cloneEnvironmentId: ID,
    },
  ],
  ['targetInput', targetInput, { key: 'tier', name: 'Tier', type: 'string' }],
  ['targetForm', targetForm, { key: 'tier', name: 'Tier', type: 'number' }],
  ['variantInput', variantInput, { key: 'on', name: 'On', description: 'Shown' }],
  [
    'featureInput',
    featureInput,
    {
      id: ID,
      name: 'Checkout',
      key: 'checkout',
      description: 'New checkout',
      permanent: false,
      variants,
      tags: ['payments'],
      jiraIssueKeys: ['ABC-1'],
      goals: ['purchase'],
      maintainerId: ID,
    },
  ],
  [
    'featureControlInput',
    featureControlInput,
    {
      id: ID,
      enabled: true,
      offVariantKey: 'off',
      rules: [
        {
          defaultRule: false,
          audience: { conditions: [{ target: 'tier', operator: 'equals', values: ['gold'] }] },
          variantSplits: [{ variantKey: 'on', split: 100 }],
        },
        { defaultRule: true, audience: null, variantSplits: [{ variantKey: 'off', split: 100 }] },
      ],
    },
  ],
  [
    'conditionForm',
    conditionForm,
    { target: 'tier', targetType: 'string', operator: 'in', values: ['gold'] },
  ],
  [
    'createFeatureForm',
    createFeatureForm,
    { projectKey: 'mob', name: 'Checkout', key: 'checkout', jiraIssueKey: 'ABC-1' },
  ],
  ['linkFeatureForm', linkFeatureForm, { projectKey: 'mob', featureId: ID, jiraIssueKey: 'ABC-1' }],
  ['linkFeatureInput', linkFeatureInput, { featureId: ID, jiraIssueKey: 'ABC-1' }],
  [
    'segmentInput',
    segmentInput,
    {
      id: ID,
      projectKey: 'mob',
      environmentKey: 'production',
      key: 'beta',
      name: 'Beta',
      description: 'Testers',
    },
  ],
  ['segmentForm', segmentForm, { segmentKey: 'beta', segmentName: 'Beta', segmentDescription: 'Testers' }],
  [
    'experimentInput',
    experimentInput,
    {
      id: ID,
      projectKey: 'mob',
      environmentKey: 'production',
      name: 'Checkout test',
      description: 'Which converts',
      goalKey: 'purchase',
      featureId: ID,
      control: 'off',
      variation: 'on',
      enabled: true,
    },
  ],
  [
    'userUpdateInput',
    userUpdateInput,
    { id: ID, firstName: 'Ada', lastName: 'Lovelace', authority: 'ROLE_ORGANISATION_EDITOR' },
  ],
  ['invitesInput', invitesInput, [{ email: EMAIL, firstName: 'Ada', lastName: 'Lovelace' }]],
  ['inviteForm', inviteForm, { invites: [{ email: EMAIL, firstName: 'Ada', lastName: 'Lovelace' }] }],
  ['roleInput', roleInput, { id: ID, name: 'Auditor', description: 'Reads the log' }],
  ['tokenInput', tokenInput, { name: 'CI' }],
  [
    'jiraConnectInput',
    jiraConnectInput,
    { token: 'jira-token', baseUrl: 'https://acme.atlassian.net', email: EMAIL, apiToken: 'api-token' },
  ],
  ['changeSubscriptionInput', changeSubscriptionInput, { subscriptionId: 'price_123' }],
  ['registerEmailInput', registerEmailInput, { email: EMAIL, beta: false }],
  ['validatePinInput', validatePinInput, { email: EMAIL, once: 'once-value', pin: '123456' }],
  ['checkDomainInput', checkDomainInput, { domain: 'acme' }],
  ['createAccountInput', createAccountInput, signup],
  ['signupForm', signupForm, { ...signup, confirmPassword: 'secret' }],
  [
    'inviteeSignupInput',
    inviteeSignupInput,
    { activationKey: 'activation', firstName: 'Ada', lastName: 'Lovelace', password: 'secret' },
  ],
  [
    'inviteeSignupForm',
    inviteeSignupForm,
    { firstName: 'Ada', lastName: 'Lovelace', password: 'secret', confirmPassword: 'secret' },
  ],
];

type Path = (string | number)[];

function stringLeaves(value: unknown, path: Path = []): Path[] {
  if (typeof value === 'string') return [path];
  if (Array.isArray(value)) return value.flatMap((item, index) => stringLeaves(item, [...path, index]));
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, item]) => stringLeaves(item, [...path, key]));
  }
  return [];
}

function replaceAt(value: unknown, path: Path, replace: (old: string) => string): unknown {
  const [head, ...rest] = path;
  if (head === undefined) return replace(value as string);
  if (Array.isArray(value))
    return value.map((item, index) => (index === head ? replaceAt(item, rest, replace) : item));
  const record = value as Record<string, unknown>;
  return { ...record, [head]: replaceAt(record[head], rest, replace) };
}

const cases = VALID.flatMap(([name, schema, valid]) =>
  stringLeaves(valid).map((path) => ({ name, schema, valid, path, field: path.join('.') })),
);

describe('every request schema', () => {
  it.each(VALID)('%s accepts its valid sample', (_name, schema, valid) => {
    expect(schema.safeParse(valid).error?.issues).toBeUndefined();
  });

  it.each(cases)('$name rejects a NUL byte in $field', ({ schema, valid, path, field }) => {
    const result = schema.safeParse(
      replaceAt(valid, path, (old) => `${old.slice(0, 1)}\u0000${old.slice(1)}`),
    );
    expect(result.success).toBe(false);
    const fields = result.error?.issues.map((issue) => issue.path.join('.'));
    expect(fields).toContain(field);
  });

  it.each(cases)('$name rejects an oversize $field', ({ schema, valid, path, field }) => {
    const result = schema.safeParse(replaceAt(valid, path, (old) => old.padEnd(5000, 'a')));
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.path.join('.'))).toContain(field);
  });

  it('says why a NUL byte is refused in free text', () => {
    const result = tokenInput.safeParse({ name: 'C\u0000I' });
    expect(result.error?.issues.map((issue) => issue.message)).toContain(NUL_MESSAGE);
  });

  it('strips unknown fields rather than passing them on', () => {
    const result = projectInput.parse({ name: 'Mobile', key: 'mob', organisationId: ID, admin: true });
    expect(result).toEqual({ name: 'Mobile', key: 'mob' });
  });
});
