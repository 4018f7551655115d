import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import dayjs from 'dayjs';
import { renderFeatureDetail } from '../../../testing/feature-detail-test-utils';
import { DETAIL, resetOverlays } from '../../../testing/test-fixtures';
import {
  occurrenceOf,
  rampFixture,
  scheduleFixture,
  scheduleHandlers,
  type ScheduleState,
} from '../../../testing/schedules-test-server';
import { jsonResponse } from '../../../testing/test-utils';

const DEV = '/projects/web/environments/dev/features/checkout';

function render(path: string, state: ScheduleState) {
  return renderFeatureDetail(path, { handlers: scheduleHandlers(state) });
}

describe('The feature header’s schedule badge', () => {
  afterEach(() => {
    resetOverlays();
    vi.unstubAllGlobals();
  });

  it('says a ramp is running, and leads to the Targeting tab', async () => {
    const { pathname } = render(DEV, {
      schedules: [rampFixture(1, { currentStep: 1 })],
      occurrences: [],
    });
    const badge = await screen.findByRole('link', { name: 'Ramping 50 %' });

    await userEvent.setup().click(badge);

    await waitFor(() => expect(pathname()).toBe(`${DEV}/targeting`));
  });

  it('says what is scheduled next, and when', async () => {
    const dueDay = dayjs().add(2, 'day').hour(9).minute(0).second(0).millisecond(0);
    const turnOn = scheduleFixture(1, { nextDueDate: dueDay.toISOString() });
    render(DEV, {
      schedules: [turnOn],
      occurrences: [occurrenceOf(turnOn, dueDay.toISOString(), 'Turn on')],
    });

    expect(
      await screen.findByRole('link', { name: `Scheduled: Turn on · ${dueDay.format('ddd')} 09:00` }),
    ).toHaveAttribute('href', `${DEV}/targeting`);
  });

  it('shows nothing when nothing is scheduled here, or the schedules cannot be loaded', async () => {
    renderFeatureDetail(DETAIL, {
      handlers: {
        'GET /api/v1/projects/web/schedules': () =>
          jsonResponse(500, { title: 'The database is unavailable.' }),
      },
    });
    await screen.findByRole('heading', { name: 'New checkout', level: 1 });
    expect(screen.queryByRole('link', { name: /^Scheduled|^Ramping/ })).toBeNull();
    expect(screen.queryByText('The database is unavailable.')).toBeNull();
  });
});
