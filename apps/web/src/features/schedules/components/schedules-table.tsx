import type { ReactNode } from 'react';
import { Anchor, Badge, Group, Paper, Skeleton, Stack, Table, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { Schedule } from '@vexil/core';
import { DueTime, ScheduleStateBadge } from '../../../components/schedule-format';
import { useNarrowScreen } from '../../../lib/narrow-screen';
import { featureDetailPath } from '../../../lib/paths';
import { rampCoverage, SCHEDULE_KIND_LABELS, scheduleSummary } from '../../../lib/schedule-labels';

export type SchedulesTableProps = {
  /** null while the list first loads: skeletons stand in. */
  schedules: readonly Schedule[] | null;
  projectKey: string;
};

const SKELETONS = 3;
const LABEL = 'Schedules';

function FeatureLink({ schedule, projectKey }: { schedule: Schedule; projectKey: string }) {
  return (
    <Anchor
      component={Link}
      to={featureDetailPath(projectKey, schedule.environmentKey, schedule.featureKey, 'targeting')}
      size="sm"
      fw={500}
      style={{ overflowWrap: 'anywhere' }}
    >
      {schedule.featureName}
    </Anchor>
  );
}

/** What the schedule does, and where a ramp stands. */
function What({ schedule }: { schedule: Schedule }) {
  const coverage = rampCoverage(schedule);
  return (
    <Stack gap={2}>
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        {scheduleSummary(schedule)}
      </Text>
      {coverage !== null && schedule.state !== 'completed' ? (
        <Text size="xs" c="dimmed">
          Now at {coverage} %
        </Text>
      ) : null}
    </Stack>
  );
}

/** When it acts next, or what it waits for. */
function Next({ schedule }: { schedule: Schedule }) {
  if (schedule.nextDueDate) return <DueTime date={schedule.nextDueDate} size="xs" />;
  if (schedule.awaitingApproval)
    return (
      <Badge color="orange" variant="light">
        Awaiting approval
      </Badge>
    );
  return (
    <Text size="sm" c="dimmed">
      —
    </Text>
  );
}

function SkeletonRows() {
  return Array.from({ length: SKELETONS }, (_, index) => (
    <Table.Tr key={index} data-testid="schedule-skeleton">
      {[60, 40, 30, 70, 30, 50].map((width, cell) => (
        <Table.Td key={cell}>
          <Skeleton height={14} width={`${width}%`} />
        </Table.Td>
      ))}
    </Table.Tr>
  ));
}

/** A labelled line of a card. */
function CardLine({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Group gap="xs" wrap="nowrap" align="baseline">
      <Text size="xs" c="dimmed" w={84} style={{ flexShrink: 0 }}>
        {label}
      </Text>
      <div style={{ minWidth: 0 }}>{children}</div>
    </Group>
  );
}

/** On a phone, a card per schedule, so that nothing scrolls sideways. */
function ScheduleCards({ schedules, projectKey }: SchedulesTableProps) {
  return (
    <Stack
      component="ul"
      gap="xs"
      m={0}
      p={0}
      style={{ listStyle: 'none' }}
      aria-label={LABEL}
      aria-busy={schedules === null || undefined}
    >
      {schedules === null
        ? Array.from({ length: SKELETONS }, (_, index) => (
            <Paper component="li" key={index} withBorder radius="md" p="sm" data-testid="schedule-skeleton">
              <Skeleton height={14} width="60%" mb={8} />
              <Skeleton height={14} width="40%" />
            </Paper>
          ))
        : schedules.map((schedule) => (
            <Paper component="li" key={schedule.id} withBorder radius="md" p="sm">
              <Stack gap={6}>
                <Group justify="space-between" wrap="nowrap" align="flex-start">
                  <FeatureLink schedule={schedule} projectKey={projectKey} />
                  <ScheduleStateBadge state={schedule.state} />
                </Group>
                <CardLine label="Environment">
                  <Text size="sm">{schedule.environmentName}</Text>
                </CardLine>
                <CardLine label="Kind">
                  <Text size="sm">{SCHEDULE_KIND_LABELS[schedule.kind]}</Text>
                </CardLine>
                <CardLine label="What">
                  <What schedule={schedule} />
                </CardLine>
                <CardLine label="Next">
                  <Next schedule={schedule} />
                </CardLine>
              </Stack>
            </Paper>
          ))}
    </Stack>
  );
}

/**
 * A row per schedule: its feature (to the feature's Targeting tab in the schedule's environment), the
 * environment, the kind, what it does, its state and when it acts next.
 */
export function SchedulesTable(props: SchedulesTableProps) {
  const narrow = useNarrowScreen();
  if (narrow) return <ScheduleCards {...props} />;
  const { schedules, projectKey } = props;
  return (
    <Table.ScrollContainer minWidth={760}>
      <Table
        verticalSpacing="sm"
        highlightOnHover
        aria-label={LABEL}
        aria-busy={schedules === null || undefined}
      >
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Feature</Table.Th>
            <Table.Th>Environment</Table.Th>
            <Table.Th>Kind</Table.Th>
            <Table.Th>What</Table.Th>
            <Table.Th>State</Table.Th>
            <Table.Th>Next</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {schedules === null ? (
            <SkeletonRows />
          ) : (
            schedules.map((schedule) => (
              <Table.Tr key={schedule.id}>
                <Table.Td>
                  <FeatureLink schedule={schedule} projectKey={projectKey} />
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{schedule.environmentName}</Text>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{SCHEDULE_KIND_LABELS[schedule.kind]}</Text>
                </Table.Td>
                <Table.Td>
                  <What schedule={schedule} />
                </Table.Td>
                <Table.Td>
                  <ScheduleStateBadge state={schedule.state} />
                </Table.Td>
                <Table.Td>
                  <Next schedule={schedule} />
                </Table.Td>
              </Table.Tr>
            ))
          )}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
