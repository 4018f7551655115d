import { Badge, Group, Paper, Progress, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconCheck, IconUserCheck } from '@tabler/icons-react';
import { FINAL_SCHEDULE_STATES, type Schedule } from '@vexil/core';
import { holdText, type RampSpec } from '../../../lib/schedule-labels';

type StepStatus = 'done' | 'current' | 'upcoming';

/** Where each step stands: those before the one applied last are done, and that one too once the ramp is over. */
function statusOf(index: number, schedule: Pick<Schedule, 'state' | 'currentStep'>): StepStatus {
  const { state, currentStep } = schedule;
  if (currentStep === null || index > currentStep) return 'upcoming';
  if (index < currentStep) return 'done';
  return FINAL_SCHEDULE_STATES.includes(state) ? 'done' : 'current';
}

const STATUS_WORDS: Readonly<Record<StepStatus, string>> = {
  done: 'done',
  current: 'current',
  upcoming: 'upcoming',
};

/**
 * A ramp's steps from left to right (wrapping on a phone): done ones ticked, the current one marked,
 * the rest plain, each with its share, its hold and what else it waits for; above them the variant's
 * share now.
 */
export function RampTimeline({
  schedule,
  spec,
  variantName,
  ruleName,
}: {
  schedule: Pick<Schedule, 'state' | 'currentStep' | 'awaitingApproval'>;
  spec: RampSpec;
  variantName: string;
  ruleName: string;
}) {
  const coverage = schedule.currentStep === null ? 0 : (spec.steps[schedule.currentStep]?.coverage ?? 0);
  return (
    <Stack gap="xs">
      <Group justify="space-between" gap="xs">
        <Text size="sm">
          {variantName}: <strong>{coverage} %</strong> of {ruleName}
        </Text>
        {schedule.awaitingApproval ? (
          <Badge color="orange" variant="light" leftSection={<IconUserCheck size={12} aria-hidden="true" />}>
            Awaiting approval
          </Badge>
        ) : null}
      </Group>
      <Progress
        value={coverage}
        size="sm"
        aria-label={`${variantName} is served to ${coverage} % of ${ruleName}`}
      />
      <Group component="ol" gap="xs" m={0} p={0} style={{ listStyle: 'none' }} aria-label="Ramp steps">
        {spec.steps.map((step, index) => {
          const status = statusOf(index, schedule);
          const waits = [
            step.minExposures ? `${step.minExposures.toLocaleString('en')} exposures` : null,
            step.approval ? 'approval' : null,
          ].filter(Boolean);
          return (
            <Paper
              key={index}
              component="li"
              withBorder
              radius="md"
              px="sm"
              py={6}
              aria-label={`Step ${index + 1}: ${step.coverage} %, ${STATUS_WORDS[status]}`}
              aria-current={status === 'current' ? 'step' : undefined}
              style={{
                borderColor: status === 'current' ? 'var(--mantine-color-blue-filled)' : undefined,
                borderWidth: status === 'current' ? 2 : undefined,
                background:
                  status === 'done'
                    ? 'light-dark(var(--mantine-color-teal-0), var(--mantine-color-dark-6))'
                    : undefined,
              }}
            >
              <Group gap={6} wrap="nowrap" align="flex-start">
                {status === 'done' ? (
                  <ThemeIcon size={18} radius="xl" color="teal" variant="light" aria-hidden="true">
                    <IconCheck size={12} />
                  </ThemeIcon>
                ) : null}
                <Stack gap={0}>
                  <Text size="sm" fw={status === 'current' ? 700 : 500}>
                    {step.coverage} %
                  </Text>
                  <Text size="xs" c="dimmed">
                    {holdText(step.holdSeconds)}
                    {waits.length > 0 ? `, then ${waits.join(' and ')}` : ''}
                  </Text>
                </Stack>
              </Group>
            </Paper>
          );
        })}
      </Group>
    </Stack>
  );
}
