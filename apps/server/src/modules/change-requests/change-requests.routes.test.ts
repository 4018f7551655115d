import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CHANGE_REQUEST_REFUSALS, type ChangeRequest, type ChangeRequestPage } from '@vexil/core';
import { createTeam, type Team } from '../../../test/api';
import { REQUESTS, controlOf, draftWith, ok, protect, versionsOf } from '../../../test/change-requests';
import { createFeature, otherwise, rule } from '../../../test/features';
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
});

const url = (request: ChangeRequest, rest = '') => `${REQUESTS}/${request.id}${rest}`;

describe('a change request, drafted to applied', () => {
  beforeEach(async () => protect(team.admin.call, 'production'));

  it('is drafted, submitted, approved by someone else and applied as one version from the request', async () => {
    const author = team.productionEditor.call;
    const draft = await draftWith(author, 'production', { enabled: true });
    expect(draft).toMatchObject({
      state: 'draft',
      changeCount: 1,
      author: { name: team.productionEditor.email },
      changes: [{ kind: 'control', featureKey: 'checkout', baseVersion: 1, changes: ['Turned on'] }],
    });
    expect(draft.actions.submit).toEqual({ allowed: true, reason: null });
    expect(draft.actions.approve).toEqual({
      allowed: false,
      reason: CHANGE_REQUEST_REFUSALS.draftOnlyForAuthor,
    });
    // Nothing is live until it is applied.
    expect((await controlOf(author, 'production')).enabled).toBe(false);

    const submitted = await ok(author, 'POST', url(draft, '/submit'));
    expect(submitted.state).toBe('in-review');
    expect(submitted.actions.approve).toEqual({
      allowed: false,
      reason: CHANGE_REQUEST_REFUSALS.selfApproval,
    });
    const own = await author('POST', url(draft, '/reviews'), { decision: 'approve' });
    expect(own.statusCode).toBe(403);
    expect(own.json()).toMatchObject({ title: CHANGE_REQUEST_REFUSALS.selfApproval });
    const notYet = await author('POST', url(draft, '/apply'));
    expect(notYet.statusCode).toBe(409);
    expect(notYet.json()).toMatchObject({ code: 'conflict', title: CHANGE_REQUEST_REFUSALS.notApproved });

    const approved = await ok(team.admin.call, 'POST', url(draft, '/reviews'), {
      decision: 'approve',
      comment: 'Ship it',
    });
    expect(approved).toMatchObject({ state: 'approved', approvals: 1, minApprovals: 1 });
    const applied = await ok(author, 'POST', url(draft, '/apply'));
    expect(applied.state).toBe('applied');
    // Once applied, the page says what it changed (not that nothing is left to change).
    expect(applied.changes[0]!.changes).toEqual(['Turned on']);
    expect(applied.timeline.map((entry) => entry.kind)).toEqual([
      'created',
      'change-added',
      'submitted',
      'review',
      'applied',
    ]);
    expect(applied.timeline[3]).toMatchObject({
      decision: 'approve',
      text: 'Ship it',
      by: { name: team.admin.email },
    });

    expect((await controlOf(author, 'production')).enabled).toBe(true);
    const versions = await versionsOf(author, 'production');
    expect(versions.content.map((v) => [v.number, v.source, v.changes])).toEqual([
      [2, 'change-request', ['Turned on']],
      [1, 'ui', expect.any(Array)],
    ]);
    expect(versions.content[0]!.changeRequestId).toBe(draft.id);
    // Applied is final.
    const again = await author('POST', url(draft, '/apply'));
    expect(again.json()).toMatchObject({ title: CHANGE_REQUEST_REFUSALS.closed });
    expect(versions.content).toHaveLength(2);
  });

  it('a later change of the same control replaces the earlier one, and a change can be removed', async () => {
    const author = team.productionEditor.call;
    const draft = await draftWith(author, 'production', { enabled: true });
    const control = await controlOf(author, 'production');
    const replaced = await ok(author, 'POST', url(draft, '/changes'), {
      kind: 'control',
      id: control.id,
      enabled: true,
      offVariantKey: 'off',
      rules: [rule('country', 'in', ['NZ']), otherwise('off')],
    });
    expect(replaced.changes).toHaveLength(1);
    expect(replaced.changes[0]!.changes.join(' ')).toContain('NZ');
    const removed = await ok(author, 'DELETE', url(draft, `/changes/${replaced.changes[0]!.id}`));
    expect(removed.changes).toEqual([]);
    const empty = await author('POST', url(draft, '/submit'));
    expect(empty.json()).toMatchObject({ title: CHANGE_REQUEST_REFUSALS.empty });
    // Only its author edits it.
    const theirs = await team.admin.call('DELETE', url(draft, `/changes/${replaced.changes[0]!.id}`));
    expect(theirs.statusCode).toBe(403);
  });

  it('refuses a change that would not hold, or of another environment, naming why', async () => {
    const author = team.productionEditor.call;
    const draft = await ok(author, 'POST', REQUESTS, { environmentKey: 'production', title: 'Bad' });
    const production = await controlOf(author, 'production');
    const unknownVariant = await author('POST', url(draft, '/changes'), {
      kind: 'control',
      id: production.id,
      enabled: true,
      offVariantKey: 'missing',
      rules: [otherwise('on')],
    });
    expect(unknownVariant.statusCode).toBe(400);
    const development = await controlOf(author, 'development');
    const elsewhere = await author('POST', url(draft, '/changes'), {
      kind: 'control',
      id: development.id,
      enabled: true,
      offVariantKey: 'off',
      rules: development.rules,
    });
    expect(elsewhere.statusCode).toBe(400);
    expect(elsewhere.json()).toMatchObject({
      errors: [
        { field: 'id', message: 'This feature control is not in the environment of this change request.' },
      ],
    });
    // An editor without production rights may not draft production changes.
    const editor = await team.editor.call('POST', REQUESTS, { environmentKey: 'production', title: 'No' });
    expect(editor.statusCode).toBe(403);
  });

  it('withdraws approvals when the request changes in review, and asks for them again', async () => {
    await protect(team.admin.call, 'production', { minApprovals: 2 });
    const author = team.productionEditor.call;
    const draft = await draftWith(author, 'production', { enabled: true });
    await ok(author, 'POST', url(draft, '/submit'));
    const once = await ok(team.admin.call, 'POST', url(draft, '/reviews'), { decision: 'approve' });
    expect(once).toMatchObject({ state: 'in-review', approvals: 1 });
    const asked = await ok(team.admin.call, 'POST', url(draft, '/reviews'), {
      decision: 'request-changes',
      comment: 'Only New Zealand first',
    });
    expect(asked.changesRequestedBy).toEqual([team.admin.email]);
    const control = await controlOf(author, 'production');
    const edited = await ok(author, 'POST', url(draft, '/changes'), {
      kind: 'control',
      id: control.id,
      enabled: true,
      offVariantKey: 'off',
      rules: [rule('country', 'in', ['NZ']), otherwise('off')],
    });
    expect(edited).toMatchObject({ state: 'in-review', approvals: 0, round: 1, changesRequestedBy: [] });
  });

  it('keeps approvals across edits when the settings say so', async () => {
    await protect(team.admin.call, 'production', { resetApprovalsOnChange: false });
    const author = team.productionEditor.call;
    const draft = await draftWith(author, 'production', { enabled: true });
    await ok(author, 'POST', url(draft, '/submit'));
    await ok(team.admin.call, 'POST', url(draft, '/reviews'), { decision: 'approve' });
    const control = await controlOf(author, 'production');
    const edited = await ok(author, 'POST', url(draft, '/changes'), {
      kind: 'control',
      id: control.id,
      enabled: true,
      offVariantKey: 'on',
      rules: control.rules,
    });
    expect(edited).toMatchObject({ state: 'approved', approvals: 1 });
  });

  it('lets the author approve their own only with allowSelfApproval, and applies on the last approval with autoApply', async () => {
    await protect(team.admin.call, 'production', { allowSelfApproval: true, autoApply: true });
    const author = team.productionEditor.call;
    const draft = await draftWith(author, 'production', { enabled: true });
    await ok(author, 'POST', url(draft, '/submit'));
    const applied = await ok(author, 'POST', url(draft, '/reviews'), { decision: 'approve' });
    expect(applied.state).toBe('applied');
    expect((await controlOf(author, 'production')).enabled).toBe(true);
  });

  it('a rejection is final; the author or an admin may cancel', async () => {
    const author = team.productionEditor.call;
    const rejected = await draftWith(author, 'production', { enabled: true });
    await ok(author, 'POST', url(rejected, '/submit'));
    const answer = await ok(team.admin.call, 'POST', url(rejected, '/reviews'), {
      decision: 'reject',
      comment: 'Not during the freeze',
    });
    expect(answer.state).toBe('rejected');
    expect((await author('POST', url(rejected, '/submit'))).statusCode).toBe(409);
    const cancelled = await draftWith(author, 'production', { enabled: true }, 'Second try');
    expect((await team.editor.call('POST', url(cancelled, '/cancel'))).statusCode).toBe(403);
    expect((await ok(team.admin.call, 'POST', url(cancelled, '/cancel'))).state).toBe('cancelled');
  });
});

describe('preview for a user', () => {
  it('shows, per changed feature, what one user is served now and once the request is applied', async () => {
    await protect(team.admin.call, 'production');
    const draft = await draftWith(team.productionEditor.call, 'production', {
      enabled: true,
      rules: [rule('country', 'in', ['NZ']), otherwise('off')],
    });
    const preview = async (attributes: Record<string, string>) => {
      const res = await team.readOnly.call('POST', url(draft, '/preview'), {
        user: { id: 'u-1', attributes },
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json();
    };
    expect(await preview({ country: 'NZ' })).toEqual({
      features: [
        {
          featureKey: 'checkout',
          featureName: 'Checkout',
          before: { variantKey: 'off', variantName: expect.any(String) },
          after: { variantKey: 'on', variantName: expect.any(String) },
        },
      ],
    });
    expect((await preview({ country: 'FR' })).features[0].after.variantKey).toBe('off');
    const bad = await team.readOnly.call('POST', url(draft, '/preview'), { user: {} });
    expect(bad.statusCode).toBe(400);
  });
});

describe('lists and counts', () => {
  it('filters by state, author and reviewer, and counts what waits for each member', async () => {
    await protect(team.admin.call, 'production');
    const mine = await draftWith(team.productionEditor.call, 'production', { enabled: true });
    await ok(team.productionEditor.call, 'POST', url(mine, '/submit'));
    await ok(team.admin.call, 'POST', REQUESTS, { environmentKey: 'production', title: 'Admin draft' });
    const page = async (call = team.admin.call, query = '') => {
      const res = await call('GET', `${REQUESTS}${query}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json<ChangeRequestPage>();
    };
    expect((await page()).content.map((r) => r.title)).toEqual(['Admin draft', 'Launch checkout']);
    expect((await page(team.admin.call, '?state=in-review')).content.map((r) => r.title)).toEqual([
      'Launch checkout',
    ]);
    expect((await page(team.admin.call, '?author=me')).totalElements).toBe(1);
    expect((await page(team.admin.call, '?reviewer=me')).content.map((r) => r.title)).toEqual([
      'Launch checkout',
    ]);
    // The author does not review their own; an editor cannot approve production.
    expect((await page(team.productionEditor.call, '?reviewer=me')).totalElements).toBe(0);
    const waiting = async (call = team.admin.call) =>
      (await call('GET', '/api/v1/change-requests/waiting')).json();
    expect(await waiting()).toEqual({ count: 1 });
    expect(await waiting(team.editor.call)).toEqual({ count: 0 });
    await ok(team.admin.call, 'POST', url(mine, '/reviews'), { decision: 'approve' });
    expect(await waiting()).toEqual({ count: 0 });
    const bad = await team.admin.call('GET', `${REQUESTS}?state=merged`);
    expect(bad.statusCode).toBe(400);
  });

  it('another organisation finds no request of this one', async () => {
    await protect(team.admin.call, 'production');
    const draft = await draftWith(team.admin.call, 'production', { enabled: true });
    expect((await team.outsider.call('GET', url(draft))).statusCode).toBe(404);
    expect((await team.outsider.call('POST', url(draft, '/cancel'))).statusCode).toBe(404);
    await team.outsider.call('POST', '/api/v1/projects/', { name: 'Web shop', key: 'web' });
    expect((await team.outsider.call('GET', url(draft))).statusCode).toBe(404);
    expect((await team.outsider.call('GET', REQUESTS)).json<ChangeRequestPage>().totalElements).toBe(0);
  });
});
