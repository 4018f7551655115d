import { createContext, useCallback, useContext, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { InitialPayload } from '@vexil/core';

/** The query holding the initial payload (GET /api/v1/initial) that the session is made of. */
export const initialQueryKey = ['account', 'initial'] as const;

const SessionContext = createContext<InitialPayload | null>(null);

/** Makes the signed-in user's initial payload available to the authenticated area. */
export function SessionProvider({ session, children }: { session: InitialPayload; children: ReactNode }) {
  return <SessionContext.Provider value={session}>{children}</SessionContext.Provider>;
}

/** The initial payload of the signed-in user; only inside the authenticated area. */
export function useSession(): InitialPayload {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession is only available inside the authenticated area.');
  return session;
}

/** The initial payload when signed in, null on public pages. */
export function useOptionalSession(): InitialPayload | null {
  return useContext(SessionContext);
}

/**
 * Reloads the initial payload, for screens that change what it carries (projects and environments
 * in the top navigation and on the home page). The session stays on screen while it reloads.
 */
export function useRefreshSession(): () => Promise<void> {
  const queryClient = useQueryClient();
  return useCallback(() => queryClient.invalidateQueries({ queryKey: initialQueryKey }), [queryClient]);
}
