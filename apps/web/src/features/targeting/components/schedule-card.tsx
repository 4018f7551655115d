import { useState } from 'react';
import { Alert, Badge, Button, Group, Paper, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconChevronDown, IconChevronUp, IconPlayerPause } from '@tabler/icons-react';
import type { Feature, Rule, Schedule } from '@vexil/core';
import { DueTime } from '../../../components/schedule-format';
import { ScheduleStateBadge } from '../../../components/schedule-format';
import { formatDate } from '../../../lib/format';
import {
  rampSpecOf,
  SCHEDULE_KIND_LABELS,
  scheduleSummary,
  type RampSpec,
} from '../../../lib/schedule-labels';
import { alertUrlOffered, RampAlertButton } from './ramp-alert-modal';
import { RampArms } from './ramp-arms';
import { RampTimeline } from './ramp-timeline';
import { ScheduleActions } from './schedule-actions';
import { ScheduleHistory } from './schedule-history';
import { ruleNameOf } from './schedule-rules';

/** What the next due time is, for each kind of schedule. */
function dueLabel(schedule: Schedule): string {
  if (schedule.kind === 'once') return 'Due';
  if (schedule.kind === 'recurring') return 'Next';
  if (schedule.state === 'ready' || schedule.currentStep === null) return 'Starts';
  return 'Next step';
}

/** Why a ramp is waiting without a due time: for a person, or for its exposures. */
function waitingText(schedule: Schedule, spec: RampSpec | null): string | null {
  if (schedule.state !== 'running') return null;
  const step = schedule.currentStep === null ? null : spec?.steps[schedule.currentStep];
  if (schedule.awaitingApproval) {
    const next = spec && schedule.currentStep !== null ? spec.steps[schedule.currentStep + 1] : undefined;
    return next
      ? `Waiting for approval to go on to ${next.coverage} %.`
      : 'Waiting for approval to complete the ramp.';
  }
  if (schedule.exposures && step) return 'Waiting for enough exposures.';
  return null;
}

/** A reason that is worth an alert: a pause, a suspension, or a step that keeps failing. */
function ReasonAlert({ schedule }: { schedule: Schedule }) {
  if (!schedule.reason) return null;
  if (schedule.state === 'suspended') {
    return (
      <Alert
        color="orange"
        variant="light"
        title="Suspended"
        icon={<IconAlertTriangle size={18} aria-hidden="true" />}
      >
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {schedule.reason}
        </Text>
      </Alert>
    );
  }
  if (schedule.state === 'paused') {
    return (
      <Alert
        color="yellow"
        variant="light"
        title="Paused"
        icon={<IconPlayerPause size={18} aria-hidden="true" />}
      >
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {schedule.reason}
        </Text>
      </Alert>
    );
  }
  if (schedule.failures > 0) {
    return (
      <Alert
        color="red"
        variant="light"
        title={`The last attempt failed (${schedule.failures} so far); it is tried again`}
        icon={<IconAlertTriangle size={18} aria-hidden="true" />}
      >
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {schedule.reason}
        </Text>
      </Alert>
    );
  }
  return null;
}

export type ScheduleCardProps = {
  schedule: Schedule;
  feature: Pick<Feature, 'variants'>;
  /** The control's rules as saved, which a ramp's rule index points into. */
  rules: readonly Rule[];
  /** Why the user may not act on this environment's schedules; null when they may. */
  denial: string | null;
};

/**
 * One schedule of the feature in this environment: its kind and state, what it does, a ramp's steps
 * and the users counted in its arms, why it is paused or suspended, its exposures, when it acts next,
 * the actions that mean something now, a ramp's alert URL, and on demand its history.
 */
export function ScheduleCard({ schedule, feature, rules, denial }: ScheduleCardProps) {
  const variantName = (key: string) => feature.variants.find((variant) => variant.key === key)?.name ?? key;
  const ramp = rampSpecOf(schedule);
  const ruleName = ramp ? ruleNameOf(rules, ramp.ruleIndex) : '';
  const summary = ramp
    ? `Ramp ${variantName(ramp.variantKey)} in ${ruleName} to ${ramp.steps.at(-1)?.coverage ?? 0} %`
    : scheduleSummary(schedule, variantName);
  const waiting = waitingText(schedule, ramp);
  const [showHistory, setShowHistory] = useState(false);
  return (
    <Paper component="li" withBorder radius="md" p="sm" aria-label={summary}>
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" gap="xs">
          <Stack gap={4} miw={0} style={{ flex: '1 1 16rem' }}>
            <Group gap="xs">
              <Badge variant="outline" color="gray">
                {SCHEDULE_KIND_LABELS[schedule.kind]}
              </Badge>
              <ScheduleStateBadge state={schedule.state} />
            </Group>
            <Text fw={600} size="sm" style={{ overflowWrap: 'anywhere' }}>
              {summary}
            </Text>
            <Text size="xs" c="dimmed">
              {schedule.author ? `By ${schedule.author.name} · ` : ''}
              <time dateTime={schedule.createdDate}>{formatDate(schedule.createdDate)}</time>
            </Text>
          </Stack>
          <Button
            variant="subtle"
            color="gray"
            size="compact-sm"
            aria-expanded={showHistory}
            rightSection={
              showHistory ? (
                <IconChevronUp size={14} aria-hidden="true" />
              ) : (
                <IconChevronDown size={14} aria-hidden="true" />
              )
            }
            onClick={() => setShowHistory(!showHistory)}
          >
            History
          </Button>
        </Group>
        <ReasonAlert schedule={schedule} />
        {ramp ? (
          <RampTimeline
            schedule={schedule}
            spec={ramp}
            variantName={variantName(ramp.variantKey)}
            ruleName={ruleName}
          />
        ) : null}
        {ramp ? <RampArms arms={schedule.arms} variantName={variantName(ramp.variantKey)} /> : null}
        {schedule.exposures ? (
          <Text size="sm">
            Exposures: {schedule.exposures.seen.toLocaleString('en')} of{' '}
            {schedule.exposures.needed.toLocaleString('en')}
          </Text>
        ) : null}
        {schedule.nextDueDate ? (
          <Group gap={6} wrap="nowrap" align="baseline">
            <Text size="sm" c="dimmed" style={{ flexShrink: 0 }}>
              {dueLabel(schedule)}
            </Text>
            <DueTime date={schedule.nextDueDate} />
          </Group>
        ) : waiting ? (
          <Text size="sm" c="dimmed">
            {waiting}
          </Text>
        ) : null}
        {alertUrlOffered(schedule, denial) ? (
          <Group justify="space-between" align="flex-start" gap="xs">
            <ScheduleActions schedule={schedule} ruleName={ruleName} denial={denial} />
            <RampAlertButton schedule={schedule} summary={summary} />
          </Group>
        ) : (
          <ScheduleActions schedule={schedule} ruleName={ruleName} denial={denial} />
        )}
        {showHistory ? <ScheduleHistory projectKey={schedule.projectKey} id={schedule.id} /> : null}
      </Stack>
    </Paper>
  );
}
