/**
 * S2: every role tries every dashboard write, in a production and a non-production environment,
 * plus the server SDK key as that role sees it (and registering features with it). The expected
 * answer comes from core's `can(...)`; 2xx means allowed, 403 denied, anything else is a mismatch.
 * Each attempt acts on resources the organisation admin created for it alone.
 */
import { AUTHORITY_NAMES, can, type EnvironmentConstraint, type Principal } from '@vexil/core';
import { api, apiOk, send, signIn, type Answer } from './client';
import type { Context } from './context';
import { verdictOf, type Outcome } from './report';
import { ownerOf, PASSWORD, PERMISSIONS_DOMAIN, roleUser, RULES, type SdkEnvironment } from './setup';

type Feature = {
  id: string;
  key: string;
  description: string;
  permanent: boolean;
  tags: string[];
  goals: string[];
  jiraIssueKeys: string[];
  variants: { key: string; name: string; description: string; value?: unknown }[];
  controls: Record<string, { id: string; enabled: boolean; offVariantKey: string; rules: unknown[] }>;
};
type Project = { id: string; key: string; environments: (SdkEnvironment & { name: string })[] };
type Scope = {
  name: string;
  project: string;
  environment: SdkEnvironment;
  servedBy: EnvironmentConstraint[];
};
type Attempt = { route: string; expected: boolean; act: (token: string) => Promise<Answer | boolean> };

let serial = 0;
const next = (prefix: string) => `${prefix}${++serial}`;

function settings(feature: Feature, change: Partial<Feature> & { name: string }) {
  const { key, description, permanent, tags, goals, jiraIssueKeys, variants } = feature;
  return { id: feature.id, key, description, permanent, tags, goals, jiraIssueKeys, variants, ...change };
}

/** The attempts of one scope; `admin` creates what each acts on. */
function attempts(base: string, admin: string, who: Principal, scope: Scope): Attempt[] {
  const { project, environment } = scope;
  const env = { production: environment.production };
  const as = (token: string, method: string, path: string, body?: unknown) =>
    api(base, token, method, path, body);
  const feature = () =>
    apiOk<Feature>(base, admin, 'POST', `/api/v1/projects/${project}/features`, {
      name: 'F',
      key: next('f'),
    });
  const segment = () =>
    apiOk<{ id: string; key: string }>(base, admin, 'POST', '/api/v2/segments', {
      projectKey: project,
      environmentKey: environment.key,
      key: next('s'),
      name: 'S',
    });
  const newEnvironment = () =>
    apiOk<SdkEnvironment>(base, admin, 'POST', '/api/v1/environments', {
      projectKey: project,
      name: 'E',
      key: next('e'),
      production: environment.production,
    });
  const newProject = () =>
    apiOk<Project>(base, admin, 'POST', '/api/v1/projects', { name: 'P', key: next('q') });
  const control = async (token: string, rules?: unknown[]) => {
    const f = await feature();
    const c = f.controls[environment.key]!;
    return as(token, 'PUT', '/api/v1/feature-controls', {
      id: c.id,
      enabled: !c.enabled,
      offVariantKey: c.offVariantKey,
      rules: rules ?? c.rules,
    });
  };
  /** Whether this role gets the environment's server key from any of the reads that list it. */
  const seesServerKey = async (token: string) => {
    const paths = [
      `/api/v1/environments/${project}/${environment.key}`,
      '/api/v1/projects',
      `/api/v1/projects/${project}`,
    ];
    const bodies = await Promise.all(paths.map((path) => as(token, 'GET', path)));
    return bodies.some((answer) => answer.body.includes(environment.apiKey));
  };
  return [
    {
      route: 'create feature',
      expected: can(who, 'create', { type: 'feature' }),
      act: (t) => as(t, 'POST', `/api/v1/projects/${project}/features`, { name: 'F', key: next('f') }),
    },
    {
      route: 'rename feature',
      expected: can(who, 'update', { type: 'feature' }),
      act: async (t) =>
        as(t, 'PUT', `/api/v1/projects/${project}/features`, settings(await feature(), { name: 'Renamed' })),
    },
    {
      route: 'change a variant value (settings)',
      expected: scope.servedBy.every((environment) => can(who, 'update', { type: 'feature', environment })),
      act: async (t) => {
        const f = await feature();
        const variants = f.variants.map((v, i) => (i === 0 ? { ...v, value: { changed: serial } } : v));
        return as(t, 'PUT', `/api/v1/projects/${project}/features`, settings(f, { name: 'F', variants }));
      },
    },
    {
      route: 'delete feature',
      expected: can(who, 'delete', { type: 'feature' }),
      act: async (t) => as(t, 'DELETE', `/api/v1/project/${project}/features/${(await feature()).id}`),
    },
    {
      route: 'toggle control',
      expected: can(who, 'update', { type: 'featureControl', environment: env }),
      act: (t) => control(t),
    },
    {
      route: 'save targeting rules',
      expected: can(who, 'update', { type: 'featureControl', environment: env }),
      act: (t) => control(t, RULES),
    },
    {
      route: 'create segment',
      expected: can(who, 'create', { type: 'segment', environment: env }),
      act: (t) =>
        as(t, 'POST', '/api/v2/segments', {
          projectKey: project,
          environmentKey: environment.key,
          key: next('s'),
          name: 'S',
        }),
    },
    {
      route: 'edit segment',
      expected: can(who, 'update', { type: 'segment', environment: env }),
      act: async (t) => {
        const s = await segment();
        return as(t, 'PUT', '/api/v2/segments', {
          id: s.id,
          projectKey: project,
          environmentKey: environment.key,
          key: s.key,
          name: 'Renamed',
        });
      },
    },
    {
      route: 'delete segment',
      expected: can(who, 'delete', { type: 'segment', environment: env }),
      act: async (t) => as(t, 'DELETE', `/api/v2/segments/${(await segment()).id}`),
    },
    {
      route: 'create environment',
      expected: can(who, 'create', { type: 'environment' }),
      act: (t) =>
        as(t, 'POST', '/api/v1/environments', {
          projectKey: project,
          name: 'E',
          key: next('e'),
          production: env.production,
        }),
    },
    {
      route: 'edit environment',
      expected: can(who, 'update', { type: 'environment' }),
      act: async (t) => {
        const e = await newEnvironment();
        return as(t, 'PUT', '/api/v1/environments', {
          id: e.id,
          projectKey: project,
          name: 'Renamed',
          key: e.key,
          production: env.production,
        });
      },
    },
    {
      route: 'delete environment',
      expected: can(who, 'delete', { type: 'environment' }),
      act: async (t) => as(t, 'DELETE', `/api/v1/environments/${(await newEnvironment()).id}`),
    },
    {
      route: 'rotate server key',
      expected: can(who, 'update', { type: 'environment' }),
      act: async (t) =>
        as(t, 'POST', `/api/v1/environments/${(await newEnvironment()).id}/keys/server/rotate`),
    },
    {
      route: 'receive the server SDK key',
      expected: can(who, 'update', { type: 'featureControl', environment: env }),
      act: (t) => seesServerKey(t),
    },
    {
      route: 'SDK register with the key as seen',
      expected: can(who, 'update', { type: 'featureControl', environment: env }),
      act: async (t) => {
        if (!(await seesServerKey(t))) return false;
        const answer = await send(base, {
          method: 'PUT',
          path: '/api/sdk/v1/register',
          headers: { authorization: `Bearer ${environment.apiKey}`, 'content-type': 'application/json' },
          body: JSON.stringify([
            { key: next('reg'), failoverVariant: 'off', variants: [{ key: 'on' }, { key: 'off' }] },
          ]),
        });
        return answer;
      },
    },
    // Not tied to an environment: once per role, in the first scope only.
    ...(scope.name !== 'production'
      ? []
      : [
          {
            route: 'create project',
            expected: can(who, 'create', { type: 'project' }),
            act: (t: string) => as(t, 'POST', '/api/v1/projects', { name: 'P', key: next('q') }),
          },
          {
            route: 'edit project',
            expected: can(who, 'update', { type: 'project' }),
            act: async (t: string) => {
              const p = await newProject();
              return as(t, 'PUT', '/api/v1/projects', { id: p.id, name: 'Renamed', key: p.key });
            },
          },
          {
            route: 'delete project',
            expected: can(who, 'delete', { type: 'project' }),
            act: async (t: string) => as(t, 'DELETE', `/api/v1/projects/${(await newProject()).id}`),
          },
          {
            route: 'create target',
            expected: can(who, 'create', { type: 'target' }),
            act: (t: string) =>
              as(t, 'POST', `/api/v1/projects/${project}/targets`, {
                key: next('t'),
                name: 'T',
                type: 'string',
              }),
          },
        ]),
  ];
}

export async function s2(ctx: Context): Promise<Outcome> {
  const base = ctx.product.base;
  const admin = await signIn(base, PERMISSIONS_DOMAIN, ownerOf(PERMISSIONS_DOMAIN), PASSWORD);
  // `pp` has a production environment; in `pn` nothing is production, so its settings need no production rights.
  const pp = await apiOk<Project>(base, admin, 'POST', '/api/v1/projects', { name: 'Perm', key: 'pp' });
  const pn = await apiOk<Project>(base, admin, 'POST', '/api/v1/projects', { name: 'Perm dev', key: 'pn' });
  const pnProduction = pn.environments.find((e) => e.production)!;
  await apiOk(base, admin, 'PUT', '/api/v1/environments', {
    ...pnProduction,
    projectKey: 'pn',
    production: false,
    url: '',
  });
  const constraints = (project: Project, without?: string) =>
    project.environments.map((e) => ({ production: e.production && e.id !== without }));
  const scopes: Scope[] = [
    {
      name: 'production',
      project: 'pp',
      environment: pp.environments.find((e) => e.production)!,
      servedBy: constraints(pp),
    },
    {
      name: 'non-production',
      project: 'pn',
      environment: pn.environments.find((e) => !e.production)!,
      servedBy: constraints(pn, pnProduction.id),
    },
  ];
  const mismatches: string[] = [];
  let total = 0;
  for (const authority of AUTHORITY_NAMES) {
    const token = await signIn(base, PERMISSIONS_DOMAIN, roleUser(authority), PASSWORD);
    const who: Principal = { authorities: [authority] };
    for (const scope of scopes) {
      for (const attempt of attempts(base, admin, who, scope)) {
        total += 1;
        const answer = await attempt.act(token);
        const got =
          typeof answer === 'boolean'
            ? answer
              ? 'allowed'
              : 'denied'
            : answer.status >= 200 && answer.status < 300
              ? 'allowed'
              : answer.status === 403
                ? 'denied'
                : `${answer.status || answer.error} ${answer.body.slice(0, 80)}`;
        const want = attempt.expected ? 'allowed' : 'denied';
        if (got !== want)
          mismatches.push(`${authority} · ${attempt.route} · ${scope.name}: expected ${want}, got ${got}`);
      }
    }
  }
  for (const mismatch of mismatches) ctx.log(`S2 mismatch: ${mismatch}`);
  return {
    figures: [
      `${total} attempts (${AUTHORITY_NAMES.length} roles × routes × 2 environments), ${mismatches.length} mismatches`,
      ...mismatches.slice(0, 12),
      ...(mismatches.length > 12 ? [`… and ${mismatches.length - 12} more (listed above the table)`] : []),
    ],
    ...verdictOf({ [`${mismatches.length} mismatches`]: mismatches.length === 0 }),
  };
}
