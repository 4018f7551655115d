import { Drawer, NavLink as MantineNavLink, Stack } from '@mantine/core';
import { IconApi, IconExternalLink, IconHelp } from '@tabler/icons-react';
import { Link, useLocation } from 'react-router';
import { Logo } from '../../components/logo';
import { API_REFERENCE_PATH, HELP_PATH } from '../../lib/paths';
import { EnvironmentSlot } from './environment-slot';
import { useNavItems } from './nav-items';

/**
 * The top navigation's items in a drawer, below the lg breakpoint where the bar has no room for them
 * (docs/product.md §2 "Top navigation"). Loaded the first time the menu button is pressed.
 */
export function NavigationDrawer({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const items = useNavItems();
  const { pathname } = useLocation();
  return (
    <Drawer opened={opened} onClose={onClose} size="xs" title={<Logo size={24} />} hiddenFrom="lg">
      <Stack component="nav" aria-label="Main" gap={2}>
        <EnvironmentSlot fullWidth onChoose={onClose} />
        {items.map((item) => (
          <MantineNavLink
            key={item.to}
            component={Link}
            to={item.to}
            label={item.label}
            leftSection={<item.icon size={18} aria-hidden="true" />}
            active={item.isActive(pathname)}
            onClick={onClose}
          />
        ))}
        <MantineNavLink
          component={Link}
          to={HELP_PATH}
          label="Help"
          leftSection={<IconHelp size={18} aria-hidden="true" />}
          active={pathname === HELP_PATH}
          onClick={onClose}
        />
        <MantineNavLink
          component="a"
          href={API_REFERENCE_PATH}
          target="_blank"
          rel="noopener"
          label="API reference"
          leftSection={<IconApi size={18} aria-hidden="true" />}
          rightSection={<IconExternalLink size={14} aria-hidden="true" />}
        />
      </Stack>
    </Drawer>
  );
}
