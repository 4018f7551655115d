import type { Feature } from '@vexil/core';
import { actorOf, type ChangeEvents, type LiveChange } from '../../lib/change-events';
import type { Principal } from '../auth/auth.service';
import { issuesLinked, type IssueTracker, type IssuesLinked } from './ports';

export type FeatureAnnouncer = ReturnType<typeof createFeatureAnnouncer>;

/**
 * What a feature write tells after its commit: the SDK payloads of the environments it alters and the
 * live dashboards (docs/adr/0012-change-events.md), and the issue tracker which issues now link to it.
 */
export function createFeatureAnnouncer(deps: {
  events: ChangeEvents;
  /** Comments on the issues a feature is created from or linked to (integrations module). */
  issues?: Pick<IssueTracker, 'issuesLinked'> | undefined;
  now: () => Date;
}) {
  const { events, now } = deps;
  return {
    /** Patches the feature's entry into each environment's payload and tells the open dashboards. */
    publishProject(
      principal: Principal,
      environmentIds: string[],
      change: { kind: LiveChange['kind']; projectKey: string; featureKey: string; featureId: string },
    ) {
      const { organisationId } = principal;
      const { featureId, ...live } = change;
      // Only this feature's entries change in each payload: the SDK layer patches them.
      for (const environmentId of environmentIds)
        events.publish({
          type: 'environment.changed',
          organisationId,
          environmentId,
          featureIds: [featureId],
        });
      events.publish({
        type: 'dashboard',
        organisationId,
        change: { ...live, actor: actorOf(principal), at: now().toISOString() },
      });
    },

    /** Tells the issue tracker, after the commit, which issues now link to the feature. */
    announceLinks(principal: Principal, feature: Feature, how: IssuesLinked['how'], keys: string[]) {
      if (keys.length > 0) deps.issues?.issuesLinked(issuesLinked(principal, feature, how, keys));
    },
  };
}
