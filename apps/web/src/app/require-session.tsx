import { useEffect, type ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useInitial } from '../entities/account/api/get-initial';
import { LoadingPage } from '../components/loading-page';
import { isApiError } from '../lib/api-client';
import { FlagsProvider } from '../lib/flags';
import { rememberReturnPath } from '../lib/return-path';
import { SessionProvider } from '../lib/session';

/**
 * The gate of the authenticated area (docs/product.md §4 "Session"): loads the initial payload behind the Loading
 * page. Without a session the visited path is remembered and the user goes to sign in; any other
 * failure of the initial load goes to /logout.
 */
export function RequireSession({ children }: { children: ReactNode }) {
  const initial = useInitial();
  const location = useLocation();
  const navigate = useNavigate();
  const failure = initial.isError && !initial.isFetching && !initial.data ? initial.error : null;
  const signedOut = isApiError(failure) && failure.status === 401;
  const here = `${location.pathname}${location.search}${location.hash}`;

  useEffect(() => {
    if (!failure) return;
    if (signedOut) {
      rememberReturnPath(here);
      void navigate('/login', { replace: true });
    } else {
      void navigate('/logout', { replace: true });
    }
  }, [failure, signedOut, here, navigate]);

  if (!initial.data) return <LoadingPage />;
  return (
    <SessionProvider session={initial.data}>
      <FlagsProvider flags={initial.data.flags}>{children}</FlagsProvider>
    </SessionProvider>
  );
}
