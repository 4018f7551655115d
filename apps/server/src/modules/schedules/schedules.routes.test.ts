import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Project, Schedule, ScheduleList } from '@vexil/core';
import { auditTrail, callerFor, createTeam, type Team } from '../../../test/api';
import { controlOf, protect, versionsOf } from '../../../test/change-requests';
import { controlBody, createFeature, otherwise, rule } from '../../../test/features';
import { createHarness, type Harness } from '../../../test/helpers';
import { testClock } from '../../../test/integrations';
import { SCHEDULES, act, elapse, payloadEtag, schedule, scheduleOf } from '../../../test/schedules';

const clock = testClock();
const MINUTE = 60_000;
let h: Harness;
let team: Team;
let project: Project;

beforeAll(async () => {
  h = await createHarness({}, { now: clock.now });
});
afterAll(async () => {
  await h.close();
});
beforeEach(async () => {
  clock.reset();
  await h.database.reset();
  team = await createTeam(h);
  project = (
    await team.admin.call('POST', '/api/v1/projects/', { name: 'Web shop', key: 'web' })
  ).json<Project>();
  await team.admin.call('POST', '/api/v1/projects/web/targets', { key: 'country', name: 'Country' });
  await createFeature(team.admin.call, 'web', { name: 'Checkout', key: 'checkout' });
  // Everyone gets "off" while the control is on: what a ramp of "on" starts from.
  for (const environmentKey of ['development', 'production']) {
    const control = await controlOf(team.admin.call, environmentKey);
    const res = await team.admin.call(
      'PUT',
      '/api/v1/feature-controls/',
      controlBody(control, { rules: [otherwise('off')] }),
    );
    expect(res.statusCode, res.body).toBe(200);
  }
});
afterEach(async () => {
  await h.app.services.queue.settled();
});

const inAMinute = () => new Date(clock.now().getTime() + MINUTE).toISOString();
const apiKeyOf = (environmentKey: string) =>
  project.environments.find((e) => e.key === environmentKey)!.apiKey;

/** A ramp of "on" over the default rule (off 100 %): 10 → 50 → 100, a minute each, the last approved. */
const ramp = (overrides: Record<string, unknown> = {}) => ({
  kind: 'ramp' as const,
  featureKey: 'checkout',
  environmentKey: 'production',
  ruleIndex: 0,
  variantKey: 'on',
  steps: [
    { coverage: 10, holdSeconds: 60 },
    { coverage: 50, holdSeconds: 60 },
    { coverage: 100, holdSeconds: 60, approval: true },
  ],
  ...overrides,
});

async function switchedOn(environmentKey: string) {
  const control = await controlOf(team.admin.call, environmentKey);
  const res = await team.admin.call(
    'PUT',
    '/api/v1/feature-controls/',
    controlBody(control, { enabled: true }),
  );
  expect(res.statusCode, res.body).toBe(200);
}

describe('a one-off change', () => {
  it('is applied when it falls due, once, as a version from the schedule, audited', async () => {
    const created = await schedule(team.productionEditor.call, {
      kind: 'once',
      featureKey: 'checkout',
      environmentKey: 'production',
      at: inAMinute(),
      change: { enabled: true },
      comment: 'Launch at noon',
    });
    expect(created).toMatchObject({
      kind: 'once',
      state: 'ready',
      featureName: 'Checkout',
      currentStep: null,
    });
    expect(created.nextDueDate).toBe(created.spec.at && new Date(created.spec.at as string).toISOString());

    await elapse(h, clock, 30_000);
    expect((await controlOf(team.admin.call, 'production')).enabled).toBe(false);

    await elapse(h, clock, 31_000);
    expect((await controlOf(team.admin.call, 'production')).enabled).toBe(true);
    const done = await scheduleOf(team.admin.call, created.id);
    expect(done).toMatchObject({ state: 'completed', nextDueDate: null });
    expect(done.history!.map((event) => event.kind)).toEqual(['created', 'applied']);
    const [newest] = (await versionsOf(team.admin.call, 'production')).content;
    expect(newest).toMatchObject({
      source: 'schedule',
      author: { name: team.productionEditor.email },
      comment: 'Turn on: Launch at noon',
      changes: ['Turned on'],
    });
    expect(done.history!.at(-1)!.version).toBe(newest!.number);
    const [entry] = await auditTrail(team.admin.call);
    expect(entry!.description).toContain('as scheduled (Turn on)');

    // Due again later: nothing more happens.
    await elapse(h, clock, 10 * MINUTE);
    expect((await versionsOf(team.admin.call, 'production')).content[0]!.number).toBe(newest!.number);
  });

  it('is suspended when the rules it writes were changed since it was made, naming who changed them', async () => {
    const created = await schedule(team.productionEditor.call, {
      kind: 'once',
      featureKey: 'checkout',
      environmentKey: 'production',
      at: inAMinute(),
      change: { rules: [rule('country', 'equals', ['de']), otherwise('off')] },
    });
    const control = await controlOf(team.admin.call, 'production');
    await team.admin.call(
      'PUT',
      '/api/v1/feature-controls/',
      controlBody(control, { rules: [otherwise('on')] }),
    );
    await elapse(h, clock, 2 * MINUTE);
    const suspended = await scheduleOf(team.admin.call, created.id);
    expect(suspended.state).toBe('suspended');
    expect(suspended.reason).toContain(`changed by ${team.admin.email}`);
    expect((await controlOf(team.admin.call, 'production')).rules).toEqual([otherwise('on')]);
  });

  it('is refused without rights, in the past, or with a variant the feature does not have', async () => {
    const body = {
      kind: 'once',
      featureKey: 'checkout',
      environmentKey: 'production',
      at: inAMinute(),
      change: { enabled: true },
    };
    expect((await team.editor.call('POST', SCHEDULES, body)).statusCode).toBe(403);
    expect((await team.readOnly.call('POST', SCHEDULES, body)).statusCode).toBe(403);
    expect((await team.outsider.call('POST', SCHEDULES, body)).statusCode).toBe(404);
    const past = await team.admin.call('POST', SCHEDULES, { ...body, at: '2020-01-01T00:00:00Z' });
    expect(past.statusCode).toBe(400);
    expect(past.json().errors).toEqual([{ field: 'at', message: 'The time must be in the future.' }]);
    const unknown = await team.admin.call('POST', SCHEDULES, { ...body, change: { offVariantKey: 'blue' } });
    expect(unknown.statusCode).toBe(400);
    const empty = await team.admin.call('POST', SCHEDULES, { ...body, change: {} });
    expect(empty.statusCode).toBe(400);
  });

  it('is refused with 409 in an environment that asks for change requests, unless the author may bypass them', async () => {
    await protect(team.admin.call, 'production');
    const res = await team.productionEditor.call('POST', SCHEDULES, {
      kind: 'once',
      featureKey: 'checkout',
      environmentKey: 'production',
      at: inAMinute(),
      change: { enabled: true },
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'change_request_required', environmentKey: 'production' });
  });
});

describe('a ramp', () => {
  it('grows the variant step by step, waits for its approval and completes', async () => {
    await switchedOn('production');
    const created = await schedule(team.productionEditor.call, ramp());
    expect(created.state).toBe('ready');
    await elapse(h, clock, 0);
    let now = await scheduleOf(team.admin.call, created.id);
    expect(now).toMatchObject({ state: 'running', currentStep: 0, awaitingApproval: false });
    expect((await controlOf(team.admin.call, 'production')).rules[0]!.variantSplits).toEqual([
      { variantKey: 'on', split: 10 },
      { variantKey: 'off', split: 90 },
    ]);
    // Approving before the hold has passed is refused.
    const early = await act(team.admin.call, created.id, 'approve');
    expect(early.statusCode).toBe(400);
    expect(early.json().title).toMatch(/held until/);

    await elapse(h, clock, MINUTE);
    expect((await scheduleOf(team.admin.call, created.id)).currentStep).toBe(1);
    await elapse(h, clock, MINUTE);
    now = await scheduleOf(team.admin.call, created.id);
    expect(now.currentStep).toBe(2);
    expect((await controlOf(team.admin.call, 'production')).rules[0]!.variantSplits).toEqual([
      { variantKey: 'on', split: 100 },
      { variantKey: 'off', split: 0 },
    ]);
    await elapse(h, clock, MINUTE);
    now = await scheduleOf(team.admin.call, created.id);
    expect(now).toMatchObject({ state: 'running', awaitingApproval: true, nextDueDate: null });

    // Advancing over the approval needs the right to bypass change requests.
    const advance = await act(team.productionEditor.call, created.id, 'advance');
    expect(advance.statusCode).toBe(409);
    const approved = await act(team.productionEditor.call, created.id, 'approve', { comment: 'Looks good' });
    expect(approved.statusCode, approved.body).toBe(200);
    const done = approved.json<Schedule>();
    expect(done.state).toBe('completed');
    expect(done.history!.map((event) => event.kind)).toEqual([
      'created',
      'started',
      'step',
      'step',
      'step',
      'waiting',
      'approved',
      'completed',
    ]);
    const sources = (await versionsOf(team.admin.call, 'production')).content
      .slice(0, 3)
      .map((v) => v.source);
    expect(sources).toEqual(['schedule', 'schedule', 'schedule']);
  });

  it('rolls back to the rule exactly as it was, the SDK payload’s ETag included', async () => {
    await switchedOn('production');
    const before = await payloadEtag(h, apiKeyOf('production'));
    const created = await schedule(team.admin.call, ramp());
    await elapse(h, clock, 0);
    await elapse(h, clock, MINUTE);
    expect(await payloadEtag(h, apiKeyOf('production'))).not.toBe(before);
    const res = await act(team.admin.call, created.id, 'rollback');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<Schedule>().state).toBe('rolled-back');
    expect((await controlOf(team.admin.call, 'production')).rules).toEqual([otherwise('off')]);
    expect(await payloadEtag(h, apiKeyOf('production'))).toBe(before);
    // Finished: nothing moves it again.
    expect((await act(team.admin.call, created.id, 'resume')).statusCode).toBe(409);
  });

  it('is suspended when someone edits its rule, and rolls back only that rule after', async () => {
    const created = await schedule(team.admin.call, ramp());
    await elapse(h, clock, 0);
    const control = await controlOf(team.admin.call, 'production');
    const edited = [
      {
        ...control.rules[0]!,
        variantSplits: [
          { variantKey: 'on', split: 20 },
          { variantKey: 'off', split: 80 },
        ],
      },
    ];
    await team.productionEditor.call(
      'PUT',
      '/api/v1/feature-controls/',
      controlBody(control, { rules: edited }),
    );
    await elapse(h, clock, MINUTE);
    const suspended = await scheduleOf(team.admin.call, created.id);
    expect(suspended.state).toBe('suspended');
    expect(suspended.reason).toContain(team.productionEditor.email);
    expect((await act(team.admin.call, created.id, 'rollback')).statusCode).toBe(409);
    // Resuming accepts what is live and goes on from it.
    expect((await act(team.admin.call, created.id, 'resume')).statusCode).toBe(200);
    await elapse(h, clock, 0);
    expect((await scheduleOf(team.admin.call, created.id)).currentStep).toBe(1);
  });

  it('pauses and resumes, and refuses bad steps and a second ramp of the same control', async () => {
    const created = await schedule(team.admin.call, ramp({ startAt: inAMinute() }));
    expect((await act(team.admin.call, created.id, 'pause')).json<Schedule>().state).toBe('paused');
    await elapse(h, clock, MINUTE);
    expect((await controlOf(team.admin.call, 'production')).rules).toEqual([otherwise('off')]);
    const put = await team.admin.call(
      'PUT',
      `${SCHEDULES}/${created.id}`,
      ramp({ steps: [{ coverage: 25, holdSeconds: 60 }] }),
    );
    expect(put.statusCode, put.body).toBe(200);
    expect((await act(team.admin.call, created.id, 'resume')).json<Schedule>().state).toBe('ready');
    await elapse(h, clock, 0);
    expect((await controlOf(team.admin.call, 'production')).rules[0]!.variantSplits[0]).toEqual({
      variantKey: 'on',
      split: 25,
    });

    const second = await team.admin.call('POST', SCHEDULES, ramp());
    expect(second.statusCode).toBe(409);
    const decreasing = await team.admin.call(
      'POST',
      SCHEDULES,
      ramp({
        environmentKey: 'development',
        steps: [
          { coverage: 50, holdSeconds: 1 },
          { coverage: 20, holdSeconds: 1 },
        ],
      }),
    );
    expect(decreasing.statusCode).toBe(400);
    expect(JSON.stringify(decreasing.json())).toContain('Each step must serve the variant to more users');
    const noRule = await team.admin.call(
      'POST',
      SCHEDULES,
      ramp({ environmentKey: 'development', ruleIndex: 4 }),
    );
    expect(noRule.statusCode).toBe(400);
    const noVariant = await team.admin.call(
      'POST',
      SCHEDULES,
      ramp({ environmentKey: 'development', variantKey: 'blue' }),
    );
    expect(noVariant.statusCode).toBe(400);
  });
});

describe('a recurring schedule', () => {
  it('runs at each occurrence in its time zone, lists them for the calendar, and catches up once', async () => {
    const created = await schedule(team.productionEditor.call, {
      kind: 'recurring',
      featureKey: 'checkout',
      environmentKey: 'production',
      cron: '0 8 * * *',
      timeZone: 'Europe/Berlin',
      change: { enabled: true },
    });
    const first = new Date(created.nextDueDate!);
    expect(first.getUTCMinutes()).toBe(0);
    expect([6, 7]).toContain(first.getUTCHours());

    const list = (await team.admin.call('GET', `${SCHEDULES}?featureKey=checkout`)).json<ScheduleList>();
    expect(list.schedules.map((s) => s.id)).toEqual([created.id]);
    expect(list.occurrences.length).toBeGreaterThanOrEqual(13);
    expect(list.occurrences[0]).toMatchObject({
      scheduleId: created.id,
      description: 'Turn on',
      date: first.toISOString(),
    });

    await elapse(h, clock, first.getTime() - clock.now().getTime());
    expect((await controlOf(team.admin.call, 'production')).enabled).toBe(true);
    let now = await scheduleOf(team.admin.call, created.id);
    expect(now.state).toBe('running');
    expect(new Date(now.nextDueDate!).getTime() - first.getTime()).toBeGreaterThanOrEqual(23 * 60 * MINUTE);

    // Off by hand, then three days with no instance: the missed occurrences run once.
    const control = await controlOf(team.admin.call, 'production');
    await team.admin.call('PUT', '/api/v1/feature-controls/', controlBody(control, { enabled: false }));
    const versions = (await versionsOf(team.admin.call, 'production')).content[0]!.number;
    await elapse(h, clock, 3 * 24 * 60 * MINUTE);
    // Three days on, the sessions of the morning have expired: sign in again.
    const admin = callerFor(h.app, await h.login(team.admin));
    expect((await versionsOf(admin, 'production')).content[0]!.number).toBe(versions + 1);
    now = await scheduleOf(admin, created.id);
    expect(new Date(now.nextDueDate!).getTime()).toBeGreaterThan(clock.now().getTime());
  });

  it('skips missed occurrences when asked, and refuses a bad cron or time zone', async () => {
    const created = await schedule(team.admin.call, {
      kind: 'recurring',
      featureKey: 'checkout',
      environmentKey: 'development',
      cron: '*/30 * * * *',
      timeZone: 'UTC',
      change: { enabled: true },
      catchUp: 'skip',
    });
    await elapse(h, clock, 5 * 60 * MINUTE);
    expect((await controlOf(team.admin.call, 'development')).enabled).toBe(false);
    expect((await scheduleOf(team.admin.call, created.id)).history!.map((e) => e.kind)).toEqual([
      'created',
      'skipped',
    ]);

    const cron = await team.admin.call('POST', SCHEDULES, {
      kind: 'recurring',
      featureKey: 'checkout',
      environmentKey: 'development',
      cron: '61 * * * *',
      timeZone: 'UTC',
      change: { enabled: true },
    });
    expect(cron.statusCode).toBe(400);
    expect(JSON.stringify(cron.json())).toContain('expected range 0-59');
    const zone = await team.admin.call('POST', SCHEDULES, {
      kind: 'recurring',
      featureKey: 'checkout',
      environmentKey: 'development',
      cron: '0 8 * * *',
      timeZone: 'Mars/Olympus',
      change: { enabled: true },
    });
    expect(zone.statusCode).toBe(400);
    expect(JSON.stringify(zone.json())).toContain('IANA time zone');
  });
});

describe('a step that fails', () => {
  it('is retried with backoff and pauses the schedule after 10 attempts with the last error', async () => {
    await team.admin.call('POST', '/api/v1/projects/web/targets', {
      key: 'cohorts',
      name: 'Cohorts',
      type: 'segment',
    });
    const segment = await team.admin.call('POST', '/api/v2/segments/', {
      projectKey: 'web',
      environmentKey: 'production',
      key: 'beta',
      name: 'Beta',
    });
    expect(segment.statusCode, segment.body).toBeLessThan(300);
    const created = await schedule(team.admin.call, {
      kind: 'once',
      featureKey: 'checkout',
      environmentKey: 'production',
      at: inAMinute(),
      change: { rules: [rule('cohorts', 'in', ['beta']), otherwise('off')] },
    });
    // The segment the rules name goes away: every attempt now fails.
    const removed = await team.admin.call('DELETE', `/api/v2/segments/${segment.json<{ id: string }>().id}`);
    expect(removed.statusCode, removed.body).toBeLessThan(300);
    // Each attempt is made as the clock reaches it: the schedule is read until it shows the attempt.
    const attempt = async (failures: number) => {
      h.app.services.queue.wake();
      for (;;) {
        const now = await scheduleOf(team.admin.call, created.id);
        if (now.failures >= failures || now.state !== 'ready') return now;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    clock.advance(MINUTE);
    let now = await attempt(1);
    expect(now).toMatchObject({ state: 'ready', failures: 1 });
    expect(now.reason).toMatch(/^Attempt 1 failed: There is no segment "beta"/);
    expect(new Date(now.nextDueDate!).getTime() - clock.now().getTime()).toBeLessThanOrEqual(5_000);
    for (let i = 2; i <= 10; i++) {
      clock.advance(31 * MINUTE);
      now = await attempt(i);
    }
    expect(now.state).toBe('paused');
    expect(now.reason).toMatch(/^Paused after 10 failed attempts/);
    expect(now.history!.filter((e) => e.kind === 'failed')).toHaveLength(9);
  });
});
