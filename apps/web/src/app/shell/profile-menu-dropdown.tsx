import { Menu, Text } from '@mantine/core';
import { IconLogout, IconSettings, IconUser } from '@tabler/icons-react';
import { Link } from 'react-router';
import { isOrganisationAdmin } from '@vexil/core';
import { useFlag } from '../../lib/flags';
import { fullName } from '../../lib/names';
import { useSession } from '../../lib/session';
import { useMenuRequest, type LoadedMenuProps } from './deferred-menu';

/** The profile menu around its button, loaded when first wanted (see ./deferred-menu). */
export function ProfileMenuDropdown(props: LoadedMenuProps) {
  const target = useMenuRequest(props);
  const { principalUser: user } = useSession();
  const profile = useFlag('profile');
  const admin = isOrganisationAdmin(user);
  const name = fullName(user);

  return (
    <Menu position="bottom-end" width={240} shadow="md" withinPortal>
      <Menu.Target>{target}</Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>
          <Text size="sm" fw={600} c="var(--mantine-color-text)" truncate>
            {name}
          </Text>
          <Text size="xs" c="dimmed" truncate>
            {user.email}
          </Text>
        </Menu.Label>
        <Menu.Divider />
        {profile ? (
          <Menu.Item component={Link} to="/profile" leftSection={<IconUser size={16} aria-hidden="true" />}>
            Profile
          </Menu.Item>
        ) : null}
        {admin ? (
          <Menu.Item component={Link} to="/admin" leftSection={<IconSettings size={16} aria-hidden="true" />}>
            Admin
          </Menu.Item>
        ) : null}
        {profile || admin ? <Menu.Divider /> : null}
        <Menu.Item component={Link} to="/logout" leftSection={<IconLogout size={16} aria-hidden="true" />}>
          Log Out
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
