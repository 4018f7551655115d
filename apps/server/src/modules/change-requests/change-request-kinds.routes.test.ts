import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ChangeRequest, Feature, Segment, VersionPage } from '@vexil/core';
import { auditTrail, createTeam, type Team } from '../../../test/api';
import { REQUESTS, ok, protect } from '../../../test/change-requests';
import { createFeature } from '../../../test/features';
import { createHarness, type Harness } from '../../../test/helpers';

let h: Harness;
let team: Team;

beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h.close();
});
beforeEach(async () => {
  await h.database.reset();
  team = await createTeam(h);
  await team.admin.call('POST', '/api/v1/projects/', { name: 'Web shop', key: 'web' });
  await createFeature(team.admin.call, 'web', { name: 'Checkout', key: 'checkout', description: 'Old' });
  for (const environmentKey of ['production', 'development'])
    await team.admin.call('POST', '/api/v2/segments', {
      projectKey: 'web',
      environmentKey,
      key: 'vips',
      name: 'VIPs',
    });
});

const url = (request: ChangeRequest, rest = '') => `${REQUESTS}/${request.id}${rest}`;

async function feature(): Promise<Feature> {
  return (await team.admin.call('GET', '/api/v1/projects/web/features/checkout')).json<Feature>();
}

/** The settings body the Feature Settings form sends, with changes. */
async function settings(changes: Record<string, unknown> = {}) {
  const { id, name, key, description, permanent, variants, tags, jiraIssueKeys, goals } = await feature();
  return {
    id,
    name,
    key,
    description,
    permanent,
    variants,
    tags,
    jiraIssueKeys,
    goals,
    maintainerId: null,
    ...changes,
  };
}

async function segment(environmentKey: string): Promise<Segment> {
  const res = await team.admin.call('GET', `/api/v2/segments/web/${environmentKey}`);
  return res.json<Segment[]>().find((s) => s.key === 'vips')!;
}

/** Someone changes what is live meanwhile: the admin lifts the protection for one write. */
async function meanwhile(write: () => Promise<{ statusCode: number; body: string }>) {
  await protect(team.admin.call, 'production', { required: false });
  const res = await write();
  expect(res.statusCode, res.body).toBe(200);
  await protect(team.admin.call, 'production');
}

/** A request of Production with one change, submitted and approved by the admin. */
async function approved(change: Record<string, unknown>): Promise<ChangeRequest> {
  const author = team.productionEditor.call;
  const draft = await ok(author, 'POST', REQUESTS, { environmentKey: 'production', title: 'Tidy up' });
  await ok(author, 'POST', url(draft, '/changes'), change);
  await ok(author, 'POST', url(draft, '/submit'));
  return ok(team.admin.call, 'POST', url(draft, '/reviews'), { decision: 'approve' });
}

describe('a feature’s settings in a project with a protected environment', () => {
  beforeEach(async () => protect(team.admin.call, 'production'));

  it('are refused as a direct write, naming the protected environment, and go through a request instead', async () => {
    const direct = await team.admin.call(
      'PUT',
      '/api/v1/projects/web/features',
      await settings({ name: 'Pay' }),
    );
    expect(direct.statusCode).toBe(409);
    expect(direct.json()).toMatchObject({ code: 'change_request_required', environmentKey: 'production' });

    const request = await approved({
      kind: 'feature',
      ...(await settings({ name: 'Pay', description: 'New' })),
    });
    expect(request.changes[0]).toMatchObject({
      kind: 'feature',
      resourceName: 'Checkout',
      featureKey: 'checkout',
    });
    expect(request.changes[0]!.changes.join(' ')).toContain('Pay');
    const applied = await ok(team.productionEditor.call, 'POST', url(request, '/apply'));
    expect(applied.state).toBe('applied');
    expect(await feature()).toMatchObject({ name: 'Pay', description: 'New' });
    const history = (
      await team.admin.call('GET', '/api/v1/projects/web/features/checkout/versions')
    ).json<VersionPage>();
    expect(history.content[0]).toMatchObject({ source: 'change-request', changeRequestId: request.id });
  });

  it('merge with a change of another field made meanwhile, and suspend on the same field changed differently', async () => {
    const merging = await approved({ kind: 'feature', ...(await settings({ name: 'Pay' })) });
    await meanwhile(async () =>
      team.admin.call('PUT', '/api/v1/projects/web/features', await settings({ description: 'Theirs' })),
    );
    expect((await ok(team.productionEditor.call, 'POST', url(merging, '/apply'))).state).toBe('applied');
    expect(await feature()).toMatchObject({ name: 'Pay', description: 'Theirs' });

    const clashing = await approved({ kind: 'feature', ...(await settings({ name: 'Mine' })) });
    await meanwhile(async () =>
      team.admin.call('PUT', '/api/v1/projects/web/features', await settings({ name: 'Yours' })),
    );
    const suspended = await ok(team.productionEditor.call, 'POST', url(clashing, '/apply'));
    expect(suspended.state).toBe('suspended');
    expect(suspended.suspendedReason).toBe(
      `Yours: Name changed by ${team.admin.email} since this request was drafted.`,
    );
    expect((await feature()).name).toBe('Yours');
    // Its author keeps their name: drafted on what is live now, with the maintainer named as before.
    const rebased = await ok(
      team.productionEditor.call,
      'POST',
      url(suspended, `/changes/${suspended.changes[0]!.id}/rebase`),
      { keep: { name: 'proposed' } },
    );
    expect(rebased.state).toBe('in-review');
    expect(rebased.changes[0]!.changes).toEqual(['Name: Yours became Mine']);
  });

  it('let a member whose role bypasses change requests in every protected environment write directly, audited', async () => {
    const role = await team.admin.call('PUT', '/api/v1/roles', {
      name: 'Release managers',
      grants: [
        { actions: ['bypass'], resources: ['changeRequest'], projects: null, environments: { kind: 'all' } },
      ],
    });
    await team.admin.call('PUT', `/api/v1/roles/${role.json<{ id: string }>().id}/members`, {
      userIds: [team.productionEditor.id],
    });
    const res = await team.productionEditor.call(
      'PUT',
      '/api/v1/projects/web/features',
      await settings({ name: 'Pay' }),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect((await auditTrail(team.admin.call))[0]!.description).toContain('bypassing the change requests');
  });
});

describe('restores through a request', () => {
  beforeEach(async () => protect(team.admin.call, 'production'));

  it('bring an older version of a feature’s settings, or of a segment, forward', async () => {
    await meanwhile(async () =>
      team.admin.call('PUT', '/api/v1/projects/web/features', await settings({ description: 'Newer' })),
    );
    const production = await segment('production');
    await meanwhile(() => team.admin.call('PUT', '/api/v2/segments', { ...production, name: 'Renamed' }));
    const history = async (url: string) => (await team.admin.call('GET', url)).json<VersionPage>().content;
    const settingsHistory = '/api/v1/projects/web/features/checkout/versions';
    const segmentHistory = '/api/v2/segments/web/production/vips/versions';
    // A direct restore is refused like any write.
    const direct = await team.admin.call('POST', `${settingsHistory}/1/restore`, { currentVersion: 2 });
    expect(direct.json()).toMatchObject({ code: 'change_request_required' });

    const author = team.productionEditor.call;
    const draft = await ok(author, 'POST', REQUESTS, { environmentKey: 'production', title: 'Undo' });
    await ok(author, 'POST', url(draft, '/changes'), {
      kind: 'restore',
      of: 'settings',
      featureKey: 'checkout',
      number: 1,
      currentVersion: (await history(settingsHistory))[0]!.number,
    });
    const both = await ok(author, 'POST', url(draft, '/changes'), {
      kind: 'restore',
      of: 'segment',
      segmentKey: 'vips',
      number: 1,
      currentVersion: (await history(segmentHistory))[0]!.number,
    });
    expect(both.changes.map((c) => [c.kind, c.resourceType, c.restoredFrom])).toEqual([
      ['restore', 'feature', 1],
      ['restore', 'segment', 1],
    ]);
    const missing = await author('POST', url(draft, '/changes'), {
      kind: 'restore',
      of: 'segment',
      number: 1,
      currentVersion: 1,
    });
    expect(missing.statusCode).toBe(400);
    await ok(author, 'POST', url(draft, '/submit'));
    await ok(team.admin.call, 'POST', url(draft, '/reviews'), { decision: 'approve' });
    expect((await ok(author, 'POST', url(draft, '/apply'))).state).toBe('applied');
    expect((await feature()).description).toBe('Old');
    expect((await segment('production')).name).toBe('VIPs');
    expect((await history(settingsHistory))[0]).toMatchObject({ source: 'change-request', restoredFrom: 1 });
    expect((await history(segmentHistory))[0]).toMatchObject({ source: 'change-request', restoredFrom: 1 });
  });
});

describe('a segment of a protected environment', () => {
  beforeEach(async () => protect(team.admin.call, 'production'));

  it('is refused as a direct update there but not elsewhere, and changes through a request', async () => {
    const production = await segment('production');
    const direct = await team.admin.call('PUT', '/api/v2/segments', { ...production, name: 'Big spenders' });
    expect(direct.statusCode).toBe(409);
    expect(direct.json()).toMatchObject({ code: 'change_request_required', environmentKey: 'production' });
    const development = await segment('development');
    const elsewhere = await team.admin.call('PUT', '/api/v2/segments', {
      ...development,
      name: 'Big spenders',
    });
    expect(elsewhere.statusCode, elsewhere.body).toBe(200);

    const request = await approved({ kind: 'segment', ...production, name: 'Big spenders' });
    expect(request.changes[0]).toMatchObject({ kind: 'segment', resourceName: 'VIPs', featureKey: null });
    expect((await ok(team.productionEditor.call, 'POST', url(request, '/apply'))).state).toBe('applied');
    expect((await segment('production')).name).toBe('Big spenders');
    // Nothing a user is served depends on a segment's name: the preview has nothing to show.
    const preview = await team.admin.call('POST', url(request, '/preview'), { user: { id: 'u-1' } });
    expect(preview.json()).toEqual({ features: [] });
  });

  it('of another environment cannot be in the request', async () => {
    const draft = await ok(team.productionEditor.call, 'POST', REQUESTS, {
      environmentKey: 'production',
      title: 'No',
    });
    const res = await team.productionEditor.call('POST', url(draft, '/changes'), {
      kind: 'segment',
      ...(await segment('development')),
      name: 'Elsewhere',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      errors: [{ field: 'id', message: 'This segment is not in the environment of this change request.' }],
    });
  });
});
