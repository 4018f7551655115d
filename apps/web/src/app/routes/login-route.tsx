import { LoginPage } from '../../features/auth/components/login-page';
import { RedirectIfSignedIn } from '../redirect-if-signed-in';

/** /login and /:organisation/login: the sign-in form, or home for a user already signed in. */
export function LoginRoute() {
  return (
    <RedirectIfSignedIn>
      <LoginPage />
    </RedirectIfSignedIn>
  );
}
