import { EventEmitter } from 'node:events';
import type { LiveChange } from '@vexil/core';
import type { Executor } from '../db/client';

/**
 * What changed, for the dashboards open in the organisation (docs/product.md "Live updates"): core's
 * wire type, which the dashboard parses.
 */
export type { LiveChange };

/**
 * A change that the SDK snapshots and the live dashboards must learn about. Services publish after
 * their transaction commits; those whose change other server instances must learn of even if this
 * one stops right after the commit (what an SDK payload is built from, access that ended) pass the
 * event through {@link ChangeEvents.within} inside the transaction first.
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
  /** Set on events the other instances were told of in the change's transaction: not relayed again. */
  notified?: boolean;
};

/** Who a live change names: the member, by e-mail. */
export function actorOf(principal: { userId: string; email: string }): LiveChange['actor'] {
  return { id: principal.userId, name: principal.email };
}

export type ChangeListener = (event: ChangeEvent) => void;

/** Tells the other instances of events inside a transaction, so that they hear of them when, and only if, it commits. */
export type TransactionalNotifier = (executor: Executor, events: readonly ChangeEvent[]) => Promise<void>;

export type ChangeEvents = {
  publish(event: ChangeEvent): void;
  /** Returns the function that unsubscribes. */
  subscribe(listener: ChangeListener): () => void;
  /**
   * Inside the transaction of a change: the other instances sharing the database are told of it with
   * the commit itself (a NOTIFY is sent when its transaction commits, and dropped when it rolls back),
   * so a crash between the commit and the publish cannot leave them serving the old state. Answers
   * the event to publish here once the transaction has committed, marked as already sent. Without
   * other instances (the embedded database) it only answers the event.
   */
  within(executor: Executor, event: ChangeEvent): Promise<ChangeEvent>;
  /** {@link within} for several events, sent in one statement. */
  withinAll(executor: Executor, events: readonly ChangeEvent[]): Promise<ChangeEvent[]>;
  /** Installed by the relay between instances (lib/pg-change-relay.ts) while it runs; null removes it. */
  notifyWithin(notifier: TransactionalNotifier | null): void;
};

/** The in-process bus. Across instances the events travel through PostgreSQL LISTEN/NOTIFY (lib/pg-change-relay.ts). */
export function createChangeEvents(onListenerError: (error: unknown) => void): ChangeEvents {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  let notifier: TransactionalNotifier | null = null;
  async function withinAll(executor: Executor, events: readonly ChangeEvent[]): Promise<ChangeEvent[]> {
    if (!notifier || events.length === 0) return [...events];
    await notifier(executor, events);
    return events.map((event) => ({ ...event, notified: true }));
  }
  return {
    async within(executor, event) {
      return (await withinAll(executor, [event]))[0]!;
    },
    withinAll,
    notifyWithin(next) {
      notifier = next;
    },
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
