import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import dayjs from 'dayjs';
import { SCHEDULE_MESSAGES } from '@vexil/core';
import { formatDate } from '../../../lib/format';
import { jsonResponse, type stubApi } from '../../../testing/test-utils';
import { resetOverlays } from '../../../testing/test-fixtures';
import { choose, DEV_TARGETING, renderTargeting } from '../../../testing/targeting-test-utils';
import { changeRequestFixture, summaryOf } from '../../../testing/change-requests-test-server';
import { SCHEDULES_API, scheduleHandlers, type ScheduleState } from '../../../testing/schedules-test-server';
import { PICK_DATE_MESSAGE } from './schedule-change-modal';

type Handlers = Parameters<typeof stubApi>[0];

const posts = (calls: { method: string; path: string; body: unknown }[]) =>
  calls.filter((call) => call.method === 'POST' && call.path === SCHEDULES_API).map((call) => call.body);

/** A local date and time far enough ahead, as the field takes it and as it is sent (with the offset). */
const LOCAL = '2030-05-06T09:30';
const SENT = dayjs(LOCAL).format('YYYY-MM-DDTHH:mm:ssZ');

async function openForm(handlers: (state: ScheduleState) => Handlers = () => ({})) {
  const state: ScheduleState = { schedules: [], occurrences: [] };
  const rendered = await renderTargeting(DEV_TARGETING, {
    handlers: () => ({ ...scheduleHandlers(state), ...handlers(state) }),
  });
  await rendered.user.click(await screen.findByRole('button', { name: 'Schedule change' }));
  const dialog = await screen.findByRole('dialog', { name: 'Schedule change' });
  return { ...rendered, state, dialog };
}

/** Sets a date-time field as the browser's picker does. */
const setDateTime = (input: HTMLElement, value: string) => fireEvent.change(input, { target: { value } });

describe('Schedule change', { timeout: 30_000 }, () => {
  afterEach(() => {
    resetOverlays();
    vi.unstubAllGlobals();
  });

  it('schedules turning the feature on once, at a local time sent with its offset', async () => {
    const { dialog, user, calls } = await openForm();
    // The feature is off here: turning it on is offered first.
    expect(within(dialog).getByRole('radio', { name: 'Turn on' })).toBeChecked();
    expect(
      within(dialog).getByText(`In your time zone, ${Intl.DateTimeFormat().resolvedOptions().timeZone}.`),
    ).toBeVisible();

    setDateTime(within(dialog).getByLabelText(/^Date and time/), LOCAL);
    await user.type(within(dialog).getByRole('textbox', { name: /^Comment/ }), 'Launch day');
    await user.click(within(dialog).getByRole('button', { name: 'Schedule' }));

    expect(await screen.findByText(`Scheduled: Turn on at ${formatDate(SENT)}.`)).toBeVisible();
    expect(posts(calls)).toEqual([
      {
        kind: 'once',
        featureKey: 'checkout',
        environmentKey: 'dev',
        comment: 'Launch day',
        at: SENT,
        change: { enabled: true },
      },
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const schedules = await screen.findByRole('list', { name: 'Schedules' });
    expect(within(schedules).getByRole('listitem', { name: `Turn on at ${formatDate(SENT)}` })).toBeVisible();
  });

  it('schedules a recurring change from a preset, in a chosen time zone, until a date, skipping missed ones', async () => {
    const { dialog, user, calls } = await openForm();
    await user.click(within(dialog).getByRole('radio', { name: 'Recurring' }));
    expect(within(dialog).getByRole('combobox', { name: /^Time zone/ })).toHaveValue(
      Intl.DateTimeFormat().resolvedOptions().timeZone,
    );

    await user.click(within(dialog).getByRole('button', { name: 'Weekdays at 18:00' }));
    expect(within(dialog).getByRole('textbox', { name: /^Cron expression/ })).toHaveValue('0 18 * * 1-5');
    expect(within(dialog).getByText('Runs weekdays at 18:00, in the time zone below.')).toBeVisible();
    await user.click(within(dialog).getByRole('radio', { name: 'Turn off' }));
    const zone = within(dialog).getByRole('combobox', { name: /^Time zone/ });
    await user.clear(zone);
    await user.type(zone, 'Europe/Berl');
    await user.click(await screen.findByRole('option', { name: 'Europe/Berlin' }));
    setDateTime(within(dialog).getByLabelText(/^Until/), LOCAL);
    await user.click(within(dialog).getByRole('radio', { name: 'Skip' }));
    await user.click(within(dialog).getByRole('button', { name: 'Schedule' }));

    await waitFor(() => expect(posts(calls)).toHaveLength(1));
    expect(posts(calls)[0]).toEqual({
      kind: 'recurring',
      featureKey: 'checkout',
      environmentKey: 'dev',
      cron: '0 18 * * 1-5',
      timeZone: 'Europe/Berlin',
      change: { enabled: false },
      until: SENT,
      catchUp: 'skip',
    });
    expect(await screen.findByText('Scheduled: Turn off weekdays at 18:00 (Europe/Berlin).')).toBeVisible();
  });

  it('builds an every-day cron from the time chosen', async () => {
    const { dialog, user, calls } = await openForm();
    await user.click(within(dialog).getByRole('radio', { name: 'Recurring' }));
    setDateTime(within(dialog).getByLabelText('Time of day'), '07:45');
    await user.click(within(dialog).getByRole('button', { name: 'Every day at 07:45' }));
    await user.click(within(dialog).getByRole('button', { name: 'Schedule' }));

    await waitFor(() => expect(posts(calls)).toHaveLength(1));
    expect(posts(calls)[0]).toMatchObject({ cron: '45 7 * * *', catchUp: 'once', change: { enabled: true } });
  });

  it('says what is missing or wrong before sending anything', async () => {
    const { dialog, user, calls } = await openForm();
    setDateTime(within(dialog).getByLabelText(/^Date and time/), '');
    await user.click(within(dialog).getByRole('button', { name: 'Schedule' }));
    expect(within(dialog).getByText(PICK_DATE_MESSAGE)).toBeVisible();
    setDateTime(within(dialog).getByLabelText(/^Date and time/), '2020-01-01T10:00');
    await user.click(within(dialog).getByRole('button', { name: 'Schedule' }));
    expect(within(dialog).getByText(SCHEDULE_MESSAGES.atBeforeNow)).toBeVisible();

    await user.click(within(dialog).getByRole('radio', { name: 'Recurring' }));
    const cron = within(dialog).getByRole('textbox', { name: /^Cron expression/ });
    await user.clear(cron);
    await user.type(cron, '0 8 * *');
    setDateTime(within(dialog).getByLabelText(/^Until/), '2020-01-01T10:00');
    await user.click(within(dialog).getByRole('button', { name: 'Schedule' }));

    expect(within(dialog).getByText(SCHEDULE_MESSAGES.cronFields)).toBeVisible();
    expect(within(dialog).getByText(SCHEDULE_MESSAGES.untilBeforeNow)).toBeVisible();
    expect(posts(calls)).toEqual([]);
  });

  it('shows the server’s field errors under their fields and keeps what was typed', async () => {
    const REFUSAL = 'The hour field must be between 0 and 23.';
    const { dialog, user, calls } = await openForm(() => ({
      [`POST ${SCHEDULES_API}`]: () =>
        jsonResponse(400, { title: REFUSAL, errors: [{ field: 'cron', message: REFUSAL }], code: 'invalid' }),
    }));
    await user.click(within(dialog).getByRole('radio', { name: 'Recurring' }));
    const cron = within(dialog).getByRole('textbox', { name: /^Cron expression/ });
    await user.clear(cron);
    await user.type(cron, '0 25 * * *');
    await user.click(within(dialog).getByRole('button', { name: 'Schedule' }));

    expect(await within(dialog).findByText(REFUSAL)).toBeVisible();
    expect(cron).toHaveValue('0 25 * * *');
    expect(cron).toHaveAttribute('aria-invalid', 'true');
    expect(posts(calls)).toHaveLength(1);
    // Said once, under its field.
    expect(within(dialog).queryByRole('alert')).toBeNull();
  });

  it('schedules an approved change request where changes go through them', async () => {
    const approved = changeRequestFixture(4, {
      state: 'approved',
      environmentKey: 'dev',
      environmentName: 'Development',
      title: 'Open checkout to Germany',
    });
    const { dialog, user, calls } = await openForm(() => ({
      'GET /api/v1/projects/web/environments/dev/change-request-policy': () =>
        jsonResponse(200, { required: true, mayBypass: false, changeRequestId: null }),
      'GET /api/v1/projects/web/change-requests': ({ url }) =>
        jsonResponse(200, {
          content: url.searchParams.get('state') === 'approved' ? [summaryOf(approved)] : [],
          totalElements: 1,
          last: true,
        }),
    }));
    // Changes here go through change requests: applying an approved one is what is offered first.
    expect(within(dialog).getByRole('radio', { name: 'Apply an approved change request' })).toBeChecked();
    setDateTime(within(dialog).getByLabelText(/^Date and time/), LOCAL);
    await user.click(within(dialog).getByRole('button', { name: 'Schedule' }));
    expect(within(dialog).getByText('Choose an approved change request.')).toBeVisible();

    await choose(
      user,
      within(dialog).getByRole('combobox', { name: /^Change request/ }),
      'Open checkout to Germany',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Schedule' }));

    await waitFor(() => expect(posts(calls)).toHaveLength(1));
    expect(posts(calls)[0]).toEqual({
      kind: 'once',
      featureKey: 'checkout',
      environmentKey: 'dev',
      at: SENT,
      change: { changeRequestId: approved.id },
    });
    const list = calls.find((call) => call.path.startsWith('/api/v1/projects/web/change-requests?'));
    expect(Object.fromEntries(new URL(list!.path, 'http://localhost').searchParams)).toEqual({
      state: 'approved',
      environmentKey: 'dev',
      page: '0',
    });
  });

  it('shows the refusal of a direct change in a protected environment, and keeps the form', async () => {
    const REFUSAL =
      'Changes to Development go through change requests: schedule an approved change request instead.';
    const { dialog, user } = await openForm(() => ({
      [`POST ${SCHEDULES_API}`]: () => jsonResponse(409, { title: REFUSAL, code: 'change_request_required' }),
    }));
    setDateTime(within(dialog).getByLabelText(/^Date and time/), LOCAL);
    await user.click(within(dialog).getByRole('button', { name: 'Schedule' }));

    expect(await within(dialog).findByRole('alert')).toHaveTextContent(REFUSAL);
    expect(within(dialog).getByLabelText(/^Date and time/)).toHaveValue(LOCAL);
  });

  it('puts a change the environment refuses into the change request it names, as a schedule', async () => {
    const request = changeRequestFixture(7, { title: 'Spring launch' });
    const added: unknown[] = [];
    const { dialog, user } = await openForm(() => ({
      [`POST ${SCHEDULES_API}`]: () =>
        jsonResponse(409, {
          title: 'Changes to Development go through change requests: add this change to one.',
          code: 'change_request_required',
          environmentKey: 'dev',
          changeRequestId: request.id,
        }),
      [`POST /api/v1/projects/web/change-requests/${request.id}/changes`]: ({ body }: { body: unknown }) => {
        added.push(body);
        return jsonResponse(200, request);
      },
    }));
    setDateTime(within(dialog).getByLabelText(/^Date and time/), LOCAL);
    await user.click(within(dialog).getByRole('button', { name: 'Schedule' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      /it is scheduled once the request is applied\.$/,
    );
    await user.click(within(dialog).getByRole('button', { name: 'Add to change request' }));
    expect(await screen.findByText('Added to the change request “Spring launch”.')).toBeVisible();
    expect(added).toEqual([
      {
        kind: 'schedule',
        schedule: {
          kind: 'once',
          featureKey: 'checkout',
          environmentKey: 'dev',
          at: SENT,
          change: { enabled: true },
        },
      },
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});
