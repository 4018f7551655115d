import { Badge, Tooltip } from '@mantine/core';
import { IconAlertTriangle, IconCalendarTime, IconTrendingUp } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { ScheduleList } from '@vexil/core';
import { useSchedules } from '../../../entities/schedules/api/get-schedules';
import { featureDetailPath } from '../../../lib/paths';
import { describeChange, onceSpecOf, rampCoverage, shortDueText } from '../../../lib/schedule-labels';

type Look = { label: string; color: string; icon: typeof IconCalendarTime };

/**
 * What the header says of the feature's schedules here, most pressing first: a ramp running ("Ramping
 * 50 %"), a schedule stopped because someone changed what it writes, else the next change due
 * ("Scheduled: Turn on · Tue 09:00"); null when nothing is pending.
 */
export function scheduleLook(list: ScheduleList, now = Date.now()): Look | null {
  const ramping = list.schedules.find((schedule) => schedule.kind === 'ramp' && schedule.state === 'running');
  const coverage = ramping ? rampCoverage(ramping) : null;
  if (ramping && coverage !== null) {
    return {
      label: `Ramping ${coverage} %${ramping.awaitingApproval ? ' · awaiting approval' : ''}`,
      color: 'blue',
      icon: IconTrendingUp,
    };
  }
  if (list.schedules.some((schedule) => schedule.state === 'suspended')) {
    return { label: 'Schedule suspended', color: 'orange', icon: IconAlertTriangle };
  }
  const pending = [
    ...list.occurrences.map(({ date, description }) => ({ date, description })),
    // A one-off change due after the window has no occurrence in it.
    ...list.schedules.flatMap((schedule) => {
      const once = onceSpecOf(schedule);
      return once && schedule.nextDueDate && !list.occurrences.some((o) => o.scheduleId === schedule.id)
        ? [{ date: schedule.nextDueDate, description: describeChange(once.change) }]
        : [];
    }),
  ].sort((a, b) => Date.parse(a.date) - Date.parse(b.date));
  const next = pending[0];
  if (!next) return null;
  return {
    label: `Scheduled: ${next.description} · ${shortDueText(next.date, now)}`,
    color: 'grape',
    icon: IconCalendarTime,
  };
}

/**
 * The feature header's word on its schedules in this environment (docs/adr/0025-scheduler.md), which
 * leads to the Targeting tab where they are listed. Nothing while they load, or if they cannot.
 */
export function FeatureScheduleBadge({
  projectKey,
  environmentKey,
  featureKey,
}: {
  projectKey: string;
  environmentKey: string;
  featureKey: string;
}) {
  const list = useSchedules({ projectKey, featureKey, environmentKey });
  // Another feature's or environment's list may stand in while this one loads: it says nothing here.
  const look = list.data && !list.isPlaceholderData ? scheduleLook(list.data) : null;
  if (!look) return null;
  const Icon = look.icon;
  return (
    <Tooltip label="See the schedules in the Targeting tab" withArrow>
      <Badge
        component={Link}
        to={featureDetailPath(projectKey, environmentKey, featureKey, 'targeting')}
        variant="light"
        color={look.color}
        size="lg"
        tt="none"
        leftSection={<Icon size={14} aria-hidden="true" />}
        style={{ cursor: 'pointer', maxWidth: '100%' }}
      >
        {look.label}
      </Badge>
    </Tooltip>
  );
}
