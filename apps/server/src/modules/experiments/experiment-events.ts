import type { EnvironmentRef } from '@vexil/core';
import type { Executor } from '../../db/client';
import { actorOf, type ChangeEvent, type ChangeEvents, type LiveChange } from '../../lib/change-events';
import type { Principal } from '../auth/auth.service';

/**
 * What an experiment's change tells (docs/adr/0012-change-events.md): the SDK layer, which keeps the
 * running experiments of each environment for the ingestion (in the change's transaction for the
 * other instances, after its commit for this one), and the open dashboards and integrations.
 */
export function createExperimentAnnouncer(deps: { events: ChangeEvents; now: () => Date }) {
  const { events, now } = deps;

  /** What the dashboards and the integrations are told of a change to an experiment. */
  function liveChange(
    environment: EnvironmentRef,
    principal: Principal,
    featureKey: string,
    experiment?: LiveChange['experiment'],
  ): LiveChange {
    return {
      kind: 'experiment.changed',
      projectKey: environment.project.key,
      environmentKey: environment.key,
      featureKey,
      actor: actorOf(principal),
      at: now().toISOString(),
      ...(experiment ? { experiment } : {}),
    };
  }

  return {
    liveChange,

    /** Inside the change's transaction (ChangeEvents.within); publish the answer with `changed`. */
    changedWithin(tx: Executor, organisationId: string, environment: EnvironmentRef): Promise<ChangeEvent> {
      return events.within(tx, {
        type: 'environment.changed',
        organisationId,
        environmentId: environment.id,
      });
    },

    /** After the commit: this instance's SDK layer and the open dashboards. */
    changed(
      sdk: ChangeEvent,
      environment: EnvironmentRef,
      principal: Principal,
      featureKey: string,
      experiment?: LiveChange['experiment'],
    ): void {
      events.publish(sdk);
      events.publish({
        type: 'dashboard',
        organisationId: principal.organisationId,
        change: liveChange(environment, principal, featureKey, experiment),
      });
    },
  };
}
