import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ChangeRequest, Project, Schedule } from '@vexil/core';
import { auditTrail, createTeam, type Team } from '../../../test/api';
import { REQUESTS, controlOf, draftWith, ok, protect } from '../../../test/change-requests';
import { controlBody, createFeature, otherwise } from '../../../test/features';
import { createHarness, type Harness } from '../../../test/helpers';
import { testClock } from '../../../test/integrations';
import { SCHEDULES, act, elapse, schedule, scheduleOf } from '../../../test/schedules';
import { startTestMailServer, type TestMailServer } from '../../../test/smtp-server';
import { TEST_SECRETS_KEY } from '../../../test/sso';

/*
 * What a schedule waits for and who it tells (docs/adr/0025-scheduler.md): a ramp's minimum exposures,
 * an approved change request applied when it falls due, and the author's e-mail when a step stops.
 */

const clock = testClock();
const MINUTE = 60_000;
let h: Harness;
let mail: TestMailServer;
let team: Team;
let project: Project;

beforeAll(async () => {
  mail = await startTestMailServer();
  h = await createHarness(
    { SMTP_URL: mail.url, MAIL_FROM: 'Vexil <no-reply@vexil.test>', SECRETS_KEY: TEST_SECRETS_KEY },
    { now: clock.now },
  );
});
afterAll(async () => {
  await h?.close();
  await mail?.close();
});
beforeEach(async () => {
  clock.reset();
  await h.database.reset();
  mail.received.length = 0;
  team = await createTeam(h);
  project = (
    await team.admin.call('POST', '/api/v1/projects/', { name: 'Web shop', key: 'web' })
  ).json<Project>();
  await createFeature(team.admin.call, 'web', { name: 'Checkout', key: 'checkout' });
  for (const environmentKey of ['development', 'production']) {
    const control = await controlOf(team.admin.call, environmentKey);
    const res = await team.admin.call(
      'PUT',
      '/api/v1/feature-controls/',
      controlBody(control, { enabled: true, rules: [otherwise('off')] }),
    );
    expect(res.statusCode, res.body).toBe(200);
  }
});
afterEach(async () => {
  await h.app.services.queue.settled();
});

/** Impressions of the checkout feature reported by an SDK of the development environment. */
async function impressions(variant: string, count: number) {
  const apiKey = project.environments.find((e) => e.key === 'development')!.apiKey;
  const rows = Array.from({ length: count }, (_, i) => ({
    featureKey: 'checkout',
    evaluatedVariant: variant,
    expectedVariant: null,
    user: `user-${i}`,
  }));
  const res = await h.app.inject({
    method: 'POST',
    url: '/api/sdk/v1/events',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    payload: JSON.stringify(rows),
  });
  expect(res.statusCode).toBe(200);
  await h.app.sdk.ingestion.flush();
}

describe('a ramp step with minimum exposures', () => {
  it('waits after its hold until the rule’s variants were seen often enough', async () => {
    const created = await schedule(team.admin.call, {
      kind: 'ramp',
      featureKey: 'checkout',
      environmentKey: 'development',
      ruleIndex: 0,
      variantKey: 'on',
      steps: [
        { coverage: 20, holdSeconds: 60, minExposures: 5 },
        { coverage: 100, holdSeconds: 60 },
      ],
    });
    await elapse(h, clock, 0);
    await impressions('off', 2);
    await elapse(h, clock, MINUTE);
    let now = await scheduleOf(team.admin.call, created.id);
    expect(now).toMatchObject({ state: 'running', currentStep: 0, exposures: { seen: 2, needed: 5 } });
    const early = await act(team.admin.call, created.id, 'approve');
    expect(early.statusCode).toBe(400);
    expect(early.json().title).toBe('Step 1 has seen 2 of the 5 exposures it waits for.');

    await impressions('on', 3);
    await elapse(h, clock, 20_000);
    now = await scheduleOf(team.admin.call, created.id);
    expect(now.currentStep).toBe(1);
    expect((await controlOf(team.admin.call, 'development')).rules[0]!.variantSplits[0]).toEqual({
      variantKey: 'on',
      split: 100,
    });
  });
});

describe('a scheduled change request', () => {
  beforeEach(async () => protect(team.admin.call, 'production', { allowSelfApproval: false }));

  async function submitted(): Promise<ChangeRequest> {
    const draft = await draftWith(team.productionEditor.call, 'production', { rules: [otherwise('on')] });
    return ok(team.productionEditor.call, 'POST', `${REQUESTS}/${draft.id}/submit`);
  }

  it('is applied as the approved request itself when it falls due', async () => {
    const request = await submitted();
    await ok(team.admin.call, 'POST', `${REQUESTS}/${request.id}/reviews`, { decision: 'approve' });
    const created = await schedule(team.productionEditor.call, {
      kind: 'once',
      featureKey: 'checkout',
      environmentKey: 'production',
      at: new Date(clock.now().getTime() + MINUTE).toISOString(),
      change: { changeRequestId: request.id },
    });
    expect((await controlOf(team.admin.call, 'production')).rules).toEqual([otherwise('off')]);
    await elapse(h, clock, 2 * MINUTE);
    expect((await scheduleOf(team.admin.call, created.id)).reason).toBeNull();
    expect((await scheduleOf(team.admin.call, created.id)).state).toBe('completed');
    expect((await controlOf(team.admin.call, 'production')).rules).toEqual([otherwise('on')]);
    const applied = (await team.admin.call('GET', `${REQUESTS}/${request.id}`)).json<ChangeRequest>();
    expect(applied.state).toBe('applied');
  });

  it('is suspended when the request is still waiting for its approval, and its author is told', async () => {
    const request = await submitted();
    const created = await schedule(team.productionEditor.call, {
      kind: 'once',
      featureKey: 'checkout',
      environmentKey: 'production',
      at: new Date(clock.now().getTime() + MINUTE).toISOString(),
      change: { changeRequestId: request.id },
    });
    await elapse(h, clock, 2 * MINUTE);
    const now = await scheduleOf(team.admin.call, created.id);
    expect(now.state).toBe('suspended');
    expect(now.reason).toMatch(/^The change request was not applied: /);
    expect((await controlOf(team.admin.call, 'production')).rules).toEqual([otherwise('off')]);
    // The reviewers were asked for their review when it was submitted; then its author is told.
    const told = (await mail.waitFor(2)).find((m) => m.message.subject?.startsWith('Schedule'));
    expect(told!.to).toEqual([team.productionEditor.email]);
    expect(told!.message.subject).toBe('Schedule suspended: The scheduled change of Checkout in Production');
    expect(told!.message.text).toContain('/projects/web/environments/production/features/checkout/targeting');
  });

  it('makes a ramp drafted into a change request once it is applied, its steps approved by it', async () => {
    const ramp = {
      kind: 'ramp' as const,
      featureKey: 'checkout',
      environmentKey: 'production',
      ruleIndex: 0,
      variantKey: 'on',
      steps: [
        { coverage: 10, holdSeconds: 60 },
        { coverage: 100, holdSeconds: 60 },
      ],
    };
    const refused = await team.productionEditor.call('POST', SCHEDULES, ramp);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'change_request_required' });

    const author = team.productionEditor.call;
    const draft = await ok(author, 'POST', REQUESTS, {
      environmentKey: 'production',
      title: 'Ramp checkout',
    });
    const elsewhere = await author('POST', `${REQUESTS}/${draft.id}/changes`, {
      kind: 'schedule',
      schedule: { ...ramp, environmentKey: 'development' },
    });
    expect(elsewhere.statusCode).toBe(400);
    const drafted = await ok(author, 'POST', `${REQUESTS}/${draft.id}/changes`, {
      kind: 'schedule',
      schedule: ramp,
    });
    expect(drafted.changes).toMatchObject([
      {
        kind: 'schedule',
        featureKey: 'checkout',
        changes: ['Schedules: Ramp on in rule 1 to 100 % in 2 steps'],
      },
    ]);
    // Nothing is scheduled until the request is applied.
    expect(await scheduleList()).toEqual([]);
    await ok(author, 'POST', `${REQUESTS}/${draft.id}/submit`);
    await ok(team.admin.call, 'POST', `${REQUESTS}/${draft.id}/reviews`, { decision: 'approve' });
    const applied = await ok(author, 'POST', `${REQUESTS}/${draft.id}/apply`);
    expect(applied.state).toBe('applied');

    const [made] = await scheduleList();
    expect(made).toMatchObject({ kind: 'ramp', author: { name: team.productionEditor.email } });
    expect(made!.id).toBe(drafted.changes[0]!.resourceId);
    await elapse(h, clock, 0);
    await elapse(h, clock, MINUTE);
    const now = await scheduleOf(team.admin.call, made!.id);
    expect(now).toMatchObject({ state: 'running', currentStep: 1 });
    expect((await controlOf(team.admin.call, 'production')).rules[0]!.variantSplits[0]).toEqual({
      variantKey: 'on',
      split: 100,
    });
    const [entry] = await auditTrail(team.admin.call);
    expect(entry!.description).toContain('approved through a change request');
  });

  it('is refused when the request is another environment’s or still a draft, or the member may not apply it', async () => {
    const draft = await draftWith(team.productionEditor.call, 'production', { enabled: false });
    const body = (changeRequestId: string, environmentKey = 'production') => ({
      kind: 'once',
      featureKey: 'checkout',
      environmentKey,
      at: new Date(clock.now().getTime() + MINUTE).toISOString(),
      change: { changeRequestId },
    });
    const asDraft = await team.productionEditor.call('POST', SCHEDULES, body(draft.id));
    expect(asDraft.statusCode).toBe(400);
    expect(asDraft.json().title).toBe('Only a submitted or approved change request can be scheduled.');
    const elsewhere = await team.admin.call('POST', SCHEDULES, body(draft.id, 'development'));
    expect(elsewhere.statusCode).toBe(400);
    const request = await submitted();
    const stranger = await team.editor.call('POST', SCHEDULES, body(request.id));
    expect(stranger.statusCode).toBe(403);
    expect(((await scheduleList()) as Schedule[]).length).toBe(0);
  });
});

async function scheduleList() {
  return (await team.admin.call('GET', SCHEDULES)).json<{ schedules: Schedule[] }>().schedules;
}
