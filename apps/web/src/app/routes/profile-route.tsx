import { ProfilePage } from '../../features/account/components/profile-page';
import { RequireFlag } from '../require-flag';

/** /profile (flag profile): the signed-in user's profile. */
export function ProfileRoute() {
  return (
    <RequireFlag flag="profile">
      <ProfilePage />
    </RequireFlag>
  );
}
