import { Badge, Group, Tooltip } from '@mantine/core';
import { IconGitPullRequest } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useWaitingCount } from '../../entities/change-requests/api/get-waiting-count';
import { changeRequestsPath } from '../../lib/paths';
import { useCurrentEnvironment } from './use-current-environment';
import classes from './shell.module.css';

/** "2 change requests wait for your review". */
export function waitingLabel(count: number): string {
  return count === 1
    ? '1 change request waits for your review'
    : `${count} change requests wait for your review`;
}

/**
 * How many change requests wait for the user's review, where to review them and what to call the
 * link; null while none wait (or there is no current environment).
 */
export function useWaiting(): { count: number; label: string; to: string } | null {
  const current = useCurrentEnvironment();
  const waiting = useWaitingCount(current !== null);
  const count = waiting.data?.count ?? 0;
  if (!current || count === 0) return null;
  return {
    count,
    label: waitingLabel(count),
    to: changeRequestsPath(current.project.key, current.environment.key, 'to-review'),
  };
}

/**
 * The change requests waiting for the user's review, across the organisation: a badge leading to the
 * current project's change requests, filtered To review. Asked every minute and when the window
 * regains focus; hidden while none wait.
 */
export function ChangeRequestsWaiting() {
  const waiting = useWaiting();
  if (!waiting) return null;
  return (
    <Tooltip label={waiting.label} withArrow>
      <Link to={waiting.to} className={classes.navLink} aria-label={waiting.label}>
        <Group gap={4} wrap="nowrap" component="span">
          <IconGitPullRequest size={18} aria-hidden="true" />
          <WaitingBadge count={waiting.count} />
        </Group>
      </Link>
    </Tooltip>
  );
}

/** The red count of what waits (99+ past 99). */
export function WaitingBadge({ count }: { count: number }) {
  return (
    <Badge size="sm" variant="filled" color="red" aria-hidden="true">
      {count > 99 ? '99+' : count}
    </Badge>
  );
}
