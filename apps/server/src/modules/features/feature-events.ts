import type { Feature } from '@vexil/core';
import type { Executor } from '../../db/client';
import { actorOf, type ChangeEvent, type ChangeEvents, type LiveChange } from '../../lib/change-events';
import type { Principal } from '../auth/auth.service';
import { issuesLinked, type IssueTracker, type IssuesLinked } from './ports';

export type FeatureAnnouncer = ReturnType<typeof createFeatureAnnouncer>;

/**
 * What a feature write tells: the SDK payloads of the environments it alters (in its transaction for
 * the other instances, after its commit for this one) and the live dashboards
 * (docs/adr/0012-change-events.md), and, in its transaction, the issue tracker which issues now link
 * to it.
 */
export function createFeatureAnnouncer(deps: {
  events: ChangeEvents;
  /** Comments on the issues a feature is created from or linked to (integrations module). */
  issues?: Pick<IssueTracker, 'issuesLinked'> | undefined;
  now: () => Date;
}) {
  const { events, now } = deps;
  return {
    /**
     * Inside the feature write's transaction: the environments whose payloads hold the feature, told
     * with the commit (ChangeEvents.within). Only this feature's entries change in each payload: the
     * SDK layer patches them. Answers the events to publish once committed ({@link publishProject}).
     */
    async changedWithin(
      tx: Executor,
      organisationId: string,
      environmentIds: readonly string[],
      featureId: string,
    ): Promise<ChangeEvent[]> {
      return events.withinAll(
        tx,
        environmentIds.map((environmentId) => ({
          type: 'environment.changed',
          organisationId,
          environmentId,
          featureIds: [featureId],
        })),
      );
    },

    /** After the commit: patches the feature's entry into each environment's payload and tells the open dashboards. */
    publishProject(
      principal: Principal,
      changed: readonly ChangeEvent[],
      change: { kind: LiveChange['kind']; projectKey: string; featureKey: string },
    ) {
      for (const event of changed) events.publish(event);
      events.publish({
        type: 'dashboard',
        organisationId: principal.organisationId,
        change: { ...change, actor: actorOf(principal), at: now().toISOString() },
      });
    },

    /** Tells the issue tracker, in the feature write's transaction, which issues now link to the feature. */
    async linksWithin(
      tx: Executor,
      principal: Principal,
      feature: Feature,
      how: IssuesLinked['how'],
      keys: string[],
    ): Promise<void> {
      if (keys.length > 0) await deps.issues?.issuesLinked(tx, issuesLinked(principal, feature, how, keys));
    },
  };
}
