import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import type { Environment, Feature, Grant, Project, Role } from '@vexil/core';
import { personalAccessTokens } from '../../db/schema/index';
import { accessTokenDisplayParts, hashToken, newAccessToken } from '../../lib/tokens';
import { callerFor, createTeam, type Caller, type Team } from '../../../test/api';
import { createFeature } from '../../../test/features';
import { createHarness, type Harness } from '../../../test/helpers';

/*
 * The role matrix of custom roles (docs/product.md §6): a read-only member is given one role at a
 * time, and each write route is tried in projects A (`web`) and B (`mob`) and in environments that
 * are production or not, tagged `eu` or not. What the server answers must match the declared table,
 * through the member's session and through their personal access token alike, with 0 mismatches.
 */

let h: Harness;
let team: Team;
const projects: Record<'A' | 'B', Project> = {} as never;
const features: Record<'A' | 'B', Feature> = {} as never;

const ROLES = '/api/v1/roles';
const PRODUCTION_ONLY = 'Only a production editor can change a feature in a production environment.';
const NOT_ALLOWED = 'You do not have permission to change this feature.';
const VARIANTS_PRODUCTION_ONLY =
  'Only a production editor can change the variants of a feature that a production environment serves.';

beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h.close();
});

async function ok<T>(call: Caller, method: 'POST' | 'PUT', url: string, body: unknown): Promise<T> {
  const res = await call(method, url, body);
  expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
  return res.json<T>();
}

beforeEach(async () => {
  await h.database.reset();
  team = await createTeam(h);
  const admin = team.admin.call;
  for (const [name, key, project] of [
    ['Web shop', 'web', 'A'],
    ['Mobile', 'mob', 'B'],
  ] as const) {
    await ok(admin, 'POST', '/api/v1/projects/', { name, key });
    // A production environment tagged eu in A, a non-production one tagged eu in B.
    await ok<Environment>(admin, 'POST', '/api/v1/environments/', {
      projectKey: key,
      name: 'EU',
      key: 'eu',
      production: project === 'A',
      tags: ['EU'],
    });
    projects[project] = (await admin('GET', `/api/v1/projects/${key}`)).json<Project>();
    features[project] = await createFeature(admin, key, { name: 'Checkout', key: 'checkout' });
  }
});

type Where = 'A' | 'B';

/** One write, as a member may try it: the status it gets and the refusal's title. */
type Attempt = (call: Caller) => Promise<{ status: number; title?: string }>;

const answer = async (res: Awaited<ReturnType<Caller>>) => ({
  status: res.statusCode,
  title: res.statusCode >= 400 ? res.json<{ title: string }>().title : undefined,
});

const unique = () => randomBytes(4).toString('hex');
const keyOf = (where: Where) => (where === 'A' ? 'web' : 'mob');

/** The write routes of the matrix, named as the table names them. */
const ATTEMPTS: Record<string, Attempt> = {};
for (const where of ['A', 'B'] as const) {
  for (const env of ['development', 'production', 'eu'] as const) {
    ATTEMPTS[`toggle ${where}/${env}`] = async (call) =>
      answer(
        await call('PUT', `/api/v1/feature-controls/${features[where].controls[env]!.id}/enabled`, {
          enabled: true,
        }),
      );
    ATTEMPTS[`create segment ${where}/${env}`] = async (call) =>
      answer(
        await call('POST', '/api/v2/segments/', {
          projectKey: keyOf(where),
          environmentKey: env,
          key: `s-${unique()}`,
          name: 'Segment',
        }),
      );
  }
  ATTEMPTS[`create feature ${where}`] = async (call) =>
    answer(
      await call('POST', `/api/v1/projects/${keyOf(where)}/features`, { name: 'F', key: `f-${unique()}` }),
    );
  ATTEMPTS[`rename feature ${where}`] = async (call) => {
    const feature = (
      await team.admin.call('GET', `/api/v1/projects/${keyOf(where)}/features/checkout`)
    ).json<Feature>();
    return answer(
      await call('PUT', `/api/v1/projects/${keyOf(where)}/features`, {
        id: feature.id,
        name: `Checkout ${unique()}`,
        key: feature.key,
        variants: feature.variants,
      }),
    );
  };
  ATTEMPTS[`rename variant ${where}`] = async (call) => {
    const feature = (
      await team.admin.call('GET', `/api/v1/projects/${keyOf(where)}/features/checkout`)
    ).json<Feature>();
    return answer(
      await call('PUT', `/api/v1/projects/${keyOf(where)}/features`, {
        id: feature.id,
        name: feature.name,
        key: feature.key,
        variants: feature.variants.map((v) => ({ ...v, name: `${v.name} ${unique()}` })),
      }),
    );
  };
  ATTEMPTS[`delete feature ${where}`] = async (call) => {
    // A feature of its own each time, so that every attempt finds one to delete.
    const doomed = await createFeature(team.admin.call, keyOf(where), {
      name: 'Doomed',
      key: `d-${unique()}`,
    });
    return answer(await call('DELETE', `/api/v1/project/${keyOf(where)}/features/${doomed.id}/`));
  };
  ATTEMPTS[`create target ${where}`] = async (call) =>
    answer(
      await call('POST', `/api/v1/projects/${keyOf(where)}/targets`, {
        key: `t${unique()}`,
        name: 'Tier',
        type: 'string',
      }),
    );
}

type GrantSpec = Omit<Grant, 'projects'> & { projects: Where[] | null };

/**
 * The declared table: each role's single grant and every attempt it allows (the status of success);
 * every attempt not listed must be refused with 403. Titles are checked where listed.
 */
const TABLE: {
  role: string;
  grant: GrantSpec;
  allows: Record<string, number>;
  refusals?: Record<string, string>;
}[] = [
  {
    role: 'no custom role',
    grant: { actions: [], resources: [], projects: null, environments: { kind: 'all' } },
    allows: {},
  },
  {
    role: 'update featureControl, non-production, project A',
    grant: {
      actions: ['update'],
      resources: ['featureControl'],
      projects: ['A'],
      environments: { kind: 'nonProduction' },
    },
    allows: { 'toggle A/development': 200 },
    refusals: {
      'toggle A/production': PRODUCTION_ONLY,
      'toggle A/eu': PRODUCTION_ONLY,
      'toggle B/development': NOT_ALLOWED,
    },
  },
  {
    role: 'update featureControl and create segment, environments tagged eu, all projects',
    grant: {
      actions: ['create', 'update'],
      resources: ['featureControl', 'segment'],
      projects: null,
      environments: { kind: 'tagged', tags: ['eu'] },
    },
    allows: {
      'toggle A/eu': 200,
      'toggle B/eu': 200,
      'create segment A/eu': 201,
      'create segment B/eu': 201,
    },
    // Not even outside production does it reach an untagged environment.
    refusals: { 'toggle A/production': NOT_ALLOWED, 'toggle B/development': NOT_ALLOWED },
  },
  {
    role: 'delete feature, all environments, project A',
    grant: { actions: ['delete'], resources: ['feature'], projects: ['A'], environments: { kind: 'all' } },
    allows: { 'delete feature A': 204 },
    refusals: { 'delete feature B': 'You do not have permission to delete this feature.' },
  },
  {
    role: 'delete feature, non-production only, all projects',
    grant: {
      actions: ['delete'],
      resources: ['feature'],
      projects: null,
      environments: { kind: 'nonProduction' },
    },
    // Deleting removes a feature from every environment, production included.
    allows: {},
  },
  {
    role: 'create and update features and targets, non-production, project A',
    grant: {
      actions: ['create', 'update'],
      resources: ['feature', 'target'],
      projects: ['A'],
      environments: { kind: 'nonProduction' },
    },
    allows: { 'create feature A': 201, 'rename feature A': 200, 'create target A': 201 },
    // Variants are served by production too: the refusal says that production rights are missing.
    refusals: {
      'rename variant A': VARIANTS_PRODUCTION_ONLY,
      'create feature B': 'You do not have permission to create features.',
    },
  },
  {
    role: 'everything, all environments, all projects',
    grant: {
      actions: ['create', 'update', 'delete'],
      resources: ['feature', 'featureControl', 'segment', 'target', 'experiment'],
      projects: null,
      environments: { kind: 'all' },
    },
    allows: Object.fromEntries(
      Object.keys(ATTEMPTS).map((name) => [
        name,
        name.startsWith('create') ? 201 : name.startsWith('delete') ? 204 : 200,
      ]),
    ),
  },
];

async function personalAccessToken(userId: string, organisationId: string): Promise<string> {
  const token = newAccessToken();
  const parts = accessTokenDisplayParts(token);
  await h.database.db.insert(personalAccessTokens).values({
    organisationId,
    userId,
    name: 'Script',
    tokenHash: hashToken(token),
    tokenPrefix: parts.prefix,
    tokenLastFour: parts.lastFour,
  });
  return token;
}

function grantOf(spec: GrantSpec): Grant {
  return { ...spec, projects: spec.projects?.map((where) => projects[where].id) ?? null };
}

/** Per project and environment, whether `call` receives the environment's real server SDK key. */
async function serverKeysSeen(call: Caller): Promise<Record<string, boolean>> {
  const seen: Record<string, boolean> = {};
  for (const where of ['A', 'B'] as const) {
    const project = (await call('GET', `/api/v1/projects/${keyOf(where)}`)).json<Project>();
    for (const environment of project.environments)
      seen[`${where}/${environment.key}`] = !environment.apiKey.includes('*');
  }
  return seen;
}

describe('custom roles: the role matrix', () => {
  it('a read-only member holding each role gets exactly the declared answers, by session and by token', async () => {
    const member = team.readOnly;
    const viaToken = callerFor(h.app, await personalAccessToken(member.id, member.organisationId));
    const mismatches: string[] = [];
    for (const row of TABLE) {
      let role: Role | null = null;
      if (row.grant.actions.length > 0) {
        role = await ok<Role>(team.admin.call, 'PUT', ROLES, {
          name: row.role,
          grants: [grantOf(row.grant)],
        });
        await ok(team.admin.call, 'PUT', `${ROLES}/${role.id}/members`, { userIds: [member.id] });
      }
      for (const [via, call] of [
        ['session', member.call],
        ['token', viaToken],
      ] as const) {
        // A custom role never shows a server SDK key: with it an SDK registers features, which no grant
        // to switch or edit them allows (docs/adr/0006-server-keys-and-sdk-registration.md).
        for (const [where, seen] of Object.entries(await serverKeysSeen(call)))
          if (seen) mismatches.push(`${row.role} / server key of ${where} by ${via}: shown`);
        for (const [name, attempt] of Object.entries(ATTEMPTS)) {
          const expected = row.allows[name] ?? 403;
          const got = await attempt(call);
          const title = row.refusals?.[name];
          if (got.status !== expected || (title !== undefined && got.title !== title))
            mismatches.push(
              `${row.role} / ${name} by ${via}: expected ${expected}${title ? ` "${title}"` : ''}, got ${got.status} "${got.title ?? ''}"`,
            );
        }
      }
      if (role) {
        // Taken away, the role stops applying from the next call.
        await ok(team.admin.call, 'PUT', `${ROLES}/${role.id}/members`, { userIds: [] });
        for (const name of Object.keys(row.allows)) {
          const got = await ATTEMPTS[name]!(member.call);
          if (got.status !== 403) mismatches.push(`${row.role} / ${name} after removal: got ${got.status}`);
        }
      }
    }
    expect(mismatches).toEqual([]);
  });

  it('the dashboard’s session principal carries the member’s grants, and loses them with the role', async () => {
    const grant = grantOf(TABLE[1]!.grant);
    const role = await ok<Role>(team.admin.call, 'PUT', ROLES, { name: 'Switchers', grants: [grant] });
    await ok(team.admin.call, 'PUT', `${ROLES}/${role.id}/members`, { userIds: [team.readOnly.id] });
    const initial = async () =>
      (await team.readOnly.call('GET', '/api/v1/initial')).json<{ principalUser: { grants: Grant[] } }>();
    expect((await initial()).principalUser.grants).toEqual([grant]);
    await ok(team.admin.call, 'PUT', `${ROLES}/${role.id}/members`, { userIds: [] });
    expect((await initial()).principalUser.grants).toEqual([]);
  });

  it('shows the server SDK keys by built-in role only, for every kind of role a member holds', async () => {
    const everything = TABLE.at(-1)!.grant;
    const role = await ok<Role>(team.admin.call, 'PUT', ROLES, {
      name: 'Everything',
      grants: [grantOf(everything)],
    });
    const holders = [team.readOnly, team.editor, team.productionEditor];
    await ok(team.admin.call, 'PUT', `${ROLES}/${role.id}/members`, { userIds: holders.map((m) => m.id) });
    // A is web (eu is production there), B is mob (eu is not).
    const everywhere = (nonProduction: boolean, production: boolean) => ({
      'A/development': nonProduction,
      'A/production': production,
      'A/eu': production,
      'B/development': nonProduction,
      'B/production': production,
      'B/eu': nonProduction,
    });
    expect(await serverKeysSeen(team.readOnly.call)).toEqual(everywhere(false, false));
    expect(await serverKeysSeen(team.editor.call)).toEqual(everywhere(true, false));
    expect(await serverKeysSeen(team.productionEditor.call)).toEqual(everywhere(true, true));
    expect(await serverKeysSeen(team.admin.call)).toEqual(everywhere(true, true));
  });
});
