import type { AuditItem } from './audit';
import type { Subscription } from './billing';
import type { Environment } from './environments';
import type { Experiment } from './experiments';
import type { Feature, FeatureControl } from './features';
import type { Project } from './projects';
import type { User } from './team';

/*
 * Valid sample entities for tests (core's, and the server's and web's if they like). Typed with
 * `satisfies` so a schema change that breaks them fails the typecheck as well as the tests.
 */

/** A fixed UUID. */
export const ID = '3f0b7c1e-2a4d-4e8f-9b6a-1c2d3e4f5a6b';
/** A fixed timestamp. */
export const DATE = '2026-01-02T03:04:05.000Z';

/** A production environment. */
export const ENVIRONMENT = {
  id: ID,
  name: 'Production',
  key: 'production',
  url: '',
  color: '#1273de',
  local: false,
  production: true,
  isProduction: true,
  projectKey: 'mob',
  tags: [],
  sdkCanCreateFeatures: false,
  apiKey: `sdk-srv-env-${'0123456789abcdef'.repeat(2)}`,
  jsApiKey: `sdk-js-env-${'fedcba9876543210'.repeat(2)}`,
  lastModifiedDate: '2026-01-01T00:00:00.000Z',
} satisfies Environment;

/** A project with one environment and one target. */
export const PROJECT = {
  id: ID,
  name: 'Mobile',
  key: 'mob',
  url: '',
  tags: [],
  environments: [ENVIRONMENT],
  targets: [{ key: 'tier', name: 'Tier', type: 'string' }],
  lastModifiedDate: '2026-01-01T00:00:00.000Z',
} satisfies Project;

/** The control of docs/sdk-protocol.md §8's example. */
export const FEATURE_CONTROL = {
  id: ID,
  key: 'checkout',
  environmentKey: 'production',
  enabled: true,
  offVariantKey: 'off',
  rules: [
    {
      defaultRule: false,
      priority: 1,
      audience: { conditions: [{ target: 'tier', operator: 'equals', values: ['gold'] }] },
      variantSplits: [
        { variantKey: 'on', split: 100 },
        { variantKey: 'off', split: 0 },
      ],
    },
    {
      defaultRule: true,
      priority: 0,
      audience: null,
      variantSplits: [
        { variantKey: 'off', split: 50 },
        { variantKey: 'on', split: 50 },
      ],
    },
  ],
  available: true,
  trafficStatus: 'active',
  targetingStatus: 'targeted',
  staleDays: 0,
  rulesDescription: 'tier equals gold → on; else 50 % off, 50 % on',
  createdDate: DATE,
  lastModifiedDate: DATE,
  statistics: {
    lastImpressionDate: DATE,
    impressions: { today: 3 },
    variants: { on: { impressions: { today: 2 } }, off: { impressions: { today: 1 } } },
  },
} satisfies FeatureControl;

/** A feature with its production control. */
export const FEATURE = {
  id: ID,
  name: 'Checkout',
  key: 'checkout',
  description: 'New checkout',
  permanent: false,
  variants: [
    { key: 'on', name: 'On', description: '' },
    { key: 'off', name: 'Off', description: '' },
  ],
  tags: ['payments'],
  goals: ['purchase'],
  jiraIssues: [{ key: 'ABC-1', title: 'Build it', url: 'https://acme.atlassian.net/browse/ABC-1' }],
  jiraIssueKeys: ['ABC-1'],
  maintainer: { id: ID, name: 'Ada Lovelace', email: 'ada@example.com' },
  projectKey: 'mob',
  project: { key: 'mob', name: 'Mobile' },
  bookmarked: false,
  archived: false,
  controls: { production: FEATURE_CONTROL },
  createdDate: '2026-01-01T00:00:00.000Z',
  lastModifiedDate: '2026-01-02T00:00:00.000Z',
} satisfies Feature;

/** A running experiment. */
export const EXPERIMENT = {
  id: ID,
  name: 'Checkout test',
  description: '',
  enabled: true,
  goalKey: 'purchase',
  featureId: ID,
  featureKey: 'checkout',
  environmentId: ID,
  environmentKey: 'production',
  projectKey: 'mob',
  control: 'off',
  variation: 'on',
  startDate: DATE,
  endDate: null,
  archived: false,
  mode: 'fixed',
  results: { validResult: false, winningVariation: null },
  feature: { id: ID, key: 'checkout', name: 'Checkout' },
} satisfies Experiment;

/** An active member. */
export const USER = {
  id: ID,
  email: 'ada@example.com',
  firstName: 'Ada',
  lastName: 'Lovelace',
  fullName: 'Ada Lovelace',
  authority: 'ROLE_ORGANISATION_ADMIN',
  authorities: ['ROLE_ORGANISATION_ADMIN'],
  activated: true,
  hash: 'hash',
  settings: { introReadDate: null },
  login: 'ada@example.com',
  userHash: 'hash',
  langKey: 'en',
  activatedDate: DATE,
} satisfies User;

/** A subscription in trial on a paid plan. */
export const SUBSCRIPTION = {
  id: 'sub_123',
  status: 'active',
  quantity: 3,
  total: 4500,
  percentOff: null,
  amountOff: null,
  inTrial: true,
  daysUntilEndOfTrial: 12,
  price: {
    productName: 'Team',
    currency: 'usd',
    interval: 'month',
    intervalCount: 1,
    amount: 1500,
    unitLabel: 'seat',
  },
  limits: {
    maxOrganisationUsers: 10,
    auditLog: true,
    variantTesting: true,
    maxApplicationUniqueUsers: 10000,
    maxImpressions: null,
    maxProjects: 5,
    maxEnvironments: 10,
    maxFeatures: null,
  },
} satisfies Subscription;

/** An audit item. */
export const AUDIT_ITEM = {
  id: ID,
  title: 'Feature created',
  description: '**Ada** created `checkout`',
  createdDate: DATE,
} satisfies AuditItem;
