import { useEffect, useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { LoadingPage } from '../../../components/loading-page';
import { readRememberedOrganisation } from '../../../lib/remembered-organisation';
import { takeReturnPath } from '../../../lib/return-path';
import { usePublicContext } from '../api/get-public-context';
import { tokenLogin } from '../api/token-login';

/**
 * /login/{token}: exchanges a one-time token for a session, then goes to the page remembered before
 * sign-in, else home; on failure to /login.
 */
export function TokenLoginPage() {
  const { token = '' } = useParams();
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const context = usePublicContext(undefined);
  const started = useRef(false);

  const contextSettled = !context.isPending;
  const hostDomain = context.data?.organisation?.domain;
  const domain =
    search.get('domain')?.toLowerCase() || hostDomain || readRememberedOrganisation() || undefined;
  const rememberMe = search.get('rememberMe') === 'true';
  // Single sign-on comes back here, and its address says rememberMe; the sign-up wizard's does not.
  const fromSso = search.has('rememberMe');

  useEffect(() => {
    if (!contextSettled || started.current) return;
    started.current = true;
    tokenLogin({ token, domain, rememberMe }).then(
      async () => {
        queryClient.clear();
        // After single sign-on, the page asked for before signing in; a new organisation starts at home.
        const back = fromSso ? takeReturnPath() : null;
        await navigate(back ?? '/', { replace: true });
      },
      async () => {
        await navigate('/login', { replace: true });
      },
    );
  }, [contextSettled, token, domain, rememberMe, fromSso, navigate, queryClient]);

  return <LoadingPage />;
}
