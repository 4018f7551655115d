import { useCallback } from 'react';
import { useNavigate } from 'react-router';

/**
 * Opens a page a billing call answered: one of Vexil's own (`/admin/billing/...`, the local provider)
 * in the app, any other (the payment provider's checkout or portal) by leaving the dashboard. Only
 * http(s) addresses are followed; the function says false for anything else.
 */
export function useOpenBillingUrl(): (url: string) => boolean {
  const navigate = useNavigate();
  return useCallback(
    (url: string) => {
      if (url.startsWith('/') && !url.startsWith('//')) {
        void navigate(url);
        return true;
      }
      let target: URL;
      try {
        target = new URL(url);
      } catch {
        return false;
      }
      if (target.protocol !== 'https:' && target.protocol !== 'http:') return false;
      window.location.assign(target.href);
      return true;
    },
    [navigate],
  );
}
