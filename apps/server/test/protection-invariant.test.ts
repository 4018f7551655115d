/**
 * A protected environment takes no change but through an applied change request
 * (docs/adr/0024-change-requests.md): with Production asking for change requests, every write route
 * the app registers is walked with its representative call (the versions invariant's, plus the
 * change requests' own, in Production) by an organisation admin's access token and session, and no
 * call but applying an approved request changes one of Production's feature controls or segments,
 * or the settings of a feature of its project (which apply to Production too), but for one
 * bookkeeping write named below. A new write route is walked the moment it is registered.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Project } from '@vexil/core';
import type { RouteEntry } from '../src/app';
import { featureControls, features, segments } from '../src/db/schema/index';
import { createTeam, type Team } from './api';
import { protect } from './change-requests';
import { createFeature } from './features';
import { bearer, createHarness, randomIp, type Harness } from './helpers';
import { fingerprint } from './version-fingerprint';
import { changeRequestCases } from './versions-invariant.change-request-cases';
import { writeCases, type Case } from './versions-invariant.cases';
import { resourceCases } from './versions-invariant.resource-cases';

let h: Harness;
let team: Team;
let web: Project;
let adminToken: string;
let readOnlyToken: string;
let accessToken: string;

const WRITES = ['POST', 'PUT', 'PATCH', 'DELETE'];
const APPLY = 'POST /api/v1/projects/:projectKey/change-requests/:id/apply';

beforeAll(async () => {
  h = await createHarness();
  team = await createTeam(h);
  adminToken = await h.login(team.admin);
  readOnlyToken = await h.login(team.readOnly);
  const token = await team.admin.call('POST', '/api/internal/v1/tokens', { name: 'walk' });
  accessToken = token.json<{ key: string }>().key;
  web = (await team.admin.call('POST', '/api/v1/projects', { name: 'Web shop', key: 'web' })).json<Project>();
  await team.admin.call('POST', '/api/v1/projects/web/targets', {
    key: 'country',
    name: 'Country',
    type: 'string',
  });
  await team.admin.call('POST', '/api/v2/segments', {
    projectKey: 'web',
    environmentKey: 'development',
    key: 'vips',
    name: 'VIPs',
  });
  await createFeature(team.admin.call, 'web', { name: 'Checkout', key: 'checkout', tags: ['shop'] });
  await createFeature(team.admin.call, 'web', {
    name: 'Banner',
    key: 'banner',
    maintainerId: team.editor.id,
  });
  await protect(team.admin.call, 'production', { allowSelfApproval: true });
});

afterAll(async () => {
  await h.close();
});

/**
 * What Production's protection covers, as the fingerprint names it: its feature controls and
 * segments, and the settings of every feature of its project (they apply to Production too).
 */
async function protectedResources(): Promise<Set<string>> {
  const production = web.environments.find((e) => e.key === 'production')!;
  const db = h.database.db;
  const controls = await db
    .select({ id: featureControls.id })
    .from(featureControls)
    .where(eq(featureControls.environmentId, production.id));
  const settings = await db.select({ id: features.id }).from(features).where(eq(features.projectId, web.id));
  const cohorts = await db
    .select({ id: segments.id })
    .from(segments)
    .where(eq(segments.environmentId, production.id));
  return new Set([
    ...controls.map((row) => `feature_control:${row.id}`),
    ...settings.map((row) => `feature:${row.id}`),
    ...cohorts.map((row) => `segment:${row.id}`),
  ]);
}

describe('a protected environment', () => {
  it('is changed by no write route but the apply of an approved change request', async () => {
    const routes = h.app.routeTable.filter((r: RouteEntry) => WRITES.includes(r.method));
    const context = { h, team, web, readOnlyToken };
    const { cases: CASES, filled } = writeCases(context);
    for (const [name, more] of [
      ...Object.entries(resourceCases(context)),
      ...Object.entries(changeRequestCases(context, { environmentKey: 'production', required: true })),
    ])
      CASES[name] = [...(CASES[name] ?? []), ...more];
    const through = new Set<string>();
    for (const route of routes) {
      const name = `${route.method} ${route.url}`;
      const cases: Case[] = CASES[name.replace(/\/$/, '')] ?? [
        { call: () => ({ url: filled(route.url), ...(route.method === 'DELETE' ? {} : { body: {} }) }) },
      ];
      for (const example of cases) {
        {
          // What a call needs beforehand is set up with the protection lifted: only the call is watched.
          if (example.prepare) {
            await protect(team.admin.call, 'production', { required: false, allowSelfApproval: true });
            await example.prepare();
            await protect(team.admin.call, 'production', { allowSelfApproval: true });
          }
          const call = await example.call();
          // By an access token first, then by the session: what one did, the other finds done.
          for (const token of [accessToken, adminToken]) {
            const watched = await protectedResources();
            const before = await fingerprint(h);
            await h.app.inject({
              method: route.method as 'POST',
              url: call.url,
              remoteAddress: randomIp(),
              headers: { ...bearer(call.token ?? token), ...call.headers },
              ...(call.body === undefined ? {} : { payload: call.body as object }),
            });
            const after = await fingerprint(h);
            const moved = [...watched].filter((key) => {
              const [then, now] = [before.get(key), after.get(key)];
              return now?.state !== undefined && (then?.state !== now.state || then?.count !== now.count);
            });
            if (moved.length > 0) through.add(`${name} ${moved.map((key) => key.split(':')[0]).join(',')}`);
          }
        }
      }
    }
    // Applying an approved request is the one way through. One write keeps books rather than releases
    // anything, and is not held back: a removed member's features let go of them as their maintainer.
    expect([...through].sort()).toEqual(
      [`${APPLY} feature_control`, 'DELETE /api/v1/users/:id feature'].sort(),
    );
  }, 120_000);
});
