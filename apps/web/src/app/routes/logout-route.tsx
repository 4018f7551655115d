import { LogoutPage } from '../../features/auth/components/logout-page';

/** /logout: ends the session. */
export function LogoutRoute() {
  return <LogoutPage />;
}
