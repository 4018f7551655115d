import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AlertAnswer, Project, RampAlert, Schedule } from '@vexil/core';
import { createTeam, type Team } from '../../../test/api';
import { controlOf } from '../../../test/change-requests';
import { controlBody, createFeature, otherwise } from '../../../test/features';
import { createHarness, type Harness } from '../../../test/helpers';
import { testClock } from '../../../test/integrations';
import { SCHEDULES, elapse, payloadEtag, schedule, scheduleOf } from '../../../test/schedules';

/*
 * A ramp's alert URL (docs/adr/0026-guarded-rollouts.md): made by whoever may change the ramp, shown
 * once; an alert from Alertmanager (or a bare `{}`) rolls the ramp back or pauses it, once however
 * often it comes; a token that opens nothing is a plain 404.
 */

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
  await createFeature(team.admin.call, 'web', { name: 'Checkout', key: 'checkout' });
  const control = await controlOf(team.admin.call, 'production');
  const res = await team.admin.call(
    'PUT',
    '/api/v1/feature-controls/',
    controlBody(control, { enabled: true, rules: [otherwise('off')] }),
  );
  expect(res.statusCode, res.body).toBe(200);
});
afterEach(async () => {
  await h.app.services.queue.settled();
});

const apiKey = () => project.environments.find((e) => e.key === 'production')!.apiKey;

/** A running ramp of "on" over the default rule in production: 10 → 50 → 100 %, a minute each. */
async function runningRamp(): Promise<Schedule> {
  const created = await schedule(team.productionEditor.call, {
    kind: 'ramp',
    featureKey: 'checkout',
    environmentKey: 'production',
    ruleIndex: 0,
    variantKey: 'on',
    steps: [
      { coverage: 10, holdSeconds: 60 },
      { coverage: 50, holdSeconds: 60 },
      { coverage: 100, holdSeconds: 60 },
    ],
  });
  await elapse(h, clock, 0);
  expect((await scheduleOf(team.admin.call, created.id)).state).toBe('running');
  return created;
}

const alertPath = (id: string) => `${SCHEDULES}/${id}/alert`;
/** Calls an alert URL as an alerting tool would: no session, a JSON body. */
async function sendAlert(url: string, body?: unknown) {
  const { pathname } = new URL(url);
  return h.app.inject({
    method: 'POST',
    url: pathname,
    ...(body === undefined ? {} : { payload: body as object }),
  });
}

/** An Alertmanager webhook (version 4) for a group of alerts. */
const alertmanager = (status: 'firing' | 'resolved', names: string[]) => ({
  version: '4',
  groupKey: '{}:{alertname="HighErrorRate"}',
  truncatedAlerts: 0,
  status,
  receiver: 'vexil',
  groupLabels: { alertname: names[0] },
  commonLabels: { severity: 'page' },
  commonAnnotations: {},
  externalURL: 'http://alertmanager.example:9093',
  alerts: names.map((alertname) => ({
    status,
    labels: { alertname, service: 'checkout' },
    annotations: { summary: 'Errors are up' },
    startsAt: '2026-12-08T10:00:00Z',
    endsAt: '0001-01-01T00:00:00Z',
    generatorURL: 'http://prometheus.example:9090/graph',
    fingerprint: 'c0ffee',
  })),
});

describe('a ramp’s alert URL', () => {
  it('rolls the ramp back on an Alertmanager alert, byte for byte, once however often the alert repeats', async () => {
    const before = await payloadEtag(h, apiKey());
    const ramp = await runningRamp();
    expect(await payloadEtag(h, apiKey())).not.toBe(before);

    const made = await team.productionEditor.call('POST', alertPath(ramp.id), { action: 'rollback' });
    expect(made.statusCode, made.body).toBe(201);
    const alert = made.json<RampAlert>();
    expect(alert).toMatchObject({
      action: 'rollback',
      createdBy: team.productionEditor.email,
      lastAlertDate: null,
    });
    expect(alert.url).toMatch(/^http:\/\/vexil\.test\/api\/v1\/alerts\/vxa_[A-Za-z0-9_-]{43}$/);

    const first = await sendAlert(alert.url!, alertmanager('firing', ['HighErrorRate', 'SlowCheckout']));
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json<AlertAnswer>()).toEqual({ result: 'applied', reason: 'The ramp was rolled back.' });
    expect(await payloadEtag(h, apiKey())).toBe(before);
    const rolledBack = await scheduleOf(team.admin.call, ramp.id);
    expect(rolledBack.state).toBe('rolled-back');
    expect(rolledBack.history!.at(-1)!.message).toBe(
      'Rolled back. An alert came to its alert URL (HighErrorRate, SlowCheckout).',
    );

    const again = await sendAlert(alert.url!, alertmanager('firing', ['HighErrorRate']));
    expect(again.json<AlertAnswer>()).toEqual({
      result: 'skipped',
      reason: 'The ramp is already rolled back.',
    });
    const events = (await scheduleOf(team.admin.call, ramp.id)).history!.filter(
      (e) => e.kind === 'rolled-back',
    );
    expect(events).toHaveLength(1);

    const seen = (await team.productionEditor.call('GET', alertPath(ramp.id))).json<RampAlert>();
    expect(seen.url).toBeUndefined();
    expect(seen.lastResult).toBe('skipped: The ramp is already rolled back.');
    expect(seen.lastAlertDate).not.toBeNull();
  });

  it('pauses the ramp when made to, from a bare {} or no body at all, and a resolved alert stops nothing', async () => {
    const ramp = await runningRamp();
    const alert = (await team.admin.call('POST', alertPath(ramp.id), { action: 'pause' })).json<RampAlert>();

    const resolved = await sendAlert(alert.url!, alertmanager('resolved', ['HighErrorRate']));
    expect(resolved.json<AlertAnswer>().result).toBe('skipped');
    expect((await scheduleOf(team.admin.call, ramp.id)).state).toBe('running');

    expect((await sendAlert(alert.url!, {})).json<AlertAnswer>()).toEqual({
      result: 'applied',
      reason: 'The ramp was paused.',
    });
    const paused = await scheduleOf(team.admin.call, ramp.id);
    expect(paused.state).toBe('paused');
    expect(paused.history!.at(-1)!.message).toBe('Paused. An alert came to its alert URL.');
    // The pause holds: the ramp's next step does not come.
    await elapse(h, clock, 5 * MINUTE);
    expect((await scheduleOf(team.admin.call, ramp.id)).currentStep).toBe(0);
    expect((await sendAlert(alert.url!)).json<AlertAnswer>()).toEqual({
      result: 'skipped',
      reason: 'The ramp is already paused.',
    });
  });

  it('stops the ramp once when two alerts come at the same moment', async () => {
    const ramp = await runningRamp();
    const alert = (await team.admin.call('POST', alertPath(ramp.id), {})).json<RampAlert>();
    const answers = await Promise.all([sendAlert(alert.url!, {}), sendAlert(alert.url!, {})]);
    expect(answers.map((answer) => answer.json<AlertAnswer>().result).sort()).toEqual(['applied', 'skipped']);
    const history = (await scheduleOf(team.admin.call, ramp.id)).history!;
    expect(history.filter((event) => event.kind === 'rolled-back')).toHaveLength(1);
  });

  it('answers a token that opens nothing with a 404 that says no more, and a replaced token stops working', async () => {
    const ramp = await runningRamp();
    const first = (await team.admin.call('POST', alertPath(ramp.id), {})).json<RampAlert>();
    const second = (await team.admin.call('POST', alertPath(ramp.id), { action: 'pause' })).json<RampAlert>();
    expect(second.url).not.toBe(first.url);

    for (const url of [
      first.url!,
      'http://vexil.test/api/v1/alerts/vxa_nothing',
      'http://vexil.test/api/v1/alerts/x',
    ]) {
      const res = await sendAlert(url, {});
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ title: 'Not found', code: 'not_found' });
    }
    expect((await scheduleOf(team.admin.call, ramp.id)).state).toBe('running');

    expect((await team.admin.call('DELETE', alertPath(ramp.id))).statusCode).toBe(204);
    expect((await sendAlert(second.url!, {})).statusCode).toBe(404);
    expect((await team.admin.call('GET', alertPath(ramp.id))).statusCode).toBe(404);
    expect((await team.admin.call('DELETE', alertPath(ramp.id))).statusCode).toBe(404);
    // Who made, replaced and removed it is in the ramp's history.
    const lines = (await scheduleOf(team.admin.call, ramp.id))
      .history!.filter((event) => event.message.startsWith('Alert URL'))
      .map((event) => [event.actor, event.message]);
    expect(lines).toEqual([
      [team.admin.email, 'Alert URL made: an alert rolls the ramp back.'],
      [team.admin.email, 'Alert URL replaced: the old one no longer works; an alert pauses the ramp.'],
      [team.admin.email, 'Alert URL removed: it no longer works.'],
    ]);
  });

  it('refuses a body that is not an alert with a 400, and changes nothing', async () => {
    const ramp = await runningRamp();
    const alert = (await team.admin.call('POST', alertPath(ramp.id), {})).json<RampAlert>();
    for (const body of [[1, 2], { status: 7 }, { alerts: 'many' }]) {
      const res = await sendAlert(alert.url!, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json<{ code: string }>().code).toBe('invalid');
    }
    expect((await scheduleOf(team.admin.call, ramp.id)).state).toBe('running');
  });

  it('is made only by members who may change the ramp, of their own organisation, and only for a ramp', async () => {
    const ramp = await runningRamp();
    expect((await team.editor.call('POST', alertPath(ramp.id), {})).statusCode).toBe(403);
    expect((await team.readOnly.call('POST', alertPath(ramp.id), {})).statusCode).toBe(403);
    expect((await team.readOnly.call('GET', alertPath(ramp.id))).statusCode).toBe(403);
    expect((await team.outsider.call('POST', alertPath(ramp.id), {})).statusCode).toBe(404);
    expect((await team.admin.call('POST', alertPath(ramp.id), { action: 'explode' })).statusCode).toBe(400);
    const once = await schedule(team.admin.call, {
      kind: 'once',
      featureKey: 'checkout',
      environmentKey: 'production',
      at: new Date(clock.now().getTime() + MINUTE).toISOString(),
      change: { enabled: false },
    });
    const refused = await team.admin.call('POST', alertPath(once.id), {});
    expect(refused.statusCode).toBe(400);
    expect(refused.json<{ title: string }>().title).toBe('Only a ramp can be stopped by an alert.');
  });
});
