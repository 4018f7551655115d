import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AUTHORITIES, CHANGE_REQUEST_REFUSALS, type ChangeRequest } from '@vexil/core';
import { callerFor, createTeam, type Caller, type Team } from '../../../test/api';
import { REQUESTS, controlOf, draftWith, ok, protect, versionsOf } from '../../../test/change-requests';
import { controlBody, createFeature, otherwise, rule } from '../../../test/features';
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
  await team.admin.call('POST', '/api/v1/projects/web/targets', { key: 'country', name: 'Country' });
  await createFeature(team.admin.call, 'web', { name: 'Checkout', key: 'checkout' });
  await protect(team.admin.call, 'production');
});

const url = (request: ChangeRequest, rest = '') => `${REQUESTS}/${request.id}${rest}`;

/** Someone changes production directly meanwhile: the admin lifts the protection for one write. */
async function changedMeanwhile(changes: Parameters<typeof controlBody>[1]) {
  await protect(team.admin.call, 'production', { required: false });
  const control = await controlOf(team.admin.call, 'production');
  const res = await team.admin.call('PUT', '/api/v1/feature-controls/', controlBody(control, changes));
  expect(res.statusCode, res.body).toBe(200);
  await protect(team.admin.call, 'production');
}

async function approved(changes: Parameters<typeof controlBody>[1]) {
  const draft = await draftWith(team.productionEditor.call, 'production', changes);
  await ok(team.productionEditor.call, 'POST', url(draft, '/submit'));
  await ok(team.admin.call, 'POST', url(draft, '/reviews'), { decision: 'approve' });
  return draft;
}

describe('applying a request whose control changed since it was drafted', () => {
  it('merges a change of another part: both stay', async () => {
    const request = await approved({ rules: [rule('country', 'in', ['NZ']), otherwise('off')] });
    await changedMeanwhile({ enabled: true });
    const before = await ok(team.productionEditor.call, 'GET', url(request));
    expect(before.changes[0]).toMatchObject({ baseVersion: 1, liveVersion: 2, conflicts: [] });
    const applied = await ok(team.productionEditor.call, 'POST', url(request, '/apply'));
    expect(applied.state).toBe('applied');
    const control = await controlOf(team.admin.call, 'production');
    expect(control.enabled).toBe(true);
    expect(JSON.stringify(control.rules)).toContain('NZ');
    expect((await versionsOf(team.admin.call, 'production')).content[0]).toMatchObject({
      number: 3,
      source: 'change-request',
    });
  });

  it('suspends on a part both changed differently, naming it and who changed it; writes nothing; the author brings it up to date', async () => {
    const request = await approved({ rules: [rule('country', 'in', ['NZ']), otherwise('off')] });
    await changedMeanwhile({ rules: [rule('country', 'in', ['AU']), otherwise('off')] });
    const suspended = await ok(team.productionEditor.call, 'POST', url(request, '/apply'));
    expect(suspended.state).toBe('suspended');
    expect(suspended.suspendedReason).toBe(
      `Checkout: Rules changed by ${team.admin.email} since this request was drafted.`,
    );
    expect(suspended.changes[0]!.conflicts).toMatchObject([{ part: 'rules', label: 'Rules' }]);
    expect(suspended.timeline.at(-1)).toMatchObject({ kind: 'suspended', text: suspended.suspendedReason });
    expect(JSON.stringify((await controlOf(team.admin.call, 'production')).rules)).not.toContain('NZ');
    expect((await versionsOf(team.admin.call, 'production')).content).toHaveLength(2);
    const stillSuspended = await team.productionEditor.call('POST', url(request, '/apply'));
    expect(stillSuspended.json()).toMatchObject({ title: CHANGE_REQUEST_REFUSALS.notApproved });

    // The author keeps both countries, drafted on what is live now; it goes back to review.
    const control = await controlOf(team.productionEditor.call, 'production');
    const rebased = await ok(team.productionEditor.call, 'POST', url(request, '/changes'), {
      kind: 'control',
      ...controlBody(control, { rules: [rule('country', 'in', ['AU', 'NZ']), otherwise('off')] }),
      lastModifiedDate: control.lastModifiedDate,
    });
    expect(rebased).toMatchObject({ state: 'in-review', approvals: 0, suspendedReason: null });
    expect(rebased.changes[0]).toMatchObject({ baseVersion: 2, liveVersion: 2, conflicts: [] });
    await ok(team.admin.call, 'POST', url(request, '/reviews'), { decision: 'approve' });
    expect((await ok(team.productionEditor.call, 'POST', url(request, '/apply'))).state).toBe('applied');
    expect(JSON.stringify((await controlOf(team.admin.call, 'production')).rules)).toContain('"AU","NZ"');
  });

  it('is brought up to date by its author, who keeps one side of each conflict; the rest merges', async () => {
    const request = await approved({
      enabled: true,
      rules: [rule('country', 'in', ['NZ']), otherwise('off')],
    });
    await changedMeanwhile({ offVariantKey: 'on', rules: [rule('country', 'in', ['AU']), otherwise('off')] });
    const suspended = await ok(team.productionEditor.call, 'POST', url(request, '/apply'));
    expect(suspended.changes[0]!.conflicts.map((c) => c.part)).toEqual(['rules']);
    const rebase = url(request, `/changes/${suspended.changes[0]!.id}/rebase`);
    const unchosen = await team.productionEditor.call('POST', rebase, { keep: {} });
    expect(unchosen.statusCode).toBe(400);
    expect(unchosen.json()).toMatchObject({ title: 'Choose what to keep for Rules.' });
    expect((await team.admin.call('POST', rebase, { keep: { rules: 'proposed' } })).statusCode).toBe(403);

    const rebased = await ok(team.productionEditor.call, 'POST', rebase, { keep: { rules: 'proposed' } });
    expect(rebased).toMatchObject({ state: 'in-review', suspendedReason: null });
    expect(rebased.changes[0]).toMatchObject({ baseVersion: 2, liveVersion: 2, conflicts: [] });
    // Its own part (on), the other side's (off variant On), and the rules it chose (New Zealand).
    expect(rebased.changes[0]!.merged).toMatchObject({ enabled: true, offVariantKey: 'on' });
    await ok(team.admin.call, 'POST', url(request, '/reviews'), { decision: 'approve' });
    expect((await ok(team.productionEditor.call, 'POST', url(request, '/apply'))).state).toBe('applied');
    const control = await controlOf(team.admin.call, 'production');
    expect(control).toMatchObject({ enabled: true, offVariantKey: 'on' });
    expect(JSON.stringify(control.rules)).toContain('NZ');
    expect(JSON.stringify(control.rules)).not.toContain('AU');
  });

  it('writes all of its changes or none: one that no longer holds fails the apply and leaves the others unwritten', async () => {
    await createFeature(team.admin.call, 'web', { name: 'Search', key: 'search' });
    const draft = await draftWith(team.productionEditor.call, 'production', { enabled: true });
    const search = (await team.admin.call('GET', '/api/v1/projects/web/features/search')).json<{
      controls: Record<string, { id: string; rules: unknown[] }>;
    }>().controls['production']!;
    await team.admin.call('POST', '/api/v1/projects/web/targets', {
      key: 'cohorts',
      name: 'Cohorts',
      type: 'segment',
    });
    const segment = await team.admin.call('POST', '/api/v2/segments/', {
      projectKey: 'web',
      environmentKey: 'production',
      key: 'beta-testers',
      name: 'Beta testers',
    });
    expect(segment.statusCode, segment.body).toBe(201);
    await ok(team.productionEditor.call, 'POST', url(draft, '/changes'), {
      kind: 'control',
      id: search.id,
      enabled: true,
      offVariantKey: 'off',
      rules: [rule('cohorts', 'in', ['beta-testers']), otherwise('off')],
    });
    await ok(team.productionEditor.call, 'POST', url(draft, '/submit'));
    await ok(team.admin.call, 'POST', url(draft, '/reviews'), { decision: 'approve' });
    // The segment its rule names is deleted meanwhile (no live rule uses it): that change no longer holds.
    const removed = await team.admin.call('DELETE', `/api/v2/segments/${segment.json<{ id: string }>().id}`);
    expect(removed.statusCode, removed.body).toBe(204);
    const failed = await team.productionEditor.call('POST', url(draft, '/apply'));
    expect(failed.statusCode, failed.body).toBe(400);
    expect(failed.json<{ title: string }>().title).toContain('beta-testers');
    expect((await controlOf(team.admin.call, 'production')).enabled).toBe(false);
    expect((await ok(team.productionEditor.call, 'GET', url(draft))).state).toBe('approved');
  });
});

describe('at the same time', () => {
  async function secondAdmin(): Promise<Caller> {
    const user = await h.createUser(team.admin.organisationId, team.admin.domain, {
      authority: AUTHORITIES.ROLE_ORGANISATION_ADMIN,
    });
    return callerFor(h.app, await h.login(user));
  }

  it('two approvers approving the last approval with autoApply apply once', async () => {
    await protect(team.admin.call, 'production', { autoApply: true });
    const draft = await draftWith(team.productionEditor.call, 'production', { enabled: true });
    await ok(team.productionEditor.call, 'POST', url(draft, '/submit'));
    const other = await secondAdmin();
    const answers = await Promise.all(
      [team.admin.call, other].map((call) => call('POST', url(draft, '/reviews'), { decision: 'approve' })),
    );
    expect(answers.map((res) => res.statusCode).sort()).toEqual([200, 409]);
    expect((await ok(team.admin.call, 'GET', url(draft))).state).toBe('applied');
    expect((await versionsOf(team.admin.call, 'production')).content).toHaveLength(2);
  });

  it('two appliers apply once', async () => {
    const draft = await approved({ enabled: true });
    const answers = await Promise.all(
      [team.admin.call, team.productionEditor.call].map((call) => call('POST', url(draft, '/apply'))),
    );
    expect(answers.map((res) => res.statusCode).sort()).toEqual([200, 409]);
    expect((await versionsOf(team.admin.call, 'production')).content).toHaveLength(2);
  });
});
