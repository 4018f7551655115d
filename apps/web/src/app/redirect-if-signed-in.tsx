import type { ReactNode } from 'react';
import { Navigate, useNavigation, useParams } from 'react-router';
import { useInitial } from '../entities/account/api/get-initial';
import { LoadingPage } from '../components/loading-page';

/**
 * Sign-in screens send a signed-in user home (docs/product.md §2 "/login"), except:
 * - /{organisation}/login of another organisation than the session's: its form shows, to sign in
 *   there (a link into that organisation leads to it);
 * - while the form's own sign-in is on its way to the page asked for before signing in (a screen
 *   loaded on first visit can take longer than the session's reload): home would cut it short.
 */
export function RedirectIfSignedIn({ children }: { children: ReactNode }) {
  const initial = useInitial();
  const navigation = useNavigation();
  const { organisation } = useParams();
  const elsewhere =
    organisation !== undefined && initial.data?.organisation.domain !== organisation.toLowerCase();
  if (initial.data && !elsewhere) return navigation.state === 'idle' ? <Navigate to="/" replace /> : children;
  if (initial.isPending) return <LoadingPage />;
  return children;
}
