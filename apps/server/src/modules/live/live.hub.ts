import { can, type LiveMessage } from '@vexil/core';
import type { ChangeEvents, LiveChange } from '../../lib/change-events';

/** Close codes the dashboard reads (apps/web live connection): its session ended, or it may no longer read. */
export const LIVE_SESSION_ENDED = 4401;
export const LIVE_FORBIDDEN = 4403;

/** One open dashboard connection: where to send, whose session it is, and how to end it. */
export type LiveClient = {
  organisationId: string;
  userId: string;
  sessionId: string;
  /** The member's authorities as last checked: what the connection may be sent. */
  authorities: readonly string[];
  send: (message: string) => void;
  close: (code: number, reason: string) => void;
};

/** Which sessions are still live, with their member's authorities now (the auth module's check). */
export type LiveSessionCheck = (
  sessionIds: readonly string[],
) => Promise<Map<string, { userId: string; authorities: readonly string[] }>>;

export type LiveHub = ReturnType<typeof createLiveHub>;

/** How often every connection's session is checked again: the bound on a revocation no event announced. */
const SWEEP_MS = 30_000;
/** Sessions checked in one query. */
const CHECK_BATCH = 1_000;

/** Whether a member with these authorities may see a change (docs/product.md §6: reading is open to every member). */
function mayRead(authorities: readonly string[]): boolean {
  return can({ authorities }, 'read', { type: 'feature' });
}

/**
 * The dashboards open on this instance, by organisation (docs/product.md "Live updates"). Each
 * `dashboard` change event (from this instance or, through the PostgreSQL relay, another) is sent
 * once, serialised once, to every connection of that organisation and no other.
 *
 * Access is checked again, in one query per batch of connections: at once for the connections an
 * `access.changed` event names (a sign-out, "Sign out everywhere", a removal, a role change, on any
 * instance), which are not fed meanwhile; for every connection every 30 s and after the relay
 * reconnects (expiry, or an announcement that was missed). A connection whose session ended is
 * closed with 4401, one whose member may no longer read with 4403.
 */
export function createLiveHub(deps: {
  events: ChangeEvents;
  check: LiveSessionCheck;
  onCheckError: (error: unknown) => void;
  sweepMs?: number;
}) {
  const clients = new Map<string, Set<LiveClient>>();
  /** Connections waiting for their access to be checked again: they are sent nothing. */
  const held = new Set<LiveClient>();
  let unsubscribe: (() => void) | null = null;
  let sweep: NodeJS.Timeout | null = null;

  function broadcast(organisationId: string, change: LiveChange) {
    const group = clients.get(organisationId);
    if (!group) return;
    const message = JSON.stringify({ type: 'change', change } satisfies LiveMessage);
    for (const client of group) {
      if (!held.has(client) && mayRead(client.authorities)) client.send(message);
    }
  }

  function remove(client: LiveClient) {
    held.delete(client);
    const group = clients.get(client.organisationId);
    if (!group) return;
    group.delete(client);
    if (group.size === 0) clients.delete(client.organisationId);
  }

  /** Checks these connections' sessions again; closes those that ended or may no longer read. */
  async function recheck(targets: LiveClient[]): Promise<void> {
    for (let start = 0; start < targets.length; start += CHECK_BATCH) {
      const batch = targets.slice(start, start + CHECK_BATCH);
      let live: Awaited<ReturnType<LiveSessionCheck>>;
      try {
        live = await deps.check([...new Set(batch.map((client) => client.sessionId))]);
      } catch (error) {
        // Held connections stay held (fed nothing) until a check succeeds: the next sweep's.
        deps.onCheckError(error);
        continue;
      }
      for (const client of batch) {
        const session = live.get(client.sessionId);
        if (!session || session.userId !== client.userId) {
          remove(client);
          client.close(LIVE_SESSION_ENDED, 'Session ended');
        } else if (!mayRead(session.authorities)) {
          remove(client);
          client.close(LIVE_FORBIDDEN, 'Access changed');
        } else {
          client.authorities = session.authorities;
          held.delete(client);
        }
      }
    }
  }

  function all(): LiveClient[] {
    return [...clients.values()].flatMap((group) => [...group]);
  }

  /** Waits for the checks under way, for tests. */
  let checking: Promise<void> = Promise.resolve();
  function schedule(targets: LiveClient[]) {
    if (targets.length === 0) return;
    checking = Promise.all([checking, recheck(targets)]).then(() => undefined);
  }

  return {
    start() {
      unsubscribe = deps.events.subscribe((event) => {
        if (event.type === 'dashboard') broadcast(event.organisationId, event.change);
        if (event.type !== 'access.changed') return;
        const group = clients.get(event.organisationId);
        if (!group) return;
        const named = [...group].filter(
          (client) =>
            (event.sessionId === undefined || client.sessionId === event.sessionId) &&
            (event.userId === undefined || client.userId === event.userId),
        );
        for (const client of named) held.add(client);
        schedule(named);
      });
      sweep = setInterval(() => schedule(all()), deps.sweepMs ?? SWEEP_MS);
      sweep.unref();
    },
    stop() {
      unsubscribe?.();
      unsubscribe = null;
      if (sweep) clearInterval(sweep);
      sweep = null;
    },
    /** Adds a connection; returns the function that removes it. A member who may not read is closed. */
    join(client: LiveClient): () => void {
      if (!mayRead(client.authorities)) {
        client.close(LIVE_FORBIDDEN, 'Access changed');
        return () => undefined;
      }
      let group = clients.get(client.organisationId);
      if (!group) clients.set(client.organisationId, (group = new Set()));
      group.add(client);
      return () => remove(client);
    },
    /** Checks every connection again (after the change relay was cut off and may have missed events). */
    recheckAll(): Promise<void> {
      schedule(all());
      return checking;
    },
    /** Resolves once the checks started so far are done, for tests. */
    settled(): Promise<void> {
      return checking;
    },
    /** Open connections, for tests and the health of the instance. */
    size(): number {
      let total = 0;
      for (const group of clients.values()) total += group.size;
      return total;
    },
  };
}
