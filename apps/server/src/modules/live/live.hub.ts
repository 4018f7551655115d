import type { ChangeEvents, LiveChange } from '../../lib/change-events';

/** One open dashboard connection: where to send, and whose organisation it is. */
export type LiveClient = { organisationId: string; send: (message: string) => void };

export type LiveHub = ReturnType<typeof createLiveHub>;

/**
 * The dashboards open on this instance, by organisation (docs/product.md "Live updates"). Each
 * `dashboard` change event (from this instance or, through the PostgreSQL relay, another) is sent
 * once, serialised once, to every connection of that organisation and no other.
 */
export function createLiveHub(deps: { events: ChangeEvents }) {
  const clients = new Map<string, Set<LiveClient>>();
  let unsubscribe: (() => void) | null = null;

  function broadcast(organisationId: string, change: LiveChange) {
    const group = clients.get(organisationId);
    if (!group) return;
    const message = JSON.stringify({ type: 'change', change });
    for (const client of group) client.send(message);
  }

  return {
    start() {
      unsubscribe = deps.events.subscribe((event) => {
        if (event.type === 'dashboard') broadcast(event.organisationId, event.change);
      });
    },
    stop() {
      unsubscribe?.();
      unsubscribe = null;
    },
    /** Adds a connection; returns the function that removes it. */
    join(client: LiveClient): () => void {
      let group = clients.get(client.organisationId);
      if (!group) clients.set(client.organisationId, (group = new Set()));
      group.add(client);
      return () => {
        group.delete(client);
        if (group.size === 0) clients.delete(client.organisationId);
      };
    },
    /** Open connections, for tests and the health of the instance. */
    size(): number {
      let total = 0;
      for (const group of clients.values()) total += group.size;
      return total;
    },
  };
}
