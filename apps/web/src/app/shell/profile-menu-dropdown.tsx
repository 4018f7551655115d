import { useId } from 'react';
import { Menu, Text, useMantineColorScheme, type MantineColorScheme } from '@mantine/core';
import { IconCheck, IconHistory, IconLogout, IconRoute, IconSettings, IconUser } from '@tabler/icons-react';
import { Link } from 'react-router';
import { isOrganisationAdmin } from '@vexil/core';
import { useFlag } from '../../lib/flags';
import { fullName } from '../../lib/names';
import { useSession } from '../../lib/session';
import { useMenuRequest, type LoadedMenuProps } from './deferred-menu';
import { replayWalkthrough } from './walkthrough-slot';

const APPEARANCES: { value: MantineColorScheme; label: string }[] = [
  { value: 'light', label: 'Light' },
  { value: 'dark', label: 'Dark' },
  { value: 'auto', label: 'System' },
];

/** The check takes the place of the other items' icons, so that every label starts in one column. */
const CHECK_LIKE_ICON = {
  itemIndicator: { width: 16, height: 16, marginInlineEnd: 'var(--mantine-spacing-xs)' },
};

/**
 * Light, dark or as the system prefers (lib/color-scheme): a choice the menu stays open for, so the
 * user sees the page change and can choose again.
 */
function AppearanceChoice() {
  const { colorScheme, setColorScheme } = useMantineColorScheme();
  const labelId = useId();
  const choose = (value: string) => {
    const chosen = APPEARANCES.find((appearance) => appearance.value === value);
    if (chosen) setColorScheme(chosen.value);
  };
  return (
    <div role="group" aria-labelledby={labelId}>
      <Menu.Label id={labelId}>Appearance</Menu.Label>
      <Menu.RadioGroup value={colorScheme} onChange={choose}>
        {APPEARANCES.map(({ value, label }) => (
          <Menu.RadioItem
            key={value}
            value={value}
            checkIcon={<IconCheck size={16} aria-hidden="true" />}
            styles={CHECK_LIKE_ICON}
          >
            {label}
          </Menu.RadioItem>
        ))}
      </Menu.RadioGroup>
    </div>
  );
}

/**
 * The profile menu around its button, loaded when first wanted (see ./deferred-menu), with the
 * welcome walkthrough's replay (flag welcome-message) and the appearance choice above Log Out.
 */
export function ProfileMenuDropdown(props: LoadedMenuProps) {
  const target = useMenuRequest(props);
  const { principalUser: user } = useSession();
  const profile = useFlag('profile');
  const admin = isOrganisationAdmin(user);
  const tour = useFlag('welcome-message');
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
        ) : (
          // The one admin tab everyone may see.
          <Menu.Item
            component={Link}
            to="/admin/audit"
            leftSection={<IconHistory size={16} aria-hidden="true" />}
          >
            Audit log
          </Menu.Item>
        )}
        {tour ? (
          <Menu.Item onClick={replayWalkthrough} leftSection={<IconRoute size={16} aria-hidden="true" />}>
            Welcome tour
          </Menu.Item>
        ) : null}
        <Menu.Divider />
        <AppearanceChoice />
        <Menu.Divider />
        <Menu.Item component={Link} to="/logout" leftSection={<IconLogout size={16} aria-hidden="true" />}>
          Log Out
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
