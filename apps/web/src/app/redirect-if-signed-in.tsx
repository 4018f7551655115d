import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { useInitial } from '../entities/account/api/get-initial';
import { LoadingPage } from '../components/loading-page';

/** Sign-in screens send a signed-in user home (docs/product.md §2 "/login"). */
export function RedirectIfSignedIn({ children }: { children: ReactNode }) {
  const initial = useInitial();
  if (initial.data) return <Navigate to="/" replace />;
  if (initial.isPending) return <LoadingPage />;
  return children;
}
