import { createContext, useContext, type ReactNode } from 'react';
import type { InitialPayload } from '@vexil/core';

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
