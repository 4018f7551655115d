import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { isOrganisationAdmin, type PrincipalUser } from '@vexil/core';
import { INACTIVE_ACCOUNT } from '@vexil/core/messages';

/** docs/product.md §4 "Subscription": the toast once an inactive subscription has sent the user away. */
export const INACTIVE_ACCOUNT_MESSAGE = INACTIVE_ACCOUNT;
/** docs/product.md §9: the toast is shown 500 ms after the redirect. */
export const INACTIVE_TOAST_DELAY_MS = 500;

/**
 * docs/product.md §4 "Subscription": mounted by the session gate once the initial load says the subscription is
 * inactive. An organisation admin goes to the Billing tab (and stays on its pages), anyone else to
 * /logout; 500 ms later the error toast says why. It acts once per mount, that is once per load of the
 * session. Loaded on demand: it has no place in a healthy account's first download.
 */
export function InactiveSubscription({
  user,
  notifyError,
}: {
  user: PrincipalUser;
  /** The error toast (passed in so that this chunk stays apart from the notifications module). */
  notifyError: (message: string) => void;
}) {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const handled = useRef(false);

  useEffect(() => {
    if (handled.current) return;
    handled.current = true;
    const admin = isOrganisationAdmin(user);
    const redirect =
      admin && pathname.startsWith('/admin/billing')
        ? undefined
        : navigate(admin ? '/admin/billing' : '/logout', { replace: true });
    // Counted from the redirect's arrival, not its start: the Billing screen is loaded on demand, and
    // on a slow connection the toast would otherwise come with the screen or before it. Not cleared
    // on unmount: /logout leaves the session gate, and the toast must still come.
    const notify = () => setTimeout(() => notifyError(INACTIVE_ACCOUNT_MESSAGE), INACTIVE_TOAST_DELAY_MS);
    void Promise.resolve(redirect).then(notify, notify);
  }, [user, pathname, navigate, notifyError]);

  return null;
}
