import { Avatar, Group, Text, UnstyledButton } from '@mantine/core';
import { IconChevronDown } from '@tabler/icons-react';
import { fullName, initials } from '../../lib/names';
import { useSession } from '../../lib/session';
import { DeferredMenu, menuLoader } from './deferred-menu';

const profileMenu = menuLoader(() =>
  import('./profile-menu-dropdown').then((module) => module.ProfileMenuDropdown),
);

/** docs/product.md §2: Profile (flag profile), Admin (organisation admins; others the Audit log), Log Out. */
export function ProfileMenu() {
  const { principalUser: user } = useSession();
  const name = fullName(user);

  return (
    <DeferredMenu
      loader={profileMenu}
      menuProps={{}}
      target={
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
            <Text size="sm" fw={500} visibleFrom="xl" maw={160} truncate>
              {name}
            </Text>
            <IconChevronDown size={14} aria-hidden="true" />
          </Group>
        </UnstyledButton>
      }
    />
  );
}
