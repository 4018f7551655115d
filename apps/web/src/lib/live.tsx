import { createContext, useContext, useEffect, useRef, useSyncExternalStore, type ReactNode } from 'react';
import type { LiveChange } from '@vexil/core/live';

/*
 * The live dashboard (docs/product.md "Live updates"): one connection per browser tab to the
 * server's /api/v1/live socket tells of changes other people (and SDKs) make in the organisation.
 * This module is what screens use — the status and the changes — and stays small, since every page
 * loads it; the connection itself (app/live/) loads after the first render.
 */

/** A change someone made, as the server tells it (core's wire type; only its type is imported here). */
export type { LiveChange };

/** DISCONNECTED until the socket opens, and again while it is down (reconnecting with backoff). */
export type LiveStatus = 'DISCONNECTED' | 'CONNECTING' | 'CONNECTED';

/** What the connection offers the screens. */
export type LiveChannel = {
  status(): LiveStatus;
  /** Calls `listener` on each status change; returns the function that stops. */
  onStatus(listener: () => void): () => void;
  /** Calls `listener` with each change; returns the function that stops. */
  onChange(listener: (change: LiveChange) => void): () => void;
};

/** No connection (tests, signed-out pages): always disconnected, never a change. */
export const OFFLINE_CHANNEL: LiveChannel = {
  status: () => 'DISCONNECTED',
  onStatus: () => () => undefined,
  onChange: () => () => undefined,
};

const LiveContext = createContext<LiveChannel>(OFFLINE_CHANNEL);

export function LiveProvider({ channel, children }: { channel: LiveChannel; children: ReactNode }) {
  return <LiveContext.Provider value={channel}>{children}</LiveContext.Provider>;
}

/** The connection's status, kept current. */
export function useLiveStatus(): LiveStatus {
  const channel = useContext(LiveContext);
  return useSyncExternalStore(channel.onStatus, channel.status, channel.status);
}

/** Calls `listener` with every change while the component is shown (the latest `listener` each time). */
export function useLiveChanges(listener: (change: LiveChange) => void): void {
  const channel = useContext(LiveContext);
  const latest = useRef(listener);
  useEffect(() => {
    latest.current = listener;
  });
  useEffect(() => channel.onChange((change) => latest.current(change)), [channel]);
}
