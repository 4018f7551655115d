import { liveMessageSchema } from '@vexil/core/live';
import type { LiveChange, LiveChannel, LiveStatus } from '../../lib/live';

/** Waits between attempts: doubling from 1 s to 30 s, with up to a quarter more at random. */
export function reconnectDelay(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(30_000, 1_000 * 2 ** Math.max(0, attempt));
  return Math.round(base * (1 + random() / 4));
}

/**
 * Close codes of the server (apps/server live hub): the session ended (signed out, everywhere, the
 * member removed, expired), or the member may no longer read. Reconnecting would be refused.
 */
export const SESSION_ENDED_CODES: ReadonlySet<number> = new Set([4401, 4403]);

type SocketLike = Pick<WebSocket, 'close'> & {
  onopen: ((event: Event) => void) | null;
  onclose: ((event: CloseEvent) => void) | null;
  onmessage: ((event: MessageEvent) => void) | null;
};

/**
 * One WebSocket to `url` for the tab, opened again with backoff whenever it drops (a server
 * restart, a lost network, a sleeping laptop), until `stop`, or until the server ends it because
 * the session's access ended (`onEnded` is then called once). Messages other than changes are ignored,
 * and so is one that is not a message of core's {@link liveMessageSchema} (malformed, or from a
 * server that words them otherwise): it never reaches the screens.
 */
export function createLiveConnection(
  url: string,
  options: {
    open?: (url: string) => SocketLike;
    setTimer?: (run: () => void, ms: number) => unknown;
    clearTimer?: (timer: unknown) => void;
    /** The server closed the connection because the session's access ended. */
    onEnded?: () => void;
  } = {},
): LiveChannel & { stop(): void } {
  const open = options.open ?? ((address: string) => new WebSocket(address));
  const setTimer = options.setTimer ?? ((run, ms) => setTimeout(run, ms));
  const clearTimer = options.clearTimer ?? ((timer) => clearTimeout(timer as ReturnType<typeof setTimeout>));
  let status: LiveStatus = 'DISCONNECTED';
  let socket: SocketLike | null = null;
  let timer: unknown = null;
  let attempt = 0;
  let stopped = false;
  const statusListeners = new Set<() => void>();
  const changeListeners = new Set<(change: LiveChange) => void>();

  function setStatus(next: LiveStatus) {
    if (status === next) return;
    status = next;
    for (const listener of statusListeners) listener();
  }

  function connect() {
    timer = null;
    if (stopped) return;
    setStatus('CONNECTING');
    const current = open(url);
    socket = current;
    current.onopen = () => {
      attempt = 0;
      setStatus('CONNECTED');
    };
    current.onmessage = (event) => {
      let data: unknown;
      try {
        data = JSON.parse(String(event.data));
      } catch {
        return;
      }
      const message = liveMessageSchema.safeParse(data);
      if (!message.success || message.data.type !== 'change') return;
      for (const listener of changeListeners) listener(message.data.change);
    };
    current.onclose = (event) => {
      if (socket !== current) return;
      socket = null;
      setStatus('DISCONNECTED');
      if (stopped) return;
      if (SESSION_ENDED_CODES.has(event.code)) {
        stopped = true;
        options.onEnded?.();
        return;
      }
      timer = setTimer(connect, reconnectDelay(attempt));
      attempt += 1;
    };
  }

  connect();
  return {
    status: () => status,
    onStatus(listener) {
      statusListeners.add(listener);
      return () => statusListeners.delete(listener);
    },
    onChange(listener) {
      changeListeners.add(listener);
      return () => changeListeners.delete(listener);
    },
    stop() {
      stopped = true;
      if (timer !== null) clearTimer(timer);
      socket?.close();
      socket = null;
      setStatus('DISCONNECTED');
    },
  };
}
