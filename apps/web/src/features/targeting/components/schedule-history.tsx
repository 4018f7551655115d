import { List, Skeleton, Text } from '@mantine/core';
import { LoadError } from '../../../components/load-error';
import { useSchedule } from '../../../entities/schedules/api/get-schedule';
import { formatDate } from '../../../lib/format';

/**
 * What happened to a schedule, newest first: each step applied, pause, approval, failure or
 * suspension, who did it ("Vexil" for the scheduler itself) and the version of the targeting it wrote.
 */
export function ScheduleHistory({ projectKey, id }: { projectKey: string; id: string }) {
  const detail = useSchedule(projectKey, id);
  if (detail.isError && !detail.data) {
    return (
      <LoadError
        title="We could not load the schedule’s history."
        error={detail.error}
        retrying={detail.isFetching}
        onRetry={() => void detail.refetch()}
      />
    );
  }
  if (!detail.data) return <Skeleton height={40} aria-label="Loading the history" />;
  const events = [...(detail.data.history ?? [])].reverse();
  if (events.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        Nothing has happened yet.
      </Text>
    );
  }
  return (
    <List size="sm" spacing={4} aria-label="History" listStyleType="none" ml={0} pl={0}>
      {events.map((event, index) => (
        <List.Item key={index}>
          <Text span size="xs" c="dimmed">
            <time dateTime={event.date}>{formatDate(event.date)}</time> · {event.actor ?? 'Vexil'}
            {event.version !== null ? ` · version ${event.version}` : ''}
          </Text>
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {event.message}
          </Text>
        </List.Item>
      ))}
    </List>
  );
}
