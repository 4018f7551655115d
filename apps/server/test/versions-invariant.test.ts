/**
 * Every write is versioned (docs/adr/0022-versions.md): walking every write route the app registers,
 * a representative call that changes a feature control, a feature's settings, a segment or an
 * environment's settings adds exactly one
 * version to that resource (a resource it creates gets its version 1), a call that changes neither adds
 * none, and after every call each resource's newest version is its state. A new write route is walked
 * the moment it is registered; one without a representative call (versions-invariant.cases.ts) is still called (with the
 * fixture's keys and an empty body) and held to the same rules.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Project } from '@vexil/core';
import type { RouteEntry } from '../src/app';
import { createTeam, type Team } from './api';
import { createFeature } from './features';
import { bearer, createHarness, randomIp, type Harness } from './helpers';
import { compare, fingerprint } from './version-fingerprint';
import { writeCases, type Case } from './versions-invariant.cases';
import { changeRequestCases } from './versions-invariant.change-request-cases';
import { resourceCases } from './versions-invariant.resource-cases';
import { scheduleCases } from './versions-invariant.schedule-cases';

let h: Harness;
let team: Team;
let web: Project;

const WRITES = ['POST', 'PUT', 'PATCH', 'DELETE'];

let adminToken: string;
let readOnlyToken: string;

const admin = () => team.admin.call;

async function created<T>(url: string, body: unknown): Promise<T> {
  const res = await admin()('POST', url, body);
  expect(res.statusCode, res.body).toBeLessThan(300);
  return res.json<T>();
}

beforeAll(async () => {
  h = await createHarness();
  team = await createTeam(h);
  adminToken = await h.login(team.admin);
  readOnlyToken = await h.login(team.readOnly);
  web = await created<Project>('/api/v1/projects', { name: 'Web shop', key: 'web' });
  await created('/api/v1/projects/web/targets', { key: 'country', name: 'Country', type: 'string' });
  await created('/api/v2/segments', {
    projectKey: 'web',
    environmentKey: 'development',
    key: 'vips',
    name: 'VIPs',
  });
  await createFeature(admin(), 'web', { name: 'Checkout', key: 'checkout', tags: ['shop'] });
  await createFeature(admin(), 'web', { name: 'Banner', key: 'banner', maintainerId: team.editor.id });
});

afterAll(async () => {
  await h.close();
});

describe('versions of feature controls, feature settings, segments and environments', () => {
  it('every write route that changes one adds exactly one version to it, and no write route changes one without', async () => {
    const routes = h.app.routeTable.filter((r: RouteEntry) => WRITES.includes(r.method));
    expect(routes.length).toBeGreaterThan(40);
    const problems: string[] = [];
    const failed: string[] = [];
    const changing = new Set<string>();
    const context = { h, team, web, readOnlyToken };
    const { cases: CASES, filled } = writeCases(context);
    for (const [name, more] of [
      ...Object.entries(resourceCases(context)),
      ...Object.entries(changeRequestCases(context)),
      ...Object.entries(scheduleCases(context)),
    ])
      CASES[name] = [...(CASES[name] ?? []), ...more];
    for (const route of routes) {
      const name = `${route.method} ${route.url}`;
      const cases: Case[] = CASES[name.replace(/\/$/, '')] ?? [
        { call: () => ({ url: filled(route.url), ...(route.method === 'DELETE' ? {} : { body: {} }) }) },
      ];
      for (const example of cases) {
        await example.prepare?.();
        const call = await example.call();
        const before = await fingerprint(h);
        const res = await h.app.inject({
          method: route.method as 'POST',
          url: call.url,
          remoteAddress: randomIp(),
          headers: { ...bearer(call.token ?? adminToken), ...call.headers },
          ...(call.body === undefined ? {} : { payload: call.body as object }),
        });
        await h.app.sdk.store.settled();
        if (example.ok && (res.statusCode < 200 || res.statusCode >= 300))
          failed.push(`${name} → ${res.statusCode} ${res.body.slice(0, 200)}`);
        const { problems: found, changed } = compare(before, await fingerprint(h));
        problems.push(...found.map((problem) => `${name}: ${problem}`));
        if (changed.length > 0) changing.add(name);
      }
    }
    expect(failed, 'representative calls that did not succeed').toEqual([]);
    expect(problems).toEqual([]);
    // The walk reached the writes that do change them.
    expect([...changing].sort()).toEqual(
      [
        'PUT /api/sdk/v1/register',
        'POST /api/v1/environments',
        'PUT /api/v1/environments',
        'POST /api/v1/environments/:projectKey/:environmentKey/versions/:number/restore',
        'POST /api/v1/projects',
        'POST /api/v2/segments',
        'PUT /api/v2/segments',
        'POST /api/v2/segments/:projectKey/:environmentKey/:segmentKey/versions/:number/restore',
        'POST /api/v1/projects/:projectKey/features',
        'PUT /api/v1/projects/:projectKey/features',
        'PUT /api/v1/features/link',
        'PUT /api/v1/feature-controls',
        'PUT /api/v1/feature-controls/:id/enabled',
        'POST /api/v1/projects/:projectKey/features/:featureKey/versions/:number/restore',
        'DELETE /api/v1/users/:id',
        'POST /api/v1/projects/:projectKey/change-requests/:id/apply',
        'POST /api/v1/projects/:projectKey/schedules/:id/:action',
      ]
        .filter((name) => routes.some((r) => `${r.method} ${r.url}` === name))
        .sort(),
    );
  }, 60_000);
});
