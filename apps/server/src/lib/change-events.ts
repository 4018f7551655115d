import { EventEmitter } from 'node:events';

/**
 * A change that the SDK snapshots (and, later, dashboard sockets) must learn about. Services
 * publish after their transaction commits; the SDK layer rebuilds the environment's payload.
 */
export type ChangeEvent = {
  /**
   * `environment.changed`: anything an environment serves changed (features, controls, the
   * environment itself, keys included). `environment.removed`: its keys stop working at once.
   */
  type: 'environment.changed' | 'environment.removed';
  organisationId: string;
  environmentId: string;
  /** Set on events that came from another server instance, so they are not relayed back. */
  remote?: boolean;
};

export type ChangeListener = (event: ChangeEvent) => void;

export type ChangeEvents = {
  publish(event: ChangeEvent): void;
  /** Returns the function that unsubscribes. */
  subscribe(listener: ChangeListener): () => void;
};

/** The in-process bus. Across instances the events travel through PostgreSQL LISTEN/NOTIFY (SDK issue). */
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
