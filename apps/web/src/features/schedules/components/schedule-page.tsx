import { useId, useState, type ReactNode } from 'react';
import { Button, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCalendarTime } from '@tabler/icons-react';
import dayjs from 'dayjs';
import type { ProjectSummary, Schedule, ScheduleOccurrence } from '@vexil/core';
import { EmptyState } from '../../../components/empty-state';
import { LoadError } from '../../../components/load-error';
import { useSchedules } from '../../../entities/schedules/api/get-schedules';
import { CALENDAR_DAYS, ScheduleCalendar } from './schedule-calendar';
import { filtering, ScheduleFilterBar, useScheduleFilters, type ScheduleFilters } from './schedule-filters';
import { SchedulesTable } from './schedules-table';

export type SchedulePageProps = {
  project: Pick<ProjectSummary, 'key' | 'name' | 'environments'>;
};

/** Whether a feature's name or key contains the text, ignoring case. */
function matchesFeature(item: { featureKey: string; featureName: string }, text: string): boolean {
  const needle = text.trim().toLowerCase();
  return (
    needle === '' ||
    item.featureName.toLowerCase().includes(needle) ||
    item.featureKey.toLowerCase().includes(needle)
  );
}

/** What the filters keep: the environment and finished ones are asked of the server, the rest here. */
function filtered(
  data: { schedules: Schedule[]; occurrences: ScheduleOccurrence[] },
  filters: ScheduleFilters,
): { schedules: Schedule[]; occurrences: ScheduleOccurrence[] } {
  const schedules = data.schedules.filter(
    (schedule) =>
      matchesFeature(schedule, filters.feature) &&
      (filters.state === null || schedule.state === filters.state),
  );
  const states = new Map(data.schedules.map((schedule) => [schedule.id, schedule.state]));
  const occurrences = data.occurrences.filter(
    (occurrence) =>
      matchesFeature(occurrence, filters.feature) &&
      (filters.state === null || states.get(occurrence.scheduleId) === filters.state),
  );
  return { schedules, occurrences };
}

/**
 * A project's Schedule (docs/adr/0025-scheduler.md): what Vexil changes on its own in the coming 14
 * days, as a calendar, and every schedule in a table, filtered by feature, environment and state, the
 * finished ones on demand. Each entry leads to its feature's Targeting tab, where schedules are made
 * and acted on.
 */
export function SchedulePage({ project }: SchedulePageProps) {
  const calendarTitle = useId();
  const tableTitle = useId();
  // Today's local midnight, once: the window stays the same while the page is open.
  const [from] = useState(() => dayjs().startOf('day').toDate());
  const { filters, setFeature, setEnvironment, setState, setFinished, clear } = useScheduleFilters(
    project.environments.map((environment) => environment.key),
  );
  const list = useSchedules({
    projectKey: project.key,
    from: from.toISOString(),
    to: dayjs(from).add(CALENDAR_DAYS, 'day').toISOString(),
    environmentKey: filters.environmentKey ?? undefined,
    finished: filters.finished,
  });
  const environmentName = (key: string) =>
    project.environments.find((environment) => environment.key === key)?.name ?? key;

  const shown = list.data ? filtered(list.data, filters) : null;
  let body: ReactNode;
  if (list.isError && !list.data) {
    body = (
      <LoadError
        title="We could not load the schedule."
        error={list.error}
        retrying={list.isFetching}
        onRetry={() => void list.refetch()}
      />
    );
  } else if (shown && shown.schedules.length === 0 && shown.occurrences.length === 0) {
    body = filtering(filters) ? (
      <EmptyState maw={520}>
        <Text fw={600}>No schedule matches these filters.</Text>
        <Button variant="default" onClick={clear}>
          Clear filters
        </Button>
      </EmptyState>
    ) : (
      <EmptyState maw={520}>
        <ThemeIcon size={48} radius="xl" variant="light" aria-hidden="true">
          <IconCalendarTime size={26} />
        </ThemeIcon>
        <Text fw={600}>Nothing is scheduled in {project.name}.</Text>
        <Text size="sm" c="dimmed">
          Schedule a change, or ramp a rule’s variant up step by step, from a feature’s Targeting tab.
        </Text>
      </EmptyState>
    );
  } else {
    body = (
      <Stack gap="xl">
        <Stack gap="sm" component="section" aria-labelledby={calendarTitle}>
          <Title order={2} fz="lg" id={calendarTitle}>
            Next {CALENDAR_DAYS} days
          </Title>
          <ScheduleCalendar
            occurrences={shown?.occurrences ?? null}
            from={from}
            projectKey={project.key}
            environmentName={environmentName}
          />
        </Stack>
        <Stack gap="sm" component="section" aria-labelledby={tableTitle}>
          <Title order={2} fz="lg" id={tableTitle}>
            Schedules
          </Title>
          {shown && shown.schedules.length === 0 ? (
            <Text size="sm" c="dimmed">
              {filtering(filters) ? 'No schedule matches these filters.' : 'No schedule is pending.'}
            </Text>
          ) : (
            <SchedulesTable schedules={shown?.schedules ?? null} projectKey={project.key} />
          )}
        </Stack>
      </Stack>
    );
  }

  return (
    <Stack gap="lg">
      <Stack gap={4} miw={0}>
        <Title order={1}>Schedule</Title>
        <Text c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          The changes Vexil makes on its own in {project.name}: ramps, one-off and recurring changes.
        </Text>
      </Stack>
      <ScheduleFilterBar
        filters={filters}
        environments={project.environments}
        onFeature={setFeature}
        onEnvironment={setEnvironment}
        onState={setState}
        onFinished={setFinished}
      />
      {body}
    </Stack>
  );
}
