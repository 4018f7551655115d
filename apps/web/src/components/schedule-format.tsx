import { Badge, Text, Tooltip } from '@mantine/core';
import dayjs from 'dayjs';
import relativeTime from 'dayjs/plugin/relativeTime.js';
import type { ScheduleState } from '@vexil/core';
import { formatDate } from '../lib/format';
import { SCHEDULE_STATE_COLORS, SCHEDULE_STATE_LABELS } from '../lib/schedule-labels';

dayjs.extend(relativeTime);

/** A schedule's state as a badge that keeps its whole word. */
export function ScheduleStateBadge({ state }: { state: ScheduleState }) {
  return (
    <Badge variant="light" color={SCHEDULE_STATE_COLORS[state]} style={{ flexShrink: 0 }} miw="max-content">
      {SCHEDULE_STATE_LABELS[state]}
    </Badge>
  );
}

/**
 * When something is due, both ways: "in 3 hours · 3rd Mar 2026, 4:05pm" (the date also on hover), so
 * that it reads at a glance and exactly.
 */
export function DueTime({ date, size = 'sm' }: { date: string; size?: 'xs' | 'sm' }) {
  const absolute = formatDate(date);
  return (
    <Tooltip label={absolute} withArrow>
      <Text component="time" dateTime={date} size={size} tabIndex={0} style={{ overflowWrap: 'anywhere' }}>
        {dayjs(date).fromNow()}
        <Text span c="dimmed" inherit>
          {' · '}
          {absolute}
        </Text>
      </Text>
    </Tooltip>
  );
}
