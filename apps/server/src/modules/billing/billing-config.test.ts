import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config';

function plansFile(content: unknown): string {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'vexil-plans-')), 'plans.json');
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
}

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems;
  }
  throw new Error('the configuration was accepted');
}

describe('billing configuration', () => {
  it('defaults to the local provider, a 14-day trial, the Free plan and a Team plan', () => {
    const { billing } = loadConfig({});
    expect(billing).toMatchObject({ provider: 'local', trialDays: 14, stripe: null });
    expect(billing.catalogue.free).toEqual({
      name: 'Free',
      limits: {
        maxOrganisationUsers: 1,
        auditLog: false,
        variantTesting: false,
        maxApplicationUniqueUsers: null,
        maxImpressions: null,
        maxProjects: 1,
        maxEnvironments: 2,
        maxFeatures: null,
      },
    });
    expect(billing.catalogue.plans.map((p) => p.id)).toEqual(['local-team']);
    expect(billing.catalogue.trialPlan.prices).toEqual({
      month: { id: 'local-team-month', amount: 2000 },
      year: { id: 'local-team-year', amount: 19200 },
    });
  });

  it('reads the plans, the Free plan’s limits and the trial’s plan from BILLING_PLANS_FILE', () => {
    const { billing } = loadConfig({
      BILLING_TRIAL_DAYS: '30',
      BILLING_PLANS_FILE: plansFile({
        currency: 'GBP',
        free: { name: 'Hobby', limits: { maxProjects: 2 } },
        trialProductId: 'business',
        products: [
          { id: 'starter', name: 'Starter', prices: { month: 500 } },
          {
            id: 'business',
            name: 'Business',
            features: ['SSO'],
            limits: { maxProjects: 50, auditLog: true },
            prices: { year: 90000 },
          },
        ],
      }),
    });
    expect(billing.trialDays).toBe(30);
    expect(billing.catalogue.currency).toBe('gbp');
    // Unset Free limits keep the built-in Free plan's.
    expect(billing.catalogue.free).toMatchObject({
      name: 'Hobby',
      limits: { maxProjects: 2, maxOrganisationUsers: 1, auditLog: false },
    });
    expect(billing.catalogue.trialPlan).toMatchObject({
      id: 'local-business',
      // Unset paid-plan limits are unlimited, capabilities included.
      limits: { maxProjects: 50, maxEnvironments: null, auditLog: true, variantTesting: true },
      prices: { year: { id: 'local-business-year', amount: 90000 } },
    });
  });

  it('stops the start with every problem of the plans file named', () => {
    expect(problemsOf({ BILLING_PLANS_FILE: '/nonexistent/plans.json' })).toEqual([
      'BILLING_PLANS_FILE: cannot read /nonexistent/plans.json (ENOENT)',
    ]);
    expect(problemsOf({ BILLING_PLANS_FILE: plansFile('{ not json') })[0]).toMatch(
      /^BILLING_PLANS_FILE: .* is not JSON/,
    );
    const problems = problemsOf({
      PORT: 'eighty',
      BILLING_PLANS_FILE: plansFile({
        trialProductId: 'gold',
        products: [
          { id: 'Team!', name: '', prices: {} },
          { id: 'free', name: 'Free again', prices: { month: 1.5 } },
          { id: 'pro', name: 'Pro', limits: { maxProjects: -1, unknown: 1 }, prices: { month: 100 } },
          { id: 'pro', name: 'Pro', prices: { month: 100 } },
        ],
      }),
    });
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^PORT: /),
        'BILLING_PLANS_FILE: products.0.id: must be 1 to 40 lowercase letters, digits and hyphens',
        'BILLING_PLANS_FILE: products.0.name: is required',
        'BILLING_PLANS_FILE: products.0.prices: needs a month or a year price',
        'BILLING_PLANS_FILE: products.1.id: "free" is the Free plan\'s id',
        'BILLING_PLANS_FILE: products.1.prices.month: must be a whole number of cents',
        'BILLING_PLANS_FILE: products.2.limits.maxProjects: must be 0 or more',
        expect.stringMatching(/^BILLING_PLANS_FILE: products\.2\.limits: .*unknown/i),
        'BILLING_PLANS_FILE: products.3.id: "pro" is listed twice',
        'BILLING_PLANS_FILE: trialProductId: names no product (products: Team!, free, pro, pro)',
      ]),
    );
    expect(problemsOf({ BILLING_PLANS_FILE: plansFile({ products: [] }) })).toEqual([
      'BILLING_PLANS_FILE: products: needs at least one paid plan',
    ]);
  });

  it('checks the trial length and the provider', () => {
    expect(problemsOf({ BILLING_TRIAL_DAYS: 'two weeks', BILLING_PROVIDER: 'paypal' })).toEqual([
      'BILLING_PROVIDER: must be local or stripe',
      'BILLING_TRIAL_DAYS: must be a number of days',
    ]);
    expect(problemsOf({ BILLING_TRIAL_DAYS: '-1' })).toEqual([
      'BILLING_TRIAL_DAYS: must be 0 (no trial) or more',
    ]);
    expect(loadConfig({ BILLING_TRIAL_DAYS: '0' }).billing.trialDays).toBe(0);
  });

  it('needs Stripe’s keys with BILLING_PROVIDER=stripe, and checks their shape', () => {
    expect(problemsOf({ BILLING_PROVIDER: 'stripe' })).toEqual([
      'STRIPE_SECRET_KEY: is required when BILLING_PROVIDER=stripe',
      'STRIPE_WEBHOOK_SECRET: is required when BILLING_PROVIDER=stripe',
    ]);
    expect(
      problemsOf({
        BILLING_PROVIDER: 'stripe',
        STRIPE_SECRET_KEY: 'pk_test_123',
        STRIPE_WEBHOOK_SECRET: 'secret',
        STRIPE_API_URL: 'localhost',
      }),
    ).toEqual([
      expect.stringMatching(/^STRIPE_SECRET_KEY: must be a Stripe secret or restricted key/),
      expect.stringMatching(/^STRIPE_WEBHOOK_SECRET: must be a Stripe webhook signing secret/),
      expect.stringMatching(/^STRIPE_API_URL: must be an absolute URL/),
    ]);
    expect(
      loadConfig({
        BILLING_PROVIDER: 'stripe',
        STRIPE_SECRET_KEY: 'sk_test_abc123',
        STRIPE_WEBHOOK_SECRET: 'whsec_abc123',
        STRIPE_API_URL: 'http://127.0.0.1:12111',
      }).billing,
    ).toMatchObject({
      provider: 'stripe',
      stripe: {
        secretKey: 'sk_test_abc123',
        webhookSecret: 'whsec_abc123',
        apiUrl: 'http://127.0.0.1:12111',
      },
    });
  });

  it('reads BILLING_SALES_CONTACT as the Contact us link, unset by default', () => {
    expect(loadConfig({}).billing.salesContact).toBeNull();
    expect(loadConfig({ BILLING_SALES_CONTACT: 'sales@acme.example' }).billing.salesContact).toBe(
      'mailto:sales@acme.example?subject=Vexil%20plans',
    );
    expect(loadConfig({ BILLING_SALES_CONTACT: 'mailto:plans@acme.example' }).billing.salesContact).toBe(
      'mailto:plans@acme.example',
    );
    expect(
      loadConfig({ BILLING_SALES_CONTACT: 'https://acme.example/contact?topic=plans' }).billing.salesContact,
    ).toBe('https://acme.example/contact?topic=plans');
    for (const bad of ['sales', 'javascript:alert(1)', 'ftp://acme.example/', 'mailto:nobody'])
      expect(problemsOf({ BILLING_SALES_CONTACT: bad })).toEqual([
        'BILLING_SALES_CONTACT: must be an e-mail address, a mailto: address or an http(s):// address',
      ]);
  });
});
