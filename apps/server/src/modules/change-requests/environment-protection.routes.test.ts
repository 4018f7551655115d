import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_APPROVAL_SETTINGS, changeRequestRequiredMessage, type Role } from '@vexil/core';
import { auditTrail, createTeam, type Team } from '../../../test/api';
import { REQUESTS, controlOf, ok, protect, settingsUrl } from '../../../test/change-requests';
import { controlBody, createFeature } from '../../../test/features';
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
  await createFeature(team.admin.call, 'web', { name: 'Checkout', key: 'checkout' });
});

describe('approval settings', () => {
  it('start as the defaults, are read by admins and production editors and saved by admins only', async () => {
    const read = await team.productionEditor.call('GET', settingsUrl('production'));
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json()).toEqual(DEFAULT_APPROVAL_SETTINGS);
    expect((await team.editor.call('GET', settingsUrl('production'))).statusCode).toBe(403);
    const denied = await team.productionEditor.call('PUT', settingsUrl('production'), {
      ...DEFAULT_APPROVAL_SETTINGS,
      required: true,
    });
    expect(denied.statusCode).toBe(403);
    await protect(team.admin.call, 'production', { minApprovals: 2 });
    expect((await team.admin.call('GET', settingsUrl('production'))).json()).toMatchObject({
      required: true,
      minApprovals: 2,
    });
    expect((await auditTrail(team.admin.call))[0]!.title).toBe('Change requests turned on in Production');
  });

  it('refuse a count of approvals outside 1–5 with the field named, and are 404 to another organisation', async () => {
    const res = await team.admin.call('PUT', settingsUrl('production'), {
      ...DEFAULT_APPROVAL_SETTINGS,
      minApprovals: 6,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'invalid',
      errors: [{ field: 'minApprovals', message: 'At most 5 approvals may be asked for.' }],
    });
    expect((await team.outsider.call('GET', settingsUrl('production'))).statusCode).toBe(404);
    expect(
      (await team.outsider.call('PUT', settingsUrl('production'), DEFAULT_APPROVAL_SETTINGS)).statusCode,
    ).toBe(404);
  });
});

describe('a protected environment', () => {
  beforeEach(async () => protect(team.admin.call, 'production'));

  it('refuses every direct write of a control there with 409 change_request_required, and nowhere else', async () => {
    const control = await controlOf(team.admin.call, 'production');
    const attempts = [
      () => team.admin.call('PUT', '/api/v1/feature-controls/', controlBody(control, { enabled: true })),
      () =>
        team.productionEditor.call('PUT', `/api/v1/feature-controls/${control.id}/enabled`, {
          enabled: true,
        }),
      () =>
        team.admin.call(
          'POST',
          '/api/v1/projects/web/features/checkout/versions/1/restore?environmentKey=production',
          {
            currentVersion: 1,
          },
        ),
    ];
    for (const attempt of attempts) {
      const res = await attempt();
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json()).toEqual({
        title: changeRequestRequiredMessage('Production'),
        code: 'change_request_required',
        environmentKey: 'production',
      });
    }
    expect((await controlOf(team.admin.call, 'production')).enabled).toBe(false);
    // An access token is refused alike.
    const token = await team.admin.call('POST', '/api/internal/v1/tokens', { name: 'ci' });
    const byToken = await h.app.inject({
      method: 'PUT',
      url: `/api/v1/feature-controls/${control.id}/enabled`,
      headers: { authorization: `Bearer ${token.json<{ key: string }>().key}` },
      payload: { enabled: true },
    });
    expect(byToken.statusCode).toBe(409);
    // Development asks for nothing.
    const development = await controlOf(team.admin.call, 'development');
    const direct = await team.editor.call('PUT', `/api/v1/feature-controls/${development.id}/enabled`, {
      enabled: true,
    });
    expect(direct.statusCode, direct.body).toBe(200);
  });

  it('names the writer’s open draft there, so the dashboard adds the change to it', async () => {
    const draft = await ok(team.productionEditor.call, 'POST', REQUESTS, {
      environmentKey: 'production',
      title: 'Spring sale',
    });
    const control = await controlOf(team.admin.call, 'production');
    const mine = await team.productionEditor.call('PUT', `/api/v1/feature-controls/${control.id}/enabled`, {
      enabled: true,
    });
    expect(mine.json()).toMatchObject({ code: 'change_request_required', changeRequestId: draft.id });
    // Every member may read the policy: the editor learns production is protected before writing.
    const policy = (call = team.productionEditor.call) =>
      call('GET', '/api/v1/projects/web/environments/production/change-request-policy');
    expect((await policy()).json()).toEqual({ required: true, mayBypass: false, changeRequestId: draft.id });
    expect((await policy(team.editor.call)).json()).toEqual({
      required: true,
      mayBypass: false,
      changeRequestId: null,
    });
    expect((await policy(team.outsider.call)).statusCode).toBe(404);
    // Once submitted, the request that changes this control is still where its next change goes.
    await ok(team.productionEditor.call, 'POST', `${REQUESTS}/${draft.id}/changes`, {
      kind: 'control',
      ...controlBody(control, { enabled: true }),
    });
    await ok(team.productionEditor.call, 'POST', `${REQUESTS}/${draft.id}/submit`);
    const again = await team.productionEditor.call('PUT', `/api/v1/feature-controls/${control.id}/enabled`, {
      enabled: false,
    });
    expect(again.json()).toMatchObject({ changeRequestId: draft.id });
    const forControl = await team.productionEditor.call(
      'GET',
      `/api/v1/projects/web/environments/production/change-request-policy?featureControlId=${control.id}`,
    );
    expect(forControl.json()).toMatchObject({ changeRequestId: draft.id });
    expect((await policy()).json()).toMatchObject({ changeRequestId: null });
    // Someone else's draft is not theirs to add to.
    const theirs = await team.admin.call('PUT', `/api/v1/feature-controls/${control.id}/enabled`, {
      enabled: true,
    });
    expect(theirs.json()).not.toHaveProperty('changeRequestId');
  });

  it('lets a member whose role grants bypass write directly, audited as a bypass', async () => {
    const role = await team.admin.call('PUT', '/api/v1/roles', {
      name: 'Release managers',
      grants: [
        { actions: ['bypass'], resources: ['changeRequest'], projects: null, environments: { kind: 'all' } },
      ],
    });
    expect(role.statusCode, role.body).toBeLessThan(300);
    const members = await team.admin.call('PUT', `/api/v1/roles/${role.json<Role>().id}/members`, {
      userIds: [team.productionEditor.id],
    });
    expect(members.statusCode, members.body).toBeLessThan(300);
    const control = await controlOf(team.admin.call, 'production');
    const res = await team.productionEditor.call('PUT', `/api/v1/feature-controls/${control.id}/enabled`, {
      enabled: true,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await auditTrail(team.admin.call))[0]!.description).toContain(
      'bypassing the change requests this environment asks for',
    );
    // Turned off again, the environment takes direct writes from everyone.
    await protect(team.admin.call, 'production', { required: false });
    const direct = await team.admin.call('PUT', `/api/v1/feature-controls/${control.id}/enabled`, {
      enabled: false,
    });
    expect(direct.statusCode, direct.body).toBe(200);
  });
});
