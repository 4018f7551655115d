import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { DENIAL_MESSAGES, type InitialPayload, type Rule, type Schedule } from '@vexil/core';
import { jsonResponse, type stubApi } from '../../../testing/test-utils';
import { controlFixture, featureFixture, payloadFor, resetOverlays } from '../../../testing/test-fixtures';
import { DEV_TARGETING, renderTargeting } from '../../../testing/targeting-test-utils';
import {
  rampFixture,
  scheduleFixture,
  scheduleHandlers,
  SCHEDULES_API,
  type ScheduleState,
} from '../../../testing/schedules-test-server';
import {
  alertUrlOf,
  alertWrites,
  rampAlertFixture,
  rampAlertHandlers,
  type RampAlertState,
} from '../../../testing/ramp-alerts-test-server';
import { formatDate } from '../../../lib/format';

type Handlers = Parameters<typeof stubApi>[0];

/** Everyone else gets On 20 %, Off 80 %: the ramp grows On there. */
const RULES: Rule[] = [
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
/** The ramp of the tests, over the default rule (rule index 0 of RULES). */
const ramp = rampFixture(1, { spec: { ...rampFixture(1).spec, ruleIndex: 0 } });
const CARD = 'Ramp On in Everyone else to 100 %';
const ALERT_API = `${SCHEDULES_API}/${ramp.id}/alert`;

async function openPanel(
  options: {
    schedules?: Schedule[];
    alert?: RampAlertState['alert'];
    handlers?: Handlers;
    payload?: InitialPayload;
  } = {},
) {
  const state: ScheduleState = { schedules: options.schedules ?? [ramp], occurrences: [] };
  const alerts: RampAlertState = { alert: options.alert ?? null, made: 0 };
  const rendered = await renderTargeting(DEV_TARGETING, {
    feature,
    ...(options.payload ? { payload: options.payload } : {}),
    handlers: () => ({
      ...scheduleHandlers(state),
      ...rampAlertHandlers(ramp.id, alerts),
      ...options.handlers,
    }),
  });
  const list = await screen.findByRole('list', { name: 'Schedules' });
  return { ...rendered, alerts, list };
}

/** Opens the ramp's Alert URL modal from its card. */
async function openAlertUrl(opened: Awaited<ReturnType<typeof openPanel>>) {
  const card = within(opened.list).getByRole('listitem', { name: CARD });
  await opened.user.click(within(card).getByRole('button', { name: 'Alert URL' }));
  return screen.findByRole('dialog', { name: 'Alert URL' });
}

describe('Alert URL of a ramp', { timeout: 30_000 }, () => {
  afterEach(() => {
    resetOverlays();
    vi.unstubAllGlobals();
  });

  it('creates one that rolls back by default, and shows it once with a copy button and a curl line', async () => {
    const opened = await openPanel();
    const { user, calls } = opened;
    let dialog = await openAlertUrl(opened);

    expect(
      await within(dialog).findByText(
        'Any alerting tool — Alertmanager, Grafana, Datadog — can post to this URL to stop the ramp.',
      ),
    ).toBeVisible();
    expect(within(dialog).getByText(CARD)).toBeVisible();
    expect(within(dialog).getByRole('radio', { name: 'Roll back' })).toBeChecked();
    await user.click(within(dialog).getByRole('button', { name: 'Create alert URL' }));

    const url = alertUrlOf(1);
    const field = await within(dialog).findByRole('textbox', { name: 'Alert URL' });
    expect(field).toHaveValue(url);
    expect(field).toHaveAttribute('readonly');
    expect(within(dialog).getByText('Copy it now: it is shown only once.')).toBeVisible();
    expect(within(dialog).getByRole('region', { name: 'Example curl command' })).toHaveTextContent(
      `curl -X POST -H 'Content-Type: application/json' -d '{}' ${url}`,
    );
    expect(alertWrites(calls)).toEqual([{ method: 'POST', path: ALERT_API, body: { action: 'rollback' } }]);

    const writeText = vi.fn(() => Promise.resolve());
    // After userEvent.setup(), which installs its own clipboard.
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    await user.click(within(dialog).getByRole('button', { name: 'Copy alert URL' }));
    expect(writeText).toHaveBeenCalledWith(url);
    expect(await within(dialog).findByRole('button', { name: 'Copied to clipboard' })).toBeVisible();

    // Done, and opened again: what it does and who made it, never the URL.
    await user.click(within(dialog).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(within(opened.list).getByRole('button', { name: 'Alert URL' })).toHaveFocus();
    dialog = await openAlertUrl(opened);
    expect(await within(dialog).findByRole('button', { name: 'Replace URL' })).toBeVisible();
    expect(within(dialog).queryByRole('textbox', { name: 'Alert URL' })).toBeNull();
    expect(document.body.textContent).not.toContain(url);
  });

  it('shows what an existing one does, who made it, and when the last alert came and what it did', async () => {
    const opened = await openPanel({
      alert: rampAlertFixture({
        action: 'pause',
        createdBy: 'ada@example.com',
        lastAlertDate: '2026-01-03T10:00:00.000Z',
        lastResult: 'skipped: The ramp is already paused.',
      }),
    });
    const dialog = await openAlertUrl(opened);

    const details = await within(dialog).findByLabelText('Alert URL details');
    expect(details).toHaveTextContent(
      'An alertpauses the ramp where it is, until someone resumes it.' +
        `Made byada@example.com, ${formatDate('2026-01-02T03:04:05.000Z')}` +
        `Last alert${formatDate('2026-01-03T10:00:00.000Z')} Skipped The ramp is already paused.`,
    );
    expect(within(dialog).getByRole('button', { name: 'Remove' })).toBeVisible();
    expect(within(dialog).queryByRole('button', { name: 'Create alert URL' })).toBeNull();
  });

  it('says when no alert has come yet', async () => {
    const opened = await openPanel({ alert: rampAlertFixture() });
    const dialog = await openAlertUrl(opened);
    const details = await within(dialog).findByLabelText('Alert URL details');
    expect(details).toHaveTextContent('Last alertNone has come yet.');
    expect(details).toHaveTextContent('An alertrolls the ramp back');
  });

  it('replaces the URL only once confirmed, with what an alert should do now', async () => {
    const opened = await openPanel({ alert: rampAlertFixture() });
    const { user, calls } = opened;
    const dialog = await openAlertUrl(opened);

    await user.click(await within(dialog).findByRole('button', { name: 'Replace URL' }));
    let question = within(dialog).getByRole('group', { name: 'Replace the alert URL?' });
    expect(question).toHaveTextContent('The old URL stops working at once');
    expect(within(question).getByRole('button', { name: 'Keep the old URL' })).toHaveFocus();
    // While it asks, its answers are the only buttons that change anything.
    expect(within(dialog).queryByRole('button', { name: 'Remove' })).toBeNull();
    await user.click(within(question).getByRole('button', { name: 'Keep the old URL' }));
    expect(within(dialog).queryByRole('group', { name: 'Replace the alert URL?' })).toBeNull();
    expect(alertWrites(calls)).toEqual([]);

    await user.click(within(dialog).getByRole('button', { name: 'Replace URL' }));
    question = within(dialog).getByRole('group', { name: 'Replace the alert URL?' });
    await user.click(within(question).getByRole('radio', { name: 'Pause' }));
    await user.click(within(question).getByRole('button', { name: 'Replace URL' }));

    expect(await within(dialog).findByRole('textbox', { name: 'Alert URL' })).toHaveValue(alertUrlOf(1));
    expect(alertWrites(calls)).toEqual([{ method: 'POST', path: ALERT_API, body: { action: 'pause' } }]);
  });

  it('removes the URL only once confirmed, and then offers to create one', async () => {
    const opened = await openPanel({ alert: rampAlertFixture() });
    const { user, calls } = opened;
    const dialog = await openAlertUrl(opened);

    await user.click(await within(dialog).findByRole('button', { name: 'Remove' }));
    let question = within(dialog).getByRole('group', { name: 'Remove the alert URL?' });
    expect(question).toHaveTextContent('Alerts posted to it will no longer stop the ramp.');
    await user.click(within(question).getByRole('button', { name: 'Keep it' }));
    expect(alertWrites(calls)).toEqual([]);

    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    question = within(dialog).getByRole('group', { name: 'Remove the alert URL?' });
    await user.click(within(question).getByRole('button', { name: 'Remove URL' }));

    expect(await screen.findByText('Alert URL removed.')).toBeVisible();
    expect(await within(dialog).findByRole('button', { name: 'Create alert URL' })).toBeVisible();
    expect(alertWrites(calls)).toEqual([{ method: 'DELETE', path: ALERT_API, body: undefined }]);
  });

  it('is not offered to a read-only member, nor for a schedule that is not a ramp', async () => {
    const { list, calls } = await openPanel({
      schedules: [ramp, scheduleFixture(2)],
      payload: payloadFor('ROLE_ORGANISATION_READONLY_USER'),
    });
    const card = within(list).getByRole('listitem', { name: CARD });
    expect(within(card).getByRole('button', { name: 'Pause' })).toBeDisabled();
    expect(within(list).queryByRole('button', { name: 'Alert URL' })).toBeNull();
    expect(calls.filter((call) => call.path.endsWith('/alert'))).toEqual([]);
  });

  it('shows the server’s reason when creating one is refused, and keeps the form', async () => {
    const refusal = DENIAL_MESSAGES.controlUpdateProduction;
    const opened = await openPanel({
      handlers: {
        [`POST ${ALERT_API}`]: () =>
          jsonResponse(403, { title: refusal, code: 'production_rights_required' }),
      },
    });
    const dialog = await openAlertUrl(opened);
    await opened.user.click(await within(dialog).findByRole('button', { name: 'Create alert URL' }));

    expect(await within(dialog).findByRole('alert')).toHaveTextContent(refusal);
    expect(within(dialog).getByRole('button', { name: 'Create alert URL' })).toBeEnabled();
    expect(within(dialog).queryByRole('textbox', { name: 'Alert URL' })).toBeNull();
  });

  it('shows a failed load with Retry, which loads it again', async () => {
    let fail = true;
    const opened = await openPanel({
      handlers: {
        [`GET ${ALERT_API}`]: () =>
          fail
            ? jsonResponse(500, { title: 'The database is unavailable, please retry.' })
            : jsonResponse(200, rampAlertFixture()),
      },
    });
    const dialog = await openAlertUrl(opened);
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('We could not load the alert URL.');
    expect(alert).toHaveTextContent('The database is unavailable, please retry.');

    fail = false;
    await opened.user.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await within(dialog).findByRole('button', { name: 'Replace URL' })).toBeVisible();
  });
});
