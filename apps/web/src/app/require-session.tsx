import { lazy, Suspense, useEffect, type ReactNode } from 'react';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useLocation, useNavigate } from 'react-router';
import { publicContextQueryOptions } from '../features/auth/api/get-public-context';
import { useInitial } from '../entities/account/api/get-initial';
import { LoadingPage } from '../components/loading-page';
import { isApiError } from '../lib/api-client';
import { FlagsProvider } from '../lib/flags';
import { notifyError } from '../lib/notify';
import { LiveRoot } from './live/live-root';
import { readRememberedOrganisation } from '../lib/remembered-organisation';
import { rememberReturnPath } from '../lib/return-path';
import { SessionProvider } from '../lib/session';

// docs/product.md §4 "Subscription": what an inactive subscription does, loaded only when one is.
const InactiveSubscription = lazy(() =>
  import('./inactive-subscription').then((module) => ({ default: module.InactiveSubscription })),
);

/**
 * The gate of the authenticated area (docs/product.md §4 "Session"): loads the initial payload behind the Loading
 * page. Without a session the visited path is remembered and the user goes to sign in (or sign up, on
 * the bare app address); any other failure of the initial load goes to /logout.
 */
export function RequireSession({ children }: { children: ReactNode }) {
  const initial = useInitial();
  const location = useLocation();
  const navigate = useNavigate();
  const failure = initial.isError && !initial.isFetching && !initial.data ? initial.error : null;
  const signedOut = isApiError(failure) && failure.status === 401;
  const here = `${location.pathname}${location.search}${location.hash}`;

  const queryClient = useQueryClient();

  useEffect(() => {
    if (!failure) return;
    if (signedOut) {
      rememberReturnPath(here);
      void signInOrSignUp(queryClient).then((path) => navigate(path, { replace: true }));
    } else {
      void navigate('/logout', { replace: true });
    }
  }, [failure, signedOut, here, navigate, queryClient]);

  if (!initial.data) return <LoadingPage />;
  return (
    <SessionProvider session={initial.data}>
      <FlagsProvider flags={initial.data.flags}>
        {initial.data.subscription?.status === 'inactive' ? (
          <Suspense fallback={null}>
            <InactiveSubscription user={initial.data.principalUser} notifyError={notifyError} />
          </Suspense>
        ) : null}
        <LiveRoot>{children}</LiveRoot>
      </FlagsProvider>
    </SessionProvider>
  );
}

/**
 * Where a signed-out visitor goes: on the bare app address with the app-login flag and no
 * remembered organisation, sign-up; otherwise sign-in (which reopens a remembered organisation).
 */
async function signInOrSignUp(queryClient: QueryClient): Promise<string> {
  if (readRememberedOrganisation()) return '/login';
  try {
    const context = await queryClient.fetchQuery(publicContextQueryOptions(undefined));
    return !context.organisation && context.flags['app-login'] ? '/signup' : '/login';
  } catch {
    return '/login';
  }
}
