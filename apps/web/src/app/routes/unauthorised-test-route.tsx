import { UnauthorisedTestPage } from '../../features/auth/components/unauthorised-test-page';

/** /test/401: checks that an ended session sends the user to /logout. */
export function UnauthorisedTestRoute() {
  return <UnauthorisedTestPage />;
}
