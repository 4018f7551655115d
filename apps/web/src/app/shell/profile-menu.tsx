import { Avatar, Group, Menu, Text, UnstyledButton } from '@mantine/core';
import { IconChevronDown, IconLogout, IconSettings, IconUser } from '@tabler/icons-react';
import { Link } from 'react-router';
import { isOrganisationAdmin } from '@vexil/core';
import { useFlag } from '../../lib/flags';
import { fullName, initials } from '../../lib/format';
import { useSession } from '../../lib/session';

/** docs/product.md §2: Profile (flag profile), Admin (organisation admins), Log Out. */
export function ProfileMenu() {
  const { principalUser: user } = useSession();
  const profile = useFlag('profile');
  const admin = isOrganisationAdmin(user);
  const name = fullName(user);

  return (
    <Menu position="bottom-end" width={240} shadow="md" withinPortal>
      <Menu.Target>
        <UnstyledButton
          aria-label={`Account menu for ${name}`}
          px={6}
          py={4}
          style={{ borderRadius: 'var(--mantine-radius-xl)' }}
        >
          <Group gap={8} wrap="nowrap">
            <Avatar size={32} radius="xl" color="initials" name={name} aria-hidden="true">
              {initials(user)}
            </Avatar>
            <Text size="sm" fw={500} visibleFrom="sm" maw={160} truncate>
              {name}
            </Text>
            <IconChevronDown size={14} aria-hidden="true" />
          </Group>
        </UnstyledButton>
      </Menu.Target>
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
