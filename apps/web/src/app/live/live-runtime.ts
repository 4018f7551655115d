import type { QueryClient } from '@tanstack/react-query';
import { experimentKeys } from '../../entities/experiments/api/query-keys';
import { featureKeys } from '../../entities/features/api/query-keys';
import { scheduleKeys } from '../../entities/schedules/api/query-keys';
import type { LiveChange } from '../../lib/live';
import { createLiveConnection } from './live-connection';

/** Changes arriving within this long refresh the screens once. */
const COALESCE_MS = 250;

/** The socket's address on this page's own origin. */
export function liveUrl(location: Pick<Location, 'protocol' | 'host'>): string {
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/api/v1/live`;
}

/**
 * Opens the tab's live connection and keeps the open screens current: a change refreshes the
 * queries it can affect (only those on screen are fetched again; editors keep unsaved edits, see
 * the feature page). Each time the connection opens, the first time included, what was loaded
 * before it is refreshed, since changes made meanwhile were not heard; what loads later needs
 * nothing. When the server ends the connection because the session's access ended, everything is
 * fetched again: the refused calls take the tab to sign-in as for any ended session.
 */
export function startLive(queryClient: QueryClient) {
  const connection = createLiveConnection(liveUrl(window.location), {
    onEnded: () => void queryClient.invalidateQueries(),
  });
  let pending: LiveChange[] = [];
  let timer: ReturnType<typeof setTimeout> | null = null;

  const flush = () => {
    timer = null;
    const changes = pending;
    pending = [];
    if (changes.some((change) => change.kind.startsWith('feature.')))
      void queryClient.invalidateQueries({ queryKey: featureKeys.all });
    if (changes.some((change) => change.kind === 'experiment.changed' || change.kind === 'feature.deleted'))
      void queryClient.invalidateQueries({ queryKey: experimentKeys.all });
    // A schedule moved (a step applied, paused, suspended…), or its feature went: the panels, the
    // feature header's badge and the Schedule page refresh. The control a step writes comes as
    // `feature.targeting`, above.
    if (changes.some((change) => change.kind === 'schedule.changed' || change.kind === 'feature.deleted'))
      void queryClient.invalidateQueries({ queryKey: scheduleKeys.all });
  };
  const stopChanges = connection.onChange((change) => {
    pending.push(change);
    timer ??= setTimeout(flush, COALESCE_MS);
  });
  const stopStatus = connection.onStatus(() => {
    // Everything there is now was loaded (or is being loaded) before the connection could tell of
    // changes: fetched again, those on screen at once. A load that failed has nothing to be stale
    // and is on screen with its own Retry: it is not asked again behind the user's back.
    if (connection.status() === 'CONNECTED')
      void queryClient.invalidateQueries({ predicate: (query) => query.state.status !== 'error' });
  });
  return {
    ...connection,
    stop() {
      stopChanges();
      stopStatus();
      if (timer) clearTimeout(timer);
      connection.stop();
    },
  };
}
