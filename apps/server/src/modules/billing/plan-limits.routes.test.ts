/**
 * Every plan limit of docs/product.md §9, enforced by the server: a creation passes while the count is
 * below the limit (or there is none) and is refused at and above it; the capabilities gate their
 * features; the monthly limits only warn and never stop evaluation.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { AUTHORITIES, type Feature, type NumericLimitKey, type Project, type Usage } from '@vexil/core';
import { createTeam, subscribe, type Team } from '../../../test/api';
import { createFeature } from '../../../test/features';
import { createHarness, type Harness } from '../../../test/helpers';
import { sdkFixture } from '../../../test/sdk';
import { AUDIT_NOT_ON_PLAN } from '../audit/audit.service';
import { EXPERIMENTS_NOT_ON_PLAN } from '../experiments/experiments.service';

let h: Harness;
let team: Team;

beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h.close();
});
beforeEach(async () => {
  // Payload rebuilds the last test's changes started finish before their tables are emptied.
  await h.app.sdk.store.settled();
  await h.database.reset();
  team = await createTeam(h);
});

let serial = 0;
const next = () => `n${++serial}`;

async function newProject(): Promise<Project> {
  const key = `p${++serial}`;
  const res = await team.admin.call('POST', '/api/v1/projects/', { name: `Project ${key}`, key });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<Project>();
}

async function newEnvironment(projectKey: string) {
  const key = next();
  return team.admin.call('POST', '/api/v1/environments/', {
    projectKey,
    name: `Env ${key}`,
    key,
    color: '#336699',
  });
}

type LimitCase = {
  key: NumericLimitKey;
  limit: number;
  message: string;
  /** Brings the organisation's count to `count` while no limit applies. */
  fill(count: number): Promise<void>;
  /** Creates one more. */
  create(): Promise<LightMyRequestResponse>;
  createdStatus: number;
};

/** The project of the environment and feature cases, made before the fill. */
let base: Project | null = null;

const CASES: LimitCase[] = [
  {
    key: 'maxProjects',
    limit: 3,
    message: 'Only 3 project(s) allowed.',
    async fill(count) {
      for (let i = 0; i < count; i++) await newProject();
    },
    create: () => team.admin.call('POST', '/api/v1/projects/', { name: 'One more', key: 'more' }),
    createdStatus: 201,
  },
  {
    key: 'maxEnvironments',
    limit: 4,
    message: 'Only 4 environment(s) allowed.',
    // Across projects: one project brings two.
    async fill(count) {
      base = await newProject();
      for (let i = 2; i < count; i++) expect((await newEnvironment(base.key)).statusCode).toBe(201);
    },
    create: () => newEnvironment(base!.key),
    createdStatus: 201,
  },
  {
    key: 'maxOrganisationUsers',
    limit: 6,
    message: 'Only 6 user(s) allowed.',
    // The team is 4 members; pending invitations take seats too.
    async fill(count) {
      for (let i = 4; i < count; i++) {
        const res = await team.admin.call('POST', '/api/v1/invites', [{ email: `${next()}@example.com` }]);
        expect(res.statusCode, res.body).toBe(201);
      }
    },
    create: () => team.admin.call('POST', '/api/v1/invites', [{ email: `${next()}@example.com` }]),
    createdStatus: 201,
  },
  {
    key: 'maxFeatures',
    limit: 2,
    message: 'Only 2 feature(s) allowed.',
    async fill(count) {
      base = await newProject();
      for (let i = 0; i < count; i++)
        await createFeature(team.admin.call, base.key, { name: next(), key: next() });
    },
    create: () =>
      team.admin.call('POST', `/api/v1/projects/${base!.key}/features`, { name: 'More', key: 'more' }),
    createdStatus: 201,
  },
];

const POSITIONS = [
  { where: 'below', offset: -1, passes: true },
  { where: 'at', offset: 0, passes: false },
  { where: 'above', offset: 1, passes: false },
] as const;

describe.each(CASES)('$key', (limitCase) => {
  it.each(POSITIONS)('$where the limit: passes $passes', async ({ offset, passes }) => {
    await limitCase.fill(limitCase.limit + offset);
    await subscribe(h, team.admin.organisationId, { [limitCase.key]: limitCase.limit });
    const res = await limitCase.create();
    if (passes) {
      expect(res.statusCode, res.body).toBe(limitCase.createdStatus);
    } else {
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ title: limitCase.message, code: 'limit_reached' });
    }
  });

  it('does not apply without a limit (null)', async () => {
    await limitCase.fill(limitCase.limit + 1);
    await subscribe(h, team.admin.organisationId, { [limitCase.key]: null });
    expect((await limitCase.create()).statusCode).toBe(limitCase.createdStatus);
  });
});

describe('limits outside the dashboard’s create calls', () => {
  it('counts a seat for a member single sign-on adds, refusing a newcomer at the limit', async () => {
    await subscribe(h, team.admin.organisationId, { maxOrganisationUsers: 5 });
    const join = (email: string) =>
      h.app.services.members.memberForSingleSignOn(
        team.admin.organisationId,
        {
          issuer: 'https://okta.example.com',
          subject: email,
          email,
          emailVerified: true,
          firstName: 'S',
          lastName: 'O',
          via: 'Okta',
        },
        AUTHORITIES.ROLE_ORGANISATION_EDITOR,
      );
    expect(await join('first@example.com')).toMatchObject({ userId: expect.any(String) });
    expect(await join('second@example.com')).toEqual({ refused: 'no-seat' });
    // An existing member still signs in at the limit.
    expect(await join('first@example.com')).toMatchObject({ userId: expect.any(String) });
    const usage = (await team.admin.call('GET', '/api/v1/billing/usage')).json<Usage>();
    expect(usage.seats).toBe(5);
  });

  it('lets an SDK create features only below maxFeatures; the rest come back refused and evaluation goes on', async () => {
    const fixture = await sdkFixture(team.admin.call);
    await subscribe(h, team.admin.organisationId, { maxFeatures: 2 });
    const register = (keys: string[]) =>
      h.app.inject({
        method: 'PUT',
        url: '/api/sdk/v1/register',
        headers: { authorization: `Bearer ${fixture.development.apiKey}` },
        payload: JSON.stringify(keys.map((key) => ({ key }))),
      });
    expect((await register(['checkout', 'second', 'third'])).statusCode).toBe(200);
    const listed = await team.admin.call('GET', '/api/v1/projects/web/features/second');
    expect(listed.statusCode).toBe(200);
    expect((await team.admin.call('GET', '/api/v1/projects/web/features/third')).statusCode).toBe(404);
    await h.app.sdk.store.settled();
    const poll = await h.app.inject({
      method: 'GET',
      url: '/api/sdk/v1/features',
      headers: { authorization: `Bearer ${fixture.development.apiKey}` },
    });
    expect(poll.statusCode).toBe(200);
    expect(Object.keys(poll.json()).sort()).toEqual(['checkout', 'second']);
  });
});

describe('capabilities', () => {
  it.each([
    { auditLog: false, status: 403 },
    { auditLog: true, status: 200 },
    { auditLog: undefined, status: 200 },
  ])('auditLog $auditLog: the audit log answers $status', async ({ auditLog, status }) => {
    await subscribe(h, team.admin.organisationId, auditLog === undefined ? {} : { auditLog });
    const res = await team.admin.call('GET', '/api/v1/audit-items');
    expect(res.statusCode).toBe(status);
    if (status === 403) expect(res.json()).toMatchObject({ title: AUDIT_NOT_ON_PLAN, code: 'plan_required' });
  });

  it.each([
    { variantTesting: false, status: 403 },
    { variantTesting: true, status: 201 },
    { variantTesting: undefined, status: 201 },
  ])(
    'variantTesting $variantTesting: creating an experiment answers $status',
    async ({ variantTesting, status }) => {
      const fixture = await sdkFixture(team.admin.call);
      await subscribe(h, team.admin.organisationId, variantTesting === undefined ? {} : { variantTesting });
      const res = await team.admin.call('POST', '/api/v1/experiments/', {
        projectKey: 'web',
        environmentKey: 'development',
        name: 'Checkout button',
        goalKey: 'purchase',
        featureId: fixture.checkout.id,
        control: 'off',
        variation: 'on',
      });
      expect(res.statusCode, res.body).toBe(status);
      if (status === 403)
        expect(res.json()).toMatchObject({ title: EXPERIMENTS_NOT_ON_PLAN, code: 'plan_required' });
    },
  );
});

describe('monthly limits (maxApplicationUniqueUsers, maxImpressions)', () => {
  it.each([
    { where: 'below', users: 1, impressions: 1, warned: [] },
    { where: 'at', users: 2, impressions: 2, warned: ['maxApplicationUniqueUsers', 'maxImpressions'] },
    { where: 'above', users: 3, impressions: 3, warned: ['maxApplicationUniqueUsers', 'maxImpressions'] },
  ])(
    '$where the limit: warns about $warned and never stops evaluation',
    async ({ users, impressions, warned }) => {
      const fixture = await sdkFixture(team.admin.call);
      await subscribe(h, team.admin.organisationId, { maxApplicationUniqueUsers: 2, maxImpressions: 2 });
      await h.app.sdk.store.settled();
      const key = fixture.development.apiKey;
      const events = Array.from({ length: impressions }, (_, i) => ({
        featureKey: 'checkout',
        evaluatedVariant: 'off',
        expectedVariant: 'off',
        user: `user-${Math.min(i, users - 1)}`,
      }));
      const sent = await h.app.inject({
        method: 'POST',
        url: '/api/sdk/v1/events',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        payload: JSON.stringify(events),
      });
      expect(sent.statusCode).toBe(200);
      await h.app.sdk.ingestion.flush();
      const usage = (await team.admin.call('GET', '/api/v1/billing/usage')).json<Usage>();
      expect(usage).toMatchObject({ applicationUniqueUsersUsed: users, impressionsUsed: impressions });
      expect(usage.warnings.map((w) => w.key)).toEqual(warned);
      // Past the limits, SDKs are answered as before.
      const poll = await h.app.inject({
        method: 'GET',
        url: '/api/sdk/v1/features',
        headers: { authorization: `Bearer ${key}` },
      });
      expect(poll.statusCode).toBe(200);
      expect(Object.keys(poll.json<Record<string, Feature>>())).toEqual(['checkout']);
      const more = await h.app.inject({
        method: 'POST',
        url: '/api/sdk/v1/events',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        payload: JSON.stringify(events),
      });
      expect(more.statusCode).toBe(200);
    },
  );
});
