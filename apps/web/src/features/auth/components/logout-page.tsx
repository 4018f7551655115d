import { useEffect, useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { LoadingPage } from '../../../components/loading-page';
import { closeAllModals } from '../../../lib/modals';
import { logout } from '../api/logout';

/** /logout: ends the session on the server, forgets everything cached for it and goes to /login. */
export function LogoutPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    logout()
      .catch(() => undefined)
      .finally(() => {
        queryClient.clear();
        closeAllModals();
        void navigate('/login', { replace: true });
      });
  }, [navigate, queryClient]);

  return <LoadingPage />;
}
