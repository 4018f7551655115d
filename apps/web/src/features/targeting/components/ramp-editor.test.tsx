import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { rampProblem, SCHEDULE_MESSAGES, type Rule } from '@vexil/core';
import { jsonResponse, type stubApi } from '../../../testing/test-utils';
import { controlFixture, featureFixture, resetOverlays } from '../../../testing/test-fixtures';
import { choose, DEV_TARGETING, renderTargeting, type User } from '../../../testing/targeting-test-utils';
import { SCHEDULES_API, scheduleHandlers, type ScheduleState } from '../../../testing/schedules-test-server';
import { RAMP_UNSAVED_REASON } from './targeting-editor';

/** Rule 1 gives On to one user; everyone else gets On 20 %, Off 80 %. */
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

const posts = (calls: { method: string; path: string; body: unknown }[]) =>
  calls.filter((call) => call.method === 'POST' && call.path === SCHEDULES_API).map((call) => call.body);

type Handlers = Parameters<typeof stubApi>[0];

async function openRamp(handlers: (state: ScheduleState) => Handlers = () => ({})) {
  const state: ScheduleState = { schedules: [], occurrences: [] };
  const rendered = await renderTargeting(DEV_TARGETING, {
    feature,
    handlers: () => ({ ...scheduleHandlers(state), ...handlers(state) }),
  });
  await rendered.user.click(await screen.findByRole('button', { name: 'Ramp Everyone else' }));
  const dialog = await screen.findByRole('dialog', { name: 'Ramp Everyone else' });
  return { ...rendered, state, dialog };
}

const step = (dialog: HTMLElement, n: number) => within(dialog).getByRole('group', { name: `Step ${n}` });
const field = (dialog: HTMLElement, n: number, name: string) =>
  within(step(dialog, n)).getByRole('textbox', { name });

async function retype(user: User, input: HTMLElement, text: string) {
  await user.clear(input);
  if (text) await user.type(input, text);
}

/** What the preview's row says for each variant, "On Off". */
function previewRow(dialog: HTMLElement, label: string): string[] {
  const table = within(dialog).getByRole('table', { name: 'Splits at each step' });
  const row = within(table).getByRole('rowheader', { name: label }).closest('tr')!;
  return within(row)
    .getAllByRole('cell')
    .map((cell) => cell.textContent ?? '');
}

describe('Ramp editor', { timeout: 30_000 }, () => {
  afterEach(() => {
    resetOverlays();
    vi.unstubAllGlobals();
  });

  it('starts at 10, 50 and 100 % held an hour, and previews the rule’s splits at each step', async () => {
    const { dialog, user } = await openRamp();

    expect(within(dialog).getByRole('combobox', { name: 'Variant' })).toHaveValue('On');
    expect([1, 2, 3].map((n) => (field(dialog, n, 'Coverage') as HTMLInputElement).value)).toEqual([
      '10 %',
      '50 %',
      '100 %',
    ]);
    expect([1, 2, 3].map((n) => (field(dialog, n, 'Hold') as HTMLInputElement).value)).toEqual([
      '1',
      '1',
      '1',
    ]);
    // The variant first with its coverage; Off keeps the rest.
    expect(previewRow(dialog, 'Now')).toEqual(['20 %', '80 %']);
    expect(previewRow(dialog, 'Step 1')).toEqual(['10 %', '90 %']);
    expect(previewRow(dialog, 'Step 2')).toEqual(['50 %', '50 %']);
    expect(previewRow(dialog, 'Step 3')).toEqual(['100 %', '0 %']);

    await retype(user, field(dialog, 2, 'Coverage'), '75');
    expect(previewRow(dialog, 'Step 2')).toEqual(['75 %', '25 %']);
    await user.click(within(dialog).getByRole('button', { name: 'Add step' }));
    expect(previewRow(dialog, 'Step 4')).toEqual(['100 %', '0 %']);
  });

  it('shows core’s messages where the steps are wrong, and sends nothing until they are right', async () => {
    const { dialog, user, calls } = await openRamp();

    await retype(user, field(dialog, 1, 'Coverage'), '');
    await retype(user, field(dialog, 3, 'Coverage'), '40');
    await retype(user, field(dialog, 2, 'Hold'), '');
    await user.click(within(dialog).getByRole('button', { name: 'Start ramp' }));

    expect(within(step(dialog, 1)).getByText('Coverage must be a number')).toBeVisible();
    expect(within(step(dialog, 2)).getByText('Hold must be a number of seconds')).toBeVisible();
    expect(within(step(dialog, 3)).getByText(SCHEDULE_MESSAGES.increasing)).toBeVisible();
    expect(previewRow(dialog, 'Step 1')).toEqual(['—', '—']);

    // Fixed as they are typed, once tried.
    await retype(user, field(dialog, 3, 'Coverage'), '90');
    expect(within(step(dialog, 3)).queryByText(SCHEDULE_MESSAGES.increasing)).toBeNull();
    await retype(user, field(dialog, 2, 'Hold'), '0');
    expect(within(step(dialog, 2)).getByText('Hold must be at least 1 second')).toBeVisible();

    // Every step removed but one: still needs a coverage.
    await user.click(within(dialog).getByRole('button', { name: 'Remove step 3' }));
    await user.click(within(dialog).getByRole('button', { name: 'Remove step 2' }));
    expect(within(dialog).getByRole('button', { name: 'Remove step 1' })).toBeDisabled();
    expect(within(step(dialog, 1)).getByText('Coverage must be a number')).toBeVisible();
    expect(posts(calls)).toEqual([]);
  });

  it('sends the ramp with its holds in seconds, exposures and approvals, and lists it', async () => {
    const { dialog, user, calls } = await openRamp();

    await retype(user, field(dialog, 2, 'Hold'), '30');
    await choose(
      user,
      within(step(dialog, 2)).getByRole('combobox', { name: 'Hold unit of step 2' }),
      'Minutes',
    );
    await user.click(within(step(dialog, 2)).getByRole('checkbox', { name: /Approval/ }));
    await retype(user, field(dialog, 3, 'Min exposures'), '1000');
    await user.click(within(dialog).getByRole('button', { name: 'Start ramp' }));

    expect(await screen.findByText('Ramp started: On in Everyone else grows to 100 %.')).toBeVisible();
    expect(posts(calls)).toEqual([
      {
        kind: 'ramp',
        featureKey: 'checkout',
        environmentKey: 'dev',
        ruleIndex: 1,
        variantKey: 'on',
        steps: [
          { coverage: 10, holdSeconds: 3600 },
          { coverage: 50, holdSeconds: 1800, approval: true },
          { coverage: 100, holdSeconds: 3600, minExposures: 1000 },
        ],
      },
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const schedules = await screen.findByRole('list', { name: 'Schedules' });
    expect(
      within(schedules).getByRole('listitem', { name: 'Ramp On in Everyone else to 100 %' }),
    ).toBeVisible();
  });

  it('says why a rule that already serves the variant to everyone cannot be ramped to it', async () => {
    const state: ScheduleState = { schedules: [], occurrences: [] };
    const { user, calls } = await renderTargeting(DEV_TARGETING, {
      feature,
      handlers: () => scheduleHandlers(state),
    });
    await user.click(await screen.findByRole('button', { name: 'Ramp Rule 1' }));
    const dialog = await screen.findByRole('dialog', { name: 'Ramp Rule 1' });
    // Rule 1 serves On to everyone it matches: Off is offered first.
    expect(within(dialog).getByRole('combobox', { name: 'Variant' })).toHaveValue('Off');

    await choose(user, within(dialog).getByRole('combobox', { name: 'Variant' }), 'On');
    await user.click(within(dialog).getByRole('button', { name: 'Start ramp' }));

    expect(within(dialog).getByText(rampProblem(RULES[0], 'on')!)).toBeVisible();
    expect(posts(calls)).toEqual([]);
  });

  it('keeps the ramp as it is and shows the server’s field errors under their fields', async () => {
    const REFUSAL = 'The first step must end before the cut-off.';
    const { dialog, user, calls } = await openRamp(() => ({
      [`POST ${SCHEDULES_API}`]: () =>
        jsonResponse(400, {
          title: REFUSAL,
          errors: [{ field: 'steps.0.holdSeconds', message: REFUSAL }],
          code: 'invalid',
        }),
    }));
    await retype(user, field(dialog, 1, 'Hold'), '2');
    await choose(
      user,
      within(step(dialog, 1)).getByRole('combobox', { name: 'Hold unit of step 1' }),
      'Days',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Start ramp' }));

    expect(await within(step(dialog, 1)).findByText(REFUSAL)).toBeVisible();
    expect(posts(calls)).toHaveLength(1);
    // Said once, under its field; the form keeps what was typed.
    expect(within(dialog).queryByRole('alert')).toBeNull();
    expect(field(dialog, 1, 'Hold')).toHaveValue('2');
    expect(within(step(dialog, 1)).getByRole('combobox', { name: 'Hold unit of step 1' })).toHaveValue(
      'Days',
    );
    expect(screen.getByRole('dialog', { name: 'Ramp Everyone else' })).toBeVisible();
  });

  it('offers Ramp only on the rules as saved', async () => {
    const { user } = await renderTargeting(DEV_TARGETING, { feature });
    const ramp = await screen.findByRole('button', { name: 'Ramp Rule 1' });
    expect(ramp).toBeEnabled();

    await user.click(screen.getByRole('switch', { name: 'Targeting enabled' }));

    expect(screen.getByRole('button', { name: 'Ramp Rule 1' })).toBeDisabled();
    expect(screen.getAllByLabelText(RAMP_UNSAVED_REASON)).toHaveLength(2);
  });
});
