import { useEffect, useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { LiveProvider, OFFLINE_CHANNEL, type LiveChannel } from '../../lib/live';

/**
 * Opens the live connection once the session is known, after the first render (its code loads on
 * its own, off the first page's path), and closes it on sign-out. Component tests run without one.
 */
export function LiveRoot({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [channel, setChannel] = useState<LiveChannel>(OFFLINE_CHANNEL);
  useEffect(() => {
    if (import.meta.env.MODE === 'test' || typeof WebSocket === 'undefined') return;
    let stop: (() => void) | null = null;
    let cancelled = false;
    void import('./live-runtime').then(({ startLive }) => {
      if (cancelled) return;
      const live = startLive(queryClient);
      stop = live.stop;
      setChannel(live);
    });
    return () => {
      cancelled = true;
      stop?.();
    };
  }, [queryClient]);
  return <LiveProvider channel={channel}>{children}</LiveProvider>;
}
