import { describe, expect, it } from 'vitest';
import { auditPageSchema, auditQuery } from './audit';
import {
  billingContactInput,
  billingInfoSchema,
  localSubscribeInput,
  productSchema,
  subscriptionSchema,
  usageSchema,
} from './billing';
import { toFieldErrors } from './common';
import { integrationSchema } from './integrations';
import { AUDIT_ITEM, ID, SUBSCRIPTION } from './test-samples';
import { tokenInput, tokenSchema } from './tokens';

const errors = (result: { error?: { issues: Parameters<typeof toFieldErrors>[0] } }) =>
  result.error ? toFieldErrors(result.error.issues) : [];

describe('tokenInput', () => {
  it('requires a name', () => {
    expect(errors(tokenInput.safeParse({ name: ' ' }))).toEqual([
      { field: 'name', message: 'Name is required' },
    ]);
  });

  it('describes a token as id, name and key, with its dates', () => {
    const token = {
      id: ID,
      name: 'CI',
      key: 'vxp_…abcd',
      createdDate: '2026-01-01T00:00:00.000Z',
      expiresDate: null,
      lastUsedDate: null,
    };
    expect(tokenSchema.parse(token)).toEqual(token);
  });
});

describe('integrationSchema', () => {
  it('tells a chat integration from an issue-tracker one by type', () => {
    const slack = {
      id: ID,
      type: 'slack',
      member: { name: 'Ada' },
      configuration: { incomingWebhook: { channel: '#flags' } },
      filters: { projectKeys: [], environmentKeys: [], events: [] },
      createdDate: '2026-11-24T10:00:00.000Z',
    };
    const jira = {
      id: ID,
      type: 'jira',
      member: { name: 'Ada' },
      configuration: { baseUrl: 'https://acme.atlassian.net' },
      createdDate: '2026-11-24T10:00:00.000Z',
    };
    expect(integrationSchema.parse(slack)).toEqual(slack);
    expect(integrationSchema.parse(jira)).toEqual(jira);
    expect(integrationSchema.safeParse({ ...jira, type: 'slack' }).success).toBe(false);
  });
});

describe('auditQuery and auditPageSchema', () => {
  it('pages by 50 from page 0', () => {
    expect(auditQuery.parse({})).toEqual({ page: 0, pageSize: 50 });
    expect(auditQuery.parse({ page: '3', projectKey: 'mob' })).toEqual({
      page: 3,
      pageSize: 50,
      projectKey: 'mob',
    });
    expect(auditQuery.safeParse({ pageSize: '51' }).success).toBe(false);
  });

  it('returns content and last', () => {
    const page = { content: [AUDIT_ITEM], last: true, page: 0, pageSize: 50 };
    expect(auditPageSchema.parse(page)).toEqual(page);
  });
});

describe('billing schemas', () => {
  it('accept a subscription, usage, billing info and a product', () => {
    expect(subscriptionSchema.parse(SUBSCRIPTION)).toEqual(SUBSCRIPTION);
    const usage = {
      seats: 2,
      projectsUsed: 1,
      environmentsUsed: 2,
      featuresUsed: 10,
      applicationUniqueUsersUsed: 100,
      impressionsUsed: 1000,
      periodStart: '2026-11-01T00:00:00.000Z',
      periodEnd: '2026-12-01T00:00:00.000Z',
      warnings: [
        {
          key: 'maxImpressions',
          used: 1000,
          limit: 1000,
          message:
            '1,000 impressions this month: your plan includes 1,000. Features keep evaluating; upgrade your plan to stay within it.',
        },
      ],
    };
    expect(usageSchema.parse(usage)).toEqual(usage);
    const info = {
      lastFour: '4242',
      brand: 'visa',
      customer: { email: 'billing@acme.test', name: 'Acme', phone: null },
    };
    expect(billingInfoSchema.parse(info)).toEqual(info);
    const product = {
      id: 'prod_1',
      name: 'Team',
      features: ['Audit log'],
      prices: {
        month: { id: 'price_m', amount: 1500, currency: 'usd', interval: 'month' },
        year: { id: 'price_y', amount: 15000, currency: 'usd', interval: 'year' },
      },
    };
    expect(productSchema.parse(product)).toEqual(product);
  });

  it('treats a null limit as unlimited and refuses negative ones', () => {
    const limits = { ...SUBSCRIPTION.limits, maxProjects: null };
    expect(subscriptionSchema.safeParse({ ...SUBSCRIPTION, limits }).success).toBe(true);
    expect(
      subscriptionSchema.safeParse({ ...SUBSCRIPTION, limits: { ...limits, maxProjects: -1 } }).success,
    ).toBe(false);
  });
});

describe('local billing inputs', () => {
  it('takes a price and optional whole seats', () => {
    expect(localSubscribeInput.parse({ priceId: ' local-team-month ' })).toEqual({
      priceId: 'local-team-month',
    });
    expect(errors(localSubscribeInput.safeParse({ priceId: '', seats: 1.5 }))).toEqual([
      { field: 'priceId', message: 'Plan is required' },
      { field: 'seats', message: 'Seats must be a whole number.' },
    ]);
  });

  it('takes a billing contact whose blank fields clear it', () => {
    expect(billingContactInput.parse({})).toEqual({ email: '', name: '', phone: '' });
    expect(billingContactInput.parse({ email: ' a@b.co ', name: 'A', phone: '1' })).toEqual({
      email: 'a@b.co',
      name: 'A',
      phone: '1',
    });
    expect(errors(billingContactInput.safeParse({ email: 'nope' }))).toEqual([
      { field: 'email', message: 'Email must be valid' },
    ]);
  });
});
