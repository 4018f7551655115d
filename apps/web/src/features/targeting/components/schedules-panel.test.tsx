import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import type { InitialPayload, Rule, Schedule } from '@vexil/core';
import { jsonResponse, type stubApi } from '../../../testing/test-utils';
import { controlFixture, featureFixture, payloadFor, resetOverlays } from '../../../testing/test-fixtures';
import { DEV_TARGETING, renderTargeting } from '../../../testing/targeting-test-utils';
import {
  actionCalls,
  rampFixture,
  recurringFixture,
  scheduleFixture,
  scheduleHandlers,
  SCHEDULES_API,
  type ScheduleState,
} from '../../../testing/schedules-test-server';

type Handlers = Parameters<typeof stubApi>[0];

/** Rule 1 gives On to one user; everyone else gets On 20 %, Off 80 % (the ramps grow On there). */
const RULES: Rule[] = [
  {
    defaultRule: false,
    audience: { conditions: [{ target: 'email', operator: 'equals', values: ['ada@example.com'] }] },
    variantSplits: [{ variantKey: 'on', split: 100 }],
  },
  {
    defaultRule: true,
    audience: null,
    variantSplits: [
      { variantKey: 'on', split: 20 },
      { variantKey: 'off', split: 80 },
    ],
  },
];
const feature = featureFixture({
  controls: {
    production: controlFixture('production'),
    dev: controlFixture('dev', { enabled: true, rules: RULES, targetingStatus: 'targeted' }),
  },
});

/** A ramp whose last step is `last` %, so that each card of a test has a name of its own. */
function rampTo(n: number, last: number, overrides: Partial<Schedule> = {}): Schedule {
  const ramp = rampFixture(n, overrides);
  const spec = ramp.spec as { steps: { coverage: number; holdSeconds: number }[] };
  return {
    ...ramp,
    spec: {
      ...ramp.spec,
      steps: spec.steps.map((step, i) => (i === 2 ? { ...step, coverage: last } : step)),
    },
  };
}

async function openPanel(
  schedules: Schedule[],
  handlers: (state: ScheduleState) => Handlers = () => ({}),
  payload?: InitialPayload,
) {
  const state: ScheduleState = { schedules, occurrences: [] };
  const rendered = await renderTargeting(DEV_TARGETING, {
    feature,
    ...(payload ? { payload } : {}),
    handlers: () => ({ ...scheduleHandlers(state), ...handlers(state) }),
  });
  const list = await screen.findByRole('list', { name: 'Schedules' });
  return { ...rendered, state, list };
}

/** The actions a card offers, by name. */
const buttonsOf = (card: HTMLElement) => {
  const actions = within(card).queryByRole('group', { name: 'Schedule actions' });
  return actions
    ? within(actions)
        .getAllByRole('button')
        .map((button) => button.textContent)
    : [];
};

describe('Schedules panel', { timeout: 30_000 }, () => {
  afterEach(() => {
    resetOverlays();
    vi.unstubAllGlobals();
  });

  it('shows a running ramp’s steps, share, exposures and next step', async () => {
    const ramp = rampTo(1, 100, {
      currentStep: 1,
      exposures: { seen: 420, needed: 1000 },
    });
    const { list } = await openPanel([ramp]);

    const card = within(list).getByRole('listitem', { name: 'Ramp On in Everyone else to 100 %' });
    expect(within(card).getByText('Running')).toBeVisible();
    expect(within(card).getByText(/of Everyone else$/)).toHaveTextContent('On: 50 % of Everyone else');
    const steps = within(card).getByRole('list', { name: 'Ramp steps' });
    expect(
      within(steps)
        .getAllByRole('listitem')
        .map((step) => step.getAttribute('aria-label')),
    ).toEqual(['Step 1: 10 %, done', 'Step 2: 50 %, current', 'Step 3: 100 %, upcoming']);
    expect(within(steps).getByText('1 hour, then approval')).toBeVisible();
    expect(within(steps).getByText('1 hour, then 1,000 exposures')).toBeVisible();
    expect(within(card).getByText('Exposures: 420 of 1,000')).toBeVisible();
    expect(within(card).getByText('Next step')).toBeVisible();
    expect(within(card).getByText(/^in an hour/)).toBeVisible();
  });

  it('shows the users counted in each arm of a started ramp, in all and in this step', async () => {
    const ramp = rampTo(1, 100, {
      currentStep: 1,
      arms: { treatment: 1234, control: 5678, stepTreatment: 120, stepControl: 1100 },
    });
    const { list } = await openPanel([ramp]);

    const card = within(list).getByRole('listitem', { name: 'Ramp On in Everyone else to 100 %' });
    const arms = within(card).getByText(/^Users so far:/);
    expect(arms).toBeVisible();
    expect(arms).toHaveTextContent(
      'Users so far: 1,234 on On · 5,678 on the others (this step: 120 · 1,100)',
    );
    expect(within(card).queryByText(/^No users counted yet/)).toBeNull();
  });

  it('says when a ramp has counted no users yet, and nothing for a schedule without arms', async () => {
    const { list } = await openPanel([
      rampTo(1, 100, { arms: { treatment: 0, control: 0, stepTreatment: 0, stepControl: 0 } }),
      scheduleFixture(2),
    ]);

    const ramp = within(list).getByRole('listitem', { name: 'Ramp On in Everyone else to 100 %' });
    expect(
      within(ramp).getByText(
        'No users counted yet: impressions of this rule appear here as SDKs report them.',
      ),
    ).toBeVisible();
    expect(within(ramp).queryByText(/^Users so far:/)).toBeNull();

    const once = within(list).getByRole('listitem', { name: /^Turn on at / });
    expect(within(once).queryByText(/^Users so far:/)).toBeNull();
    expect(within(once).queryByText(/^No users counted yet/)).toBeNull();
  });

  it('offers only the actions that mean something in each state', async () => {
    const { list } = await openPanel([
      rampTo(1, 100),
      rampTo(2, 90, { currentStep: 1, awaitingApproval: true, nextDueDate: null }),
      rampTo(3, 80, { state: 'paused', reason: 'Paused by Demo Admin.' }),
      rampTo(4, 70, {
        state: 'suspended',
        reason: 'Ada Lovelace changed Everyone else since the last step.',
        nextDueDate: null,
      }),
      rampTo(5, 60, { state: 'ready', currentStep: null }),
      scheduleFixture(6),
      recurringFixture(7, { state: 'paused', reason: null }),
    ]);
    const card = (name: string) => within(list).getByRole('listitem', { name });

    expect(buttonsOf(card('Ramp On in Everyone else to 100 %'))).toEqual([
      'Pause',
      'Advance',
      'Roll back',
      'Cancel',
    ]);
    const waiting = card('Ramp On in Everyone else to 90 %');
    expect(buttonsOf(waiting)).toEqual(['Approve', 'Pause', 'Advance', 'Roll back', 'Cancel']);
    expect(within(waiting).getByText('Awaiting approval')).toBeVisible();
    expect(within(waiting).getByText('Waiting for approval to go on to 90 %.')).toBeVisible();

    const paused = card('Ramp On in Everyone else to 80 %');
    expect(buttonsOf(paused)).toEqual(['Resume', 'Roll back', 'Cancel']);
    expect(within(paused).getByText('Paused by Demo Admin.')).toBeVisible();

    const suspended = card('Ramp On in Everyone else to 70 %');
    expect(buttonsOf(suspended)).toEqual(['Resume', 'Roll back', 'Cancel']);
    expect(within(suspended).getByRole('alert')).toHaveTextContent(
      'SuspendedAda Lovelace changed Everyone else since the last step.',
    );

    const ready = card('Ramp On in Everyone else to 60 %');
    expect(buttonsOf(ready)).toEqual(['Pause', 'Cancel']);
    expect(within(ready).getByText('Starts')).toBeVisible();

    const once = within(list).getByRole('listitem', { name: /^Turn on at / });
    expect(buttonsOf(once)).toEqual(['Pause', 'Cancel']);
    expect(buttonsOf(card('Turn off weekdays at 18:00 (Europe/Berlin)'))).toEqual(['Resume', 'Cancel']);
  });

  it('approves a ramp waiting for approval and shows where it went on to', async () => {
    const waiting = rampTo(1, 100, { currentStep: 0, awaitingApproval: true, nextDueDate: null });
    const approved: Schedule = { ...waiting, currentStep: 1, awaitingApproval: false, history: [] };
    const { list, user, calls } = await openPanel([waiting], (state) => ({
      [`POST ${SCHEDULES_API}/${waiting.id}/approve`]: () => {
        state.schedules = [approved];
        return jsonResponse(200, approved);
      },
    }));
    const card = within(list).getByRole('listitem', { name: 'Ramp On in Everyone else to 100 %' });

    await user.click(within(card).getByRole('button', { name: 'Approve' }));

    expect(await screen.findByText('Approved: the ramp goes on.')).toBeVisible();
    expect(actionCalls(calls)).toEqual([{ path: `${SCHEDULES_API}/${waiting.id}/approve`, body: {} }]);
    await waitFor(() =>
      expect(within(card).getByRole('listitem', { name: 'Step 2: 50 %, current' })).toBeVisible(),
    );
    expect(within(card).queryByText('Awaiting approval')).toBeNull();
    expect(within(card).queryByRole('button', { name: 'Approve' })).toBeNull();
  });

  it('shows the server’s reason when an action is refused', async () => {
    const REFUSAL = 'Going on past an approval needs someone who may bypass approvals.';
    const waiting = rampTo(1, 100, { awaitingApproval: true, nextDueDate: null });
    const { list, user } = await openPanel([waiting], () => ({
      [`POST ${SCHEDULES_API}/${waiting.id}/advance`]: () =>
        jsonResponse(409, { title: REFUSAL, code: 'conflict' }),
    }));
    const card = within(list).getByRole('listitem', { name: 'Ramp On in Everyone else to 100 %' });

    await user.click(within(card).getByRole('button', { name: 'Advance' }));

    expect(await screen.findByText(REFUSAL)).toBeVisible();
    expect(within(card).getByRole('button', { name: 'Advance' })).toBeEnabled();
  });

  it('rolls back and cancels only once confirmed', async () => {
    const ramp = rampTo(1, 100);
    const { list, user, calls } = await openPanel([ramp], (state) => ({
      [`POST ${SCHEDULES_API}/${ramp.id}/rollback`]: () => {
        state.schedules = [{ ...ramp, state: 'rolled-back', nextDueDate: null }];
        return jsonResponse(200, state.schedules[0]);
      },
    }));
    const card = within(list).getByRole('listitem', { name: 'Ramp On in Everyone else to 100 %' });

    await user.click(within(card).getByRole('button', { name: 'Cancel' }));
    let dialog = await screen.findByRole('dialog', { name: 'Cancel schedule' });
    await user.click(within(dialog).getByRole('button', { name: 'Keep it' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    await user.click(within(card).getByRole('button', { name: 'Roll back' }));
    dialog = await screen.findByRole('dialog', { name: 'Roll back the ramp' });
    expect(dialog).toHaveTextContent('Put Everyone else back exactly as it was before the ramp?');
    await user.click(within(dialog).getByRole('button', { name: 'Roll back' }));

    expect(await screen.findByText('Ramp rolled back: the rule is as it was before the ramp.')).toBeVisible();
    expect(actionCalls(calls)).toEqual([{ path: `${SCHEDULES_API}/${ramp.id}/rollback`, body: {} }]);
    // Finished: it leaves the list, which now says nothing is scheduled.
    expect(await screen.findByText('Nothing is scheduled for New checkout in Development.')).toBeVisible();
  });

  it('shows what happened to a schedule, newest first', async () => {
    const ramp = rampTo(1, 100, { currentStep: 1 });
    const event = (
      kind: string,
      message: string,
      date: string,
      actor: string | null,
      version: number | null,
    ) => ({ kind, step: null, actor, message, version, date }) as NonNullable<Schedule['history']>[number];
    const { list, user } = await openPanel([ramp], () => ({
      [`GET ${SCHEDULES_API}/${ramp.id}`]: () =>
        jsonResponse(200, {
          ...ramp,
          history: [
            event('created', 'Created.', '2026-01-02T09:00:00.000Z', 'admin@example.com', null),
            event('step', 'Step 1 applied: 10 %.', '2026-01-02T09:00:01.000Z', null, 4),
            event('step', 'Step 2 applied: 50 %.', '2026-01-02T10:00:01.000Z', null, 5),
          ],
        }),
    }));
    const card = within(list).getByRole('listitem', { name: 'Ramp On in Everyone else to 100 %' });

    await user.click(within(card).getByRole('button', { name: 'History' }));

    const history = await within(card).findByRole('list', { name: 'History' });
    expect(
      within(history)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      expect.stringMatching(/· Vexil · version 5Step 2 applied: 50 %\.$/),
      expect.stringMatching(/· Vexil · version 4Step 1 applied: 10 %\.$/),
      expect.stringMatching(/· admin@example\.comCreated\.$/),
    ]);
    expect(within(card).getByRole('button', { name: 'History' })).toHaveAttribute('aria-expanded', 'true');
  });

  it('disables the actions, with the reason, for those who may not change the targeting', async () => {
    const { list } = await openPanel(
      [rampTo(1, 100)],
      () => ({}),
      payloadFor('ROLE_ORGANISATION_READONLY_USER'),
    );
    expect(within(list).getByRole('button', { name: 'Pause' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Schedule change' })).toBeDisabled();
  });

  it('shows a failed load with Retry, which loads it again', async () => {
    let fail = true;
    const state: ScheduleState = { schedules: [], occurrences: [] };
    const { user } = await renderTargeting(DEV_TARGETING, {
      feature,
      handlers: () => ({
        ...scheduleHandlers(state),
        [`GET ${SCHEDULES_API}`]: (request) =>
          fail
            ? jsonResponse(500, { title: 'The database is unavailable, please retry.' })
            : scheduleHandlers(state)[`GET ${SCHEDULES_API}`]!(request),
      }),
    });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('We could not load the schedules.');
    expect(alert).toHaveTextContent('The database is unavailable, please retry.');

    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('Nothing is scheduled for New checkout in Development.')).toBeVisible();
  });
});
