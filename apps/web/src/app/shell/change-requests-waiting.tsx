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
 * The change requests waiting for the user's review, across the organisation: a badge leading to the
 * current project's change requests, filtered To review. Asked every minute and when the window
 * regains focus; hidden while none wait.
 */
export function ChangeRequestsWaiting() {
  const current = useCurrentEnvironment();
  const waiting = useWaitingCount(current !== null);
  const count = waiting.data?.count ?? 0;
  if (!current || count === 0) return null;
  const label = waitingLabel(count);
  return (
    <Tooltip label={label} withArrow>
      <Link
        to={changeRequestsPath(current.project.key, current.environment.key, 'to-review')}
        className={classes.navLink}
        aria-label={label}
      >
        <Group gap={4} wrap="nowrap" component="span">
          <IconGitPullRequest size={18} aria-hidden="true" />
          <Badge size="sm" variant="filled" color="red" aria-hidden="true">
            {count > 99 ? '99+' : count}
          </Badge>
        </Group>
      </Link>
    </Tooltip>
  );
}
