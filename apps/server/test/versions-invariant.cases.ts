import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import {
  AUTHORITIES,
  type Environment,
  type Feature,
  type Project,
  type Segment,
  type VersionPage,
} from '@vexil/core';
import type { Team } from './api';
import { controlBody, createFeature, otherwise, rule } from './features';
import { bearer, type Harness } from './helpers';

/*
 * A representative call of each write route for the versions invariant (versions-invariant.test.ts),
 * over its fixture: the project `web` with the features `checkout` and `banner` (maintained by the
 * editor), the target `country` and the segment `vips` in development.
 */

/** What the walk has set up, read when a call is made. */
export type WalkContext = { h: Harness; team: Team; web: Project; readOnlyToken: string };

export type Call = { url: string; body?: unknown; token?: string; headers?: Record<string, string> };
/** A representative call of a route: prepared first (outside the comparison), expected to succeed when `ok`. */
export type Case = { ok?: boolean; prepare?: () => Promise<unknown>; call: () => Promise<Call> | Call };

/** The representative calls by route (`METHOD /url`), and the call of a route without one. */
export function writeCases(ctx: WalkContext) {
  const { h, team } = ctx;

  const admin = () => team.admin.call;
  const environment = (key: string) => ctx.web.environments.find((e) => e.key === key)!;

  async function feature(key = 'checkout', projectKey = 'web'): Promise<Feature> {
    const res = await admin()('GET', `/api/v1/projects/${projectKey}/features/${key}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<Feature>();
  }

  async function newestVersion(query = ''): Promise<number> {
    const res = await admin()('GET', `/api/v1/projects/web/features/checkout/versions${query}`);
    return res.json<VersionPage>().content[0]!.number;
  }

  /** The member the removal case removes, once prepared. */
  let leaving: { id: string } | undefined;

  async function settingsBody(changes: Record<string, unknown> = {}) {
    const current = await feature();
    return {
      id: current.id,
      name: current.name,
      key: current.key,
      description: current.description,
      permanent: current.permanent,
      variants: current.variants,
      tags: current.tags,
      jiraIssueKeys: current.jiraIssueKeys,
      goals: current.goals,
      maintainerId: current.maintainer?.id ?? null,
      ...changes,
    };
  }

  async function created<T>(url: string, body: unknown): Promise<T> {
    const res = await admin()('POST', url, body);
    expect(res.statusCode, res.body).toBeLessThan(300);
    return res.json<T>();
  }

  async function environmentNamed(key: string): Promise<Environment> {
    const res = await admin()('GET', `/api/v1/environments/web/${key}`);
    return res.json<Environment>();
  }

  async function segmentNamed(key: string): Promise<Segment> {
    const res = await admin()('GET', '/api/v2/segments/web/development');
    return res.json<Segment[]>().find((s) => s.key === key)!;
  }

  const cases: Record<string, Case[]> = {
    'PUT /api/sdk/v1/register': [
      {
        ok: true,
        call: () => ({
          url: '/api/sdk/v1/register',
          headers: bearer(environment('development').apiKey),
          body: [{ key: 'from-sdk', variants: [{ key: 'wide' }, { key: 'narrow' }] }],
        }),
      },
    ],
    'POST /api/v1/projects': [
      { ok: true, call: () => ({ url: '/api/v1/projects', body: { name: 'Mobile', key: 'mob' } }) },
    ],
    'PUT /api/v1/projects': [
      {
        ok: true,
        call: async () => {
          const mobile = (await admin()('GET', '/api/v1/projects/mob')).json<Project>();
          return { url: '/api/v1/projects', body: { id: mobile.id, name: 'Mobile app', key: 'mob' } };
        },
      },
    ],
    'DELETE /api/v1/projects/:id': [
      {
        ok: true,
        prepare: async () => {
          await created('/api/v1/projects', { name: 'Doomed', key: 'doom' });
          await createFeature(admin(), 'doom', { name: 'Doomed feature', key: 'doomed-feature' });
        },
        call: async () => {
          const doomed = (await admin()('GET', '/api/v1/projects/doom')).json<Project>();
          return { url: `/api/v1/projects/${doomed.id}` };
        },
      },
    ],
    'POST /api/v1/environments': [
      {
        ok: true,
        call: () => ({
          url: '/api/v1/environments',
          body: { projectKey: 'web', name: 'Staging', key: 'staging' },
        }),
      },
    ],
    'PUT /api/v1/environments': [
      {
        ok: true,
        call: async () => {
          const staging = await environmentNamed('staging');
          return {
            url: '/api/v1/environments',
            body: { id: staging.id, projectKey: 'web', name: 'Staging 2', key: 'staging' },
          };
        },
      },
    ],
    'DELETE /api/v1/environments/:id': [
      {
        ok: true,
        prepare: () => created('/api/v1/environments', { projectKey: 'web', name: 'Temp', key: 'temp' }),
        call: async () => ({ url: `/api/v1/environments/${(await environmentNamed('temp')).id}` }),
      },
    ],
    'POST /api/v1/environments/:id/keys/:kind/rotate': [
      {
        ok: true,
        prepare: () =>
          created('/api/v1/environments', { projectKey: 'web', name: 'Rotating', key: 'rotating' }),
        call: async () => ({
          url: `/api/v1/environments/${(await environmentNamed('rotating')).id}/keys/server/rotate`,
        }),
      },
    ],
    'POST /api/v1/projects/:projectKey/features': [
      {
        ok: true,
        call: () => ({
          url: '/api/v1/projects/web/features',
          body: { name: 'Search', key: 'search', comment: 'For the new catalogue' },
        }),
      },
    ],
    'PUT /api/v1/projects/:projectKey/features': [
      {
        ok: true,
        call: async () => ({
          url: '/api/v1/projects/web/features',
          body: await settingsBody({
            name: 'Checkout 2',
            variants: [...(await feature()).variants, { key: 'beta', name: 'Beta', value: { steps: 1 } }],
            goals: ['purchase'],
            comment: 'Beta variant',
          }),
        }),
      },
      // The same settings sent back: no version.
      { ok: true, call: async () => ({ url: '/api/v1/projects/web/features', body: await settingsBody() }) },
    ],
    'DELETE /api/v1/project/:projectKey/features/:featureId': [
      {
        ok: true,
        prepare: () => createFeature(admin(), 'web', { name: 'Temp', key: 'temp-feature' }),
        call: async () => ({ url: `/api/v1/project/web/features/${(await feature('temp-feature')).id}` }),
      },
    ],
    'PUT /api/v1/features/link': [
      {
        ok: true,
        call: async () => ({
          url: '/api/v1/features/link',
          body: { featureId: (await feature()).id, jiraIssueKey: 'WEB-1' },
        }),
      },
    ],
    'PUT /api/v1/features/:featureId/bookmark/:bookmarked': [
      { ok: true, call: async () => ({ url: `/api/v1/features/${(await feature()).id}/bookmark/true` }) },
    ],
    'PUT /api/v1/feature-controls': [
      {
        ok: true,
        call: async () => ({
          url: '/api/v1/feature-controls',
          body: {
            ...controlBody((await feature()).controls.development!, {
              rules: [rule('country', 'in', ['NZ']), otherwise('off')],
            }),
            comment: 'New Zealand first',
          },
        }),
      },
    ],
    'PUT /api/v1/feature-controls/:id/enabled': [
      {
        ok: true,
        call: async () => ({
          url: `/api/v1/feature-controls/${(await feature()).controls.production!.id}/enabled`,
          body: { enabled: true },
        }),
      },
    ],
    'POST /api/v1/projects/:projectKey/features/:featureKey/versions/:number/restore': [
      {
        // The settings: the version before the newest.
        ok: true,
        prepare: async () =>
          admin()('PUT', '/api/v1/projects/web/features', await settingsBody({ description: 'To undo' })),
        call: async () => {
          const newest = await newestVersion();
          return {
            url: `/api/v1/projects/web/features/checkout/versions/${newest - 1}/restore`,
            body: { currentVersion: newest, comment: 'Undo' },
          };
        },
      },
      {
        // The control in development: the version before the newest.
        ok: true,
        prepare: async () => {
          const control = (await feature()).controls.development!;
          return admin()('PUT', `/api/v1/feature-controls/${control.id}/enabled`, {
            enabled: !control.enabled,
          });
        },
        call: async () => {
          const newest = await newestVersion('?environmentKey=development');
          return {
            url: `/api/v1/projects/web/features/checkout/versions/${newest - 1}/restore?environmentKey=development`,
            body: { currentVersion: newest },
          };
        },
      },
    ],
    // A maintainer renamed: a label of the settings, not a change of them.
    'PUT /api/v1/users': [
      {
        ok: true,
        call: () => ({
          url: '/api/v1/users',
          body: {
            id: team.editor.id,
            firstName: 'Renamed',
            lastName: 'Maintainer',
            authority: AUTHORITIES.ROLE_ORGANISATION_EDITOR,
          },
        }),
      },
    ],
    // A member who maintains a feature: it lets go of them, with a version of its settings.
    'DELETE /api/v1/users/:id': [
      {
        ok: true,
        prepare: async () => {
          leaving = await h.createUser(team.admin.organisationId, team.admin.domain);
          const res = await admin()('PUT', '/api/v1/projects/web/features', {
            ...(await settingsBody({ maintainerId: leaving.id })),
          });
          expect(res.statusCode, res.body).toBe(200);
        },
        call: () => ({ url: `/api/v1/users/${leaving!.id}` }),
      },
    ],
    'POST /api/v1/invites': [
      {
        ok: true,
        call: () => ({
          url: '/api/v1/invites',
          body: [{ email: 'new@example.com', firstName: 'N', lastName: 'U' }],
        }),
      },
    ],
    // Sessions of their own: the walk's session stays signed in.
    'POST /api/logout': [
      { ok: true, call: async () => ({ url: '/api/logout', token: await h.login(team.readOnly) }) },
    ],
    'POST /api/v1/account/sessions/revoke-all': [
      { ok: true, call: () => ({ url: '/api/v1/account/sessions/revoke-all', token: ctx.readOnlyToken }) },
    ],
    'POST /api/v1/projects/:projectKey/targets': [
      {
        ok: true,
        call: () => ({
          url: '/api/v1/projects/web/targets',
          body: { key: 'plan', name: 'Plan', type: 'string' },
        }),
      },
    ],
    'POST /api/v2/segments': [
      {
        ok: true,
        call: () => ({
          url: '/api/v2/segments',
          body: { projectKey: 'web', environmentKey: 'development', key: 'beta-users', name: 'Beta users' },
        }),
      },
    ],
    'PUT /api/v2/segments': [
      {
        ok: true,
        call: async () => ({
          url: '/api/v2/segments',
          body: {
            id: (await segmentNamed('vips')).id,
            projectKey: 'web',
            environmentKey: 'development',
            key: 'vips',
            name: 'Very important',
          },
        }),
      },
    ],
    'DELETE /api/v2/segments/:id': [
      {
        ok: true,
        prepare: () =>
          created('/api/v2/segments', {
            projectKey: 'web',
            environmentKey: 'development',
            key: 'temp',
            name: 'Temp',
          }),
        call: async () => ({ url: `/api/v2/segments/${(await segmentNamed('temp')).id}` }),
      },
    ],
    'POST /api/v1/experiments': [
      {
        call: async () => ({
          url: '/api/v1/experiments',
          body: {
            projectKey: 'web',
            environmentKey: 'development',
            name: 'Checkout test',
            goalKey: 'purchase',
            featureId: (await feature()).id,
            control: 'off',
            variation: 'on',
          },
        }),
      },
    ],
    'POST /api/internal/v1/tokens': [
      { ok: true, call: () => ({ url: '/api/internal/v1/tokens', body: { name: 'walker' } }) },
    ],
    'DELETE /api/internal/v1/tokens/:id': [
      {
        ok: true,
        call: async () => {
          const token = await created<{ id: string }>('/api/internal/v1/tokens', { name: 'doomed' });
          return { url: `/api/internal/v1/tokens/${token.id}` };
        },
      },
    ],
  };

  /** The fixture's value of a path parameter, for a route without a representative call. */
  function filled(url: string): string {
    const values: Record<string, string> = {
      projectKey: 'web',
      featureKey: 'checkout',
      environmentKey: 'development',
      key: 'checkout',
      kind: 'server',
      bookmarked: 'true',
      number: '1',
      userKey: 'walker-user',
      apiKey: environment('development').jsApiKey,
    };
    return url.replace(/:([A-Za-z0-9_]+)/g, (_m, name: string) => values[name] ?? randomUUID());
  }

  return { cases, filled };
}
