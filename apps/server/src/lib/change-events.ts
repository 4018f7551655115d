import { EventEmitter } from 'node:events';
import type { LiveChange } from '@vexil/core';

/**
 * What changed, for the dashboards open in the organisation (docs/product.md "Live updates"): core's
 * wire type, which the dashboard parses.
 */
export type { LiveChange };

/**
 * A change that the SDK snapshots and the live dashboards must learn about. Services publish after
 * their transaction commits.
 *
 * - `environment.changed`: anything an environment serves changed (features, controls, the
 *   environment itself, keys included). With `featureIds`, only those features' controls and
 *   variants changed (a toggle, a targeting save, a feature's settings, a feature created or
 *   deleted): the SDK layer patches their entries. Without, it rebuilds the whole payload.
 * - `environment.removed`: its keys stop working at once.
 * - `dashboard`: a change people looking at the dashboard should see without reloading.
 * - `access.changed`: a session ended (`sessionId`), or a member's sessions ended, the member was
 *   removed or their role changed (`userId`): the live dashboards of that session or member stop
 *   being fed until their access is checked again, and close if it is gone.
 */
export type ChangeEvent = (
  | {
      type: 'environment.changed';
      organisationId: string;
      environmentId: string;
      /** The features whose controls or variants changed, when nothing else did (see above). */
      featureIds?: readonly string[];
    }
  | { type: 'environment.removed'; organisationId: string; environmentId: string }
  | { type: 'dashboard'; organisationId: string; change: LiveChange }
  | { type: 'access.changed'; organisationId: string; userId?: string; sessionId?: string }
) & {
  /** Set on events that came from another server instance, so they are not relayed back. */
  remote?: boolean;
};

/** Who a live change names: the member, by e-mail. */
export function actorOf(principal: { userId: string; email: string }): LiveChange['actor'] {
  return { id: principal.userId, name: principal.email };
}

export type ChangeListener = (event: ChangeEvent) => void;

export type ChangeEvents = {
  publish(event: ChangeEvent): void;
  /** Returns the function that unsubscribes. */
  subscribe(listener: ChangeListener): () => void;
};

/** The in-process bus. Across instances the events travel through PostgreSQL LISTEN/NOTIFY (lib/pg-change-relay.ts). */
export function createChangeEvents(onListenerError: (error: unknown) => void): ChangeEvents {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    publish(event) {
      emitter.emit('change', event);
    },
    subscribe(listener) {
      // A failing listener must not break the write that published, nor the other listeners.
      const safe = (event: ChangeEvent) => {
        try {
          listener(event);
        } catch (error) {
          onListenerError(error);
        }
      };
      emitter.on('change', safe);
      return () => emitter.off('change', safe);
    },
  };
}
