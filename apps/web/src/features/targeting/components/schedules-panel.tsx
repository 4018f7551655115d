import { useId, useState, type ReactNode } from 'react';
import { Button, Card, Group, Skeleton, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCalendarTime } from '@tabler/icons-react';
import type { Feature, FeatureControl, ProjectSummary } from '@vexil/core';
import { DisabledReason } from '../../../components/disabled-reason';
import { EmptyState } from '../../../components/empty-state';
import { LoadError } from '../../../components/load-error';
import { useSchedules } from '../../../entities/schedules/api/get-schedules';
import { useEnvironmentProtection } from '../../../entities/change-requests/hooks/use-environment-protection';
import { useSession } from '../../../lib/session';
import { ScheduleCard } from './schedule-card';
import { ScheduleChangeModal } from './schedule-change-modal';

export type SchedulesPanelProps = {
  feature: Feature;
  control: FeatureControl;
  environment: ProjectSummary['environments'][number];
  /** Why the user may not change this environment's control (so neither schedule nor act); null when they may. */
  denial: string | null;
};

/**
 * The Targeting tab's Schedules (docs/adr/0025-scheduler.md): the feature's schedules in this
 * environment, each with its state, a ramp's steps and the actions that mean something now, and
 * "Schedule change", which schedules turning the feature on or off (once or on a cron), or an approved
 * change request. Finished schedules show on demand. Ramps start from a rule's Ramp action.
 */
export function SchedulesPanel({ feature, control, environment, denial }: SchedulesPanelProps) {
  const titleId = useId();
  const { principalUser, projects } = useSession();
  const projectId = projects.find((project) => project.key === feature.projectKey)?.id;
  // Whether changes here go through change requests: then an approved one can be scheduled.
  const protection = useEnvironmentProtection(principalUser, feature.projectKey, {
    ...environment,
    projectId,
  });
  const [finished, setFinished] = useState(false);
  const [scheduling, setScheduling] = useState(false);
  const list = useSchedules({
    projectKey: feature.projectKey,
    featureKey: feature.key,
    environmentKey: environment.key,
    finished,
  });
  const schedules = list.data?.schedules.filter(
    (schedule) => schedule.featureKey === feature.key && schedule.environmentKey === environment.key,
  );

  let body: ReactNode;
  if (list.isError && !list.data) {
    body = (
      <LoadError
        title="We could not load the schedules."
        error={list.error}
        retrying={list.isFetching}
        onRetry={() => void list.refetch()}
      />
    );
  } else if (!schedules || (list.isPlaceholderData && schedules.length === 0)) {
    // Loading; or another feature's list stands in while this one's loads.
    body = (
      <Stack gap="xs" aria-busy="true" aria-label="Loading the schedules">
        <Skeleton height={64} />
      </Stack>
    );
  } else if (schedules.length === 0) {
    body = (
      <EmptyState py="md" gap="xs">
        <ThemeIcon size={36} radius="xl" variant="light" aria-hidden="true">
          <IconCalendarTime size={20} />
        </ThemeIcon>
        <Text size="sm" fw={500}>
          {finished
            ? `${feature.name} has no schedules in ${environment.name}.`
            : `Nothing is scheduled for ${feature.name} in ${environment.name}.`}
        </Text>
        <Text size="sm" c="dimmed">
          Schedule a change for later, or ramp a rule’s variant up step by step with its Ramp action.
        </Text>
      </EmptyState>
    );
  } else {
    body = (
      <Stack component="ul" gap="sm" m={0} p={0} style={{ listStyle: 'none' }} aria-label="Schedules">
        {schedules.map((schedule) => (
          <ScheduleCard
            key={schedule.id}
            schedule={schedule}
            feature={feature}
            rules={control.rules}
            denial={denial}
          />
        ))}
      </Stack>
    );
  }

  return (
    <Card withBorder radius="md" padding="md" component="section" aria-labelledby={titleId}>
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" gap="sm">
          <div style={{ minWidth: 0, flex: '1 1 14rem' }}>
            <Title order={3} fz="lg" id={titleId}>
              Schedules
            </Title>
            <Text size="sm" c="dimmed">
              Changes Vexil makes to this targeting on its own.
            </Text>
          </div>
          <Group gap="sm">
            {/* A toggle, not a form field: the read-only view of the targeting has none. */}
            <Button
              variant={finished ? 'light' : 'subtle'}
              color="gray"
              aria-pressed={finished}
              onClick={() => setFinished(!finished)}
            >
              Show finished
            </Button>
            <DisabledReason denial={denial}>
              <Button
                leftSection={<IconCalendarTime size={16} aria-hidden="true" />}
                variant="light"
                disabled={denial !== null}
                onClick={() => setScheduling(true)}
              >
                Schedule change
              </Button>
            </DisabledReason>
          </Group>
        </Group>
        {body}
      </Stack>
      {scheduling ? (
        <ScheduleChangeModal
          feature={feature}
          control={control}
          environment={environment}
          protection={protection}
          onClose={() => setScheduling(false)}
        />
      ) : null}
    </Card>
  );
}
