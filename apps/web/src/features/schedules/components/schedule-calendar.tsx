import { Anchor, Badge, Group, Paper, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import dayjs from 'dayjs';
import { Link } from 'react-router';
import type { ScheduleOccurrence } from '@vexil/core';
import { useNarrowScreen } from '../../../lib/narrow-screen';
import { featureDetailPath } from '../../../lib/paths';

/** How many days the calendar shows, from today. */
export const CALENDAR_DAYS = 14;

export type ScheduleCalendarProps = {
  /** null while the list first loads: skeletons stand in. */
  occurrences: readonly ScheduleOccurrence[] | null;
  /** Local midnight of the first day. */
  from: Date;
  projectKey: string;
  environmentName: (key: string) => string;
};

/** The occurrences of each day of the window, by local day (`YYYY-MM-DD`), in time order. */
export function occurrencesByDay(
  occurrences: readonly ScheduleOccurrence[],
): Map<string, ScheduleOccurrence[]> {
  const days = new Map<string, ScheduleOccurrence[]>();
  for (const occurrence of [...occurrences].sort((a, b) => Date.parse(a.date) - Date.parse(b.date))) {
    const day = dayjs(occurrence.date).format('YYYY-MM-DD');
    days.set(day, [...(days.get(day) ?? []), occurrence]);
  }
  return days;
}

function Occurrence({
  occurrence,
  projectKey,
  environmentName,
}: {
  occurrence: ScheduleOccurrence;
  projectKey: string;
  environmentName: (key: string) => string;
}) {
  return (
    <Stack component="li" gap={2} miw={0}>
      <Group gap={6} wrap="nowrap" align="baseline">
        <Text component="time" dateTime={occurrence.date} size="xs" fw={700} style={{ flexShrink: 0 }}>
          {dayjs(occurrence.date).format('HH:mm')}
        </Text>
        <Anchor
          component={Link}
          to={featureDetailPath(projectKey, occurrence.environmentKey, occurrence.featureKey, 'targeting')}
          size="sm"
          fw={500}
          style={{ overflowWrap: 'anywhere', minWidth: 0 }}
        >
          {occurrence.featureName}
        </Anchor>
      </Group>
      <Text size="xs" style={{ overflowWrap: 'anywhere' }}>
        {occurrence.description}
      </Text>
      <Badge variant="light" color="gray" size="xs" tt="none" maw="100%">
        {environmentName(occurrence.environmentKey)}
      </Badge>
    </Stack>
  );
}

/**
 * The coming 14 days: a grid of days, each listing what falls due then, at a desktop width; on a
 * phone a list of the days that have something, grouped by day. Each entry leads to its feature's
 * Targeting tab in its environment.
 */
export function ScheduleCalendar({ occurrences, from, projectKey, environmentName }: ScheduleCalendarProps) {
  const narrow = useNarrowScreen();
  const today = dayjs().format('YYYY-MM-DD');
  const days = Array.from({ length: CALENDAR_DAYS }, (_, index) => dayjs(from).add(index, 'day'));
  if (occurrences === null) {
    return (
      <SimpleGrid
        cols={{ base: 1, sm: 2, md: 4, lg: 7 }}
        spacing="xs"
        aria-busy="true"
        aria-label="Loading the calendar"
      >
        {days.slice(0, narrow ? 2 : CALENDAR_DAYS).map((day) => (
          <Skeleton key={day.valueOf()} height={narrow ? 64 : 110} radius="md" />
        ))}
      </SimpleGrid>
    );
  }
  const byDay = occurrencesByDay(occurrences);
  const list = (day: dayjs.Dayjs) => byDay.get(day.format('YYYY-MM-DD')) ?? [];

  if (narrow) {
    const busy = days.filter((day) => list(day).length > 0);
    if (busy.length === 0) {
      return (
        <Text size="sm" c="dimmed">
          Nothing falls due in the next {CALENDAR_DAYS} days.
        </Text>
      );
    }
    return (
      <Stack gap="md">
        {busy.map((day) => (
          <Stack key={day.valueOf()} component="section" gap="xs" aria-label={day.format('dddd D MMMM')}>
            <Group gap="xs">
              <Title order={3} fz="sm">
                {day.format('dddd D MMMM')}
              </Title>
              {day.format('YYYY-MM-DD') === today ? (
                <Badge size="xs" variant="filled">
                  Today
                </Badge>
              ) : null}
            </Group>
            <Paper withBorder radius="md" p="sm">
              <Stack component="ul" gap="sm" m={0} p={0} style={{ listStyle: 'none' }}>
                {list(day).map((occurrence) => (
                  <Occurrence
                    key={`${occurrence.scheduleId}:${occurrence.date}`}
                    occurrence={occurrence}
                    projectKey={projectKey}
                    environmentName={environmentName}
                  />
                ))}
              </Stack>
            </Paper>
          </Stack>
        ))}
      </Stack>
    );
  }

  return (
    <SimpleGrid cols={{ base: 1, sm: 2, md: 4, lg: 7 }} spacing="xs" verticalSpacing="xs">
      {days.map((day) => {
        const isToday = day.format('YYYY-MM-DD') === today;
        const due = list(day);
        return (
          <Paper
            key={day.valueOf()}
            component="section"
            withBorder
            radius="md"
            p="xs"
            mih={110}
            aria-label={day.format('dddd D MMMM')}
            style={isToday ? { borderColor: 'var(--mantine-color-blue-filled)' } : undefined}
          >
            <Group justify="space-between" gap={4} mb={6} wrap="nowrap">
              <Title order={3} fz="sm" fw={isToday ? 700 : 600}>
                {day.format('ddd D MMM')}
              </Title>
              {isToday ? (
                <Badge size="xs" variant="filled">
                  Today
                </Badge>
              ) : null}
            </Group>
            {due.length === 0 ? (
              <Text size="xs" c="dimmed">
                Nothing due
              </Text>
            ) : (
              <Stack component="ul" gap="sm" m={0} p={0} style={{ listStyle: 'none' }}>
                {due.map((occurrence) => (
                  <Occurrence
                    key={`${occurrence.scheduleId}:${occurrence.date}`}
                    occurrence={occurrence}
                    projectKey={projectKey}
                    environmentName={environmentName}
                  />
                ))}
              </Stack>
            )}
          </Paper>
        );
      })}
    </SimpleGrid>
  );
}
