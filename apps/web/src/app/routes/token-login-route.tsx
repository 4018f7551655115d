import { TokenLoginPage } from '../../features/auth/components/token-login-page';

/** /login/:token: signs in with a one-time token. */
export function TokenLoginRoute() {
  return <TokenLoginPage />;
}
