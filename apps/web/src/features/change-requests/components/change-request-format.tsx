import { Badge, Text, Tooltip } from '@mantine/core';
import dayjs from 'dayjs';
import relativeTime from 'dayjs/plugin/relativeTime.js';
import type { ChangeKind, ChangeRequestState } from '@vexil/core';
import { formatDate } from '../../../lib/format';

dayjs.extend(relativeTime);

/** How each state reads. */
export const STATE_LABELS: Readonly<Record<ChangeRequestState, string>> = {
  draft: 'Draft',
  'in-review': 'In review',
  approved: 'Approved',
  applied: 'Applied',
  rejected: 'Rejected',
  cancelled: 'Cancelled',
  suspended: 'Suspended',
};

/** Theme colours, so that the badges follow light and dark mode. */
const STATE_COLORS: Readonly<Record<ChangeRequestState, string>> = {
  draft: 'gray',
  'in-review': 'blue',
  approved: 'teal',
  applied: 'green',
  rejected: 'red',
  cancelled: 'gray',
  suspended: 'orange',
};

/** What each kind of change changes. */
export const KIND_LABELS: Readonly<Record<ChangeKind, string>> = {
  control: 'Targeting',
  feature: 'Settings',
  segment: 'Segment',
  restore: 'Restore',
  schedule: 'Schedule',
};

/** A kind's label; a kind this dashboard does not know yet (a newer server's) reads "Change". */
export function kindLabel(kind: string): string {
  return Object.hasOwn(KIND_LABELS, kind) ? KIND_LABELS[kind as ChangeKind] : 'Change';
}

/** The request's state as a badge that keeps its whole word. */
export function StateBadge({ state }: { state: ChangeRequestState }) {
  return (
    <Badge variant="light" color={STATE_COLORS[state]} style={{ flexShrink: 0 }} miw="max-content">
      {STATE_LABELS[state]}
    </Badge>
  );
}

/** "3 minutes ago", with the date and time on hover and for assistive technology. */
export function RelativeTime({ date, size = 'sm' }: { date: string; size?: 'xs' | 'sm' }) {
  return (
    <Tooltip label={formatDate(date)} withArrow>
      <Text component="time" dateTime={date} size={size} c="dimmed" tabIndex={0}>
        {dayjs(date).fromNow()}
      </Text>
    </Tooltip>
  );
}

/** "1 of 2 approvals". */
export function approvalsText(approvals: number, minApprovals: number): string {
  return `${approvals} of ${minApprovals} approval${minApprovals === 1 ? '' : 's'}`;
}
