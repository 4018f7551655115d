import { Text, UnstyledButton } from '@mantine/core';
import { IconSelector } from '@tabler/icons-react';
import { EnvironmentSwatch } from '../../components/environment-marks';
import { TOUR_TARGETS } from '../../lib/tour-targets';
import { DeferredMenu, menuLoader } from './deferred-menu';
import { useCurrentEnvironment } from './use-current-environment';
import classes from './environment-menu.module.css';

type EnvironmentMenuProps = {
  /** Stretch the button to its container, as in the mobile navigation drawer. */
  fullWidth?: boolean;
  /** Called when an environment is chosen, e.g. to close the drawer holding the dropdown. */
  onChoose?: (() => void) | undefined;
};

const environmentMenu = menuLoader(() =>
  import('./environment-menu-dropdown').then((module) => module.EnvironmentMenuDropdown),
);

/**
 * docs/product.md §2 "Top navigation": the environment dropdown. Shows the current environment (the one in the
 * address, else the one last worked in: see lib/current-environment) and lists every environment grouped by
 * project, in the server's order (non-production first); choosing one opens its feature list. Renders
 * nothing while there is no environment.
 */
export function EnvironmentMenu({ fullWidth = false, onChoose }: EnvironmentMenuProps) {
  const current = useCurrentEnvironment();
  if (!current) return null;
  const { project, environment } = current;

  return (
    <DeferredMenu
      loader={environmentMenu}
      menuProps={{ current, fullWidth, onChoose }}
      target={
        <UnstyledButton
          className={classes.trigger}
          data-full-width={fullWidth || undefined}
          data-tour={TOUR_TARGETS.environmentMenu}
          aria-label={`Environment: ${environment.name} (${project.name})`}
        >
          <EnvironmentSwatch color={environment.color} size={14} />
          <span className={classes.triggerText}>
            <Text span size="sm" fw={600} truncate>
              {environment.name}
            </Text>
            <Text span size="xs" c="dimmed" truncate>
              {project.name}
            </Text>
          </span>
          <IconSelector size={16} className={classes.chevron} aria-hidden="true" />
        </UnstyledButton>
      }
    />
  );
}
