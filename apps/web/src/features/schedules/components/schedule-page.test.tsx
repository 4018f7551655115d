import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import dayjs from 'dayjs';
import { jsonResponse } from '../../../testing/test-utils';
import { resetOverlays } from '../../../testing/test-fixtures';
import {
  listQueries,
  occurrenceOf,
  rampFixture,
  recurringFixture,
  renderSchedulePage,
  scheduleFixture,
  SCHEDULES_API,
  serveSchedules,
} from '../../../testing/schedules-test-server';

const PAGE = '/projects/web/environments/dev/schedule';

/** Local `HH:mm` on the day `days` from today, as ISO 8601. */
const at = (days: number, time: string) => {
  const [hour, minute] = time.split(':').map(Number);
  return dayjs().startOf('day').add(days, 'day').hour(hour!).minute(minute!).toISOString();
};
const dayName = (days: number) => dayjs().startOf('day').add(days, 'day').format('dddd D MMMM');

const turnOn = scheduleFixture(1, { nextDueDate: at(3, '08:00') });
const evenings = recurringFixture(2, {
  featureKey: 'search',
  featureName: 'Smart search',
  environmentKey: 'production',
  environmentName: 'Production',
  nextDueDate: at(1, '18:00'),
});
const ramp = rampFixture(3, { nextDueDate: at(1, '09:00') });
const OCCURRENCES = [
  occurrenceOf(evenings, at(1, '18:00'), 'Turn off'),
  occurrenceOf(ramp, at(1, '09:00'), 'Ramp step 2: 50 %'),
  occurrenceOf(turnOn, at(3, '08:00'), 'Turn on'),
  occurrenceOf(evenings, at(2, '18:00'), 'Turn off'),
];

function serve(options: Parameters<typeof serveSchedules>[0] = {}) {
  return serveSchedules({ schedules: [turnOn, evenings, ramp], occurrences: OCCURRENCES, ...options });
}

/** The entries of a day of the calendar, as "time feature description environment". */
function entriesOf(day: HTMLElement): string[] {
  return within(day)
    .getAllByRole('listitem')
    .map((item) => item.textContent ?? '');
}

describe('Schedule page', () => {
  afterEach(() => {
    resetOverlays();
    vi.unstubAllGlobals();
  });

  it('shows the next 14 days with each day’s occurrences in time order, each leading to its feature', async () => {
    const { calls } = serve();
    renderSchedulePage(PAGE);

    expect(await screen.findByRole('heading', { name: 'Schedule', level: 1 })).toBeVisible();
    const tomorrow = await screen.findByRole('region', { name: dayName(1) });
    expect(entriesOf(tomorrow)).toEqual([
      '09:00New checkoutRamp step 2: 50 %Development',
      '18:00Smart searchTurn offProduction',
    ]);
    expect(within(tomorrow).getByRole('link', { name: 'Smart search' })).toHaveAttribute(
      'href',
      '/projects/web/environments/production/features/search/targeting',
    );
    expect(entriesOf(screen.getByRole('region', { name: dayName(2) }))).toEqual([
      '18:00Smart searchTurn offProduction',
    ]);
    expect(entriesOf(screen.getByRole('region', { name: dayName(3) }))).toEqual([
      '08:00New checkoutTurn onDevelopment',
    ]);
    const today = screen.getByRole('region', { name: dayName(0) });
    expect(within(today).getByText('Today')).toBeVisible();
    expect(within(today).getByText('Nothing due')).toBeVisible();
    expect(screen.getByRole('region', { name: dayName(13) })).toBeVisible();
    expect(screen.queryByRole('region', { name: dayName(14) })).toBeNull();

    // The window asked for starts at today's local midnight and lasts 14 days.
    const [query] = listQueries(calls);
    expect(query).toEqual({
      from: dayjs().startOf('day').toISOString(),
      to: dayjs().startOf('day').add(14, 'day').toISOString(),
    });
  });

  it('lists every schedule with its environment, kind, state and next time, linked to its Targeting tab', async () => {
    serve();
    renderSchedulePage(PAGE);
    const table = await screen.findByRole('table', { name: 'Schedules', busy: false });

    const row = within(table).getByRole('link', { name: 'Smart search' }).closest('tr')!;
    expect(within(table).getByRole('link', { name: 'Smart search' })).toHaveAttribute(
      'href',
      '/projects/web/environments/production/features/search/targeting',
    );
    expect(within(row).getByText('Production')).toBeVisible();
    expect(within(row).getByText('Recurring')).toBeVisible();
    expect(within(row).getByText('Turn off weekdays at 18:00 (Europe/Berlin)')).toBeVisible();
    expect(within(row).getByText('Running')).toBeVisible();
    const rampRow = within(table).getAllByRole('link', { name: 'New checkout' })[1]!.closest('tr')!;
    expect(within(rampRow).getByText('Ramp “on” to 100 % in 3 steps')).toBeVisible();
    expect(within(rampRow).getByText('Now at 10 %')).toBeVisible();
  });

  it('filters by feature, environment, state and finished schedules', async () => {
    const cancelled = scheduleFixture(4, {
      featureKey: 'banner',
      featureName: 'Holiday banner',
      state: 'cancelled',
      nextDueDate: null,
    });
    const { calls } = serveSchedules({
      schedules: [turnOn, evenings, ramp, cancelled],
      occurrences: OCCURRENCES,
    });
    renderSchedulePage(PAGE);
    const user = userEvent.setup();
    const table = await screen.findByRole('table', { name: 'Schedules', busy: false });
    const features = () =>
      within(table)
        .getAllByRole('row')
        .slice(1)
        .map((row) => within(row).getByRole('link').textContent);
    expect(features()).toEqual(['New checkout', 'Smart search', 'New checkout']);

    await user.type(screen.getByRole('textbox', { name: 'Feature' }), 'SEARCH');
    expect(features()).toEqual(['Smart search']);
    // The calendar keeps only its occurrences too.
    expect(within(screen.getByRole('region', { name: dayName(1) })).getAllByRole('listitem')).toHaveLength(1);
    await user.clear(screen.getByRole('textbox', { name: 'Feature' }));

    await user.click(screen.getByRole('combobox', { name: 'State' }));
    await user.click(await screen.findByRole('option', { name: 'Ready' }));
    expect(features()).toEqual(['New checkout']);
    expect(within(table).getByText(/^Turn on at /)).toBeVisible();
    await user.click(screen.getByRole('combobox', { name: 'State' }));
    await user.click(await screen.findByRole('option', { name: 'Cancelled' }));
    expect(await screen.findByText('No schedule matches these filters.')).toBeVisible();

    await user.click(screen.getByRole('switch', { name: 'Show finished' }));
    await waitFor(() => expect(listQueries(calls).at(-1)).toMatchObject({ finished: 'true' }));
    const finished = await screen.findByRole('table', { name: 'Schedules', busy: false });
    expect(within(finished).getByRole('link', { name: 'Holiday banner' })).toBeVisible();
    expect(within(finished).getByText('Cancelled')).toBeVisible();
  });

  it('asks the server for one environment', async () => {
    const { calls } = serve();
    renderSchedulePage(PAGE);
    const user = userEvent.setup();
    await screen.findByRole('table', { name: 'Schedules', busy: false });

    await user.click(screen.getByRole('combobox', { name: 'Environment' }));
    await user.click(await screen.findByRole('option', { name: 'Production' }));

    await waitFor(() => expect(listQueries(calls).at(-1)).toMatchObject({ environmentKey: 'production' }));
    const table = await screen.findByRole('table', { name: 'Schedules', busy: false });
    await waitFor(() =>
      expect(
        within(table)
          .getAllByRole('row')
          .slice(1)
          .map((row) => within(row).getByRole('link').textContent),
      ).toEqual(['Smart search']),
    );
  });

  it('says when nothing is scheduled, and when nothing matches', async () => {
    serveSchedules();
    renderSchedulePage(PAGE);
    expect(await screen.findByText('Nothing is scheduled in Web shop.')).toBeVisible();
    expect(screen.queryByRole('table')).toBeNull();

    await userEvent.setup().type(screen.getByRole('textbox', { name: 'Feature' }), 'nope');
    expect(await screen.findByText('No schedule matches these filters.')).toBeVisible();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Clear filters' }));
    expect(await screen.findByText('Nothing is scheduled in Web shop.')).toBeVisible();
    expect(screen.getByRole('textbox', { name: 'Feature' })).toHaveValue('');
  });

  it('shows a failed load with Retry, which loads it again', async () => {
    let fail = true;
    serveSchedules({
      handlers: {
        [`GET ${SCHEDULES_API}`]: () =>
          fail
            ? jsonResponse(500, { title: 'The database is unavailable, please retry.' })
            : jsonResponse(200, {
                from: at(0, '00:00'),
                to: at(14, '00:00'),
                occurrences: [],
                schedules: [],
              }),
      },
    });
    renderSchedulePage(PAGE);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('We could not load the schedule.');
    expect(alert).toHaveTextContent('The database is unavailable, please retry.');

    fail = false;
    await userEvent.setup().click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('Nothing is scheduled in Web shop.')).toBeVisible();
  });
});
