import { useId } from 'react';
import { Group, Menu, Text, UnstyledButton } from '@mantine/core';
import { IconCheck, IconSelector } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useSession } from '../../lib/session';
import { EnvironmentSwatch, LocalEnvironmentIcon } from '../../components/environment-marks';
import { featureListPath } from '../../lib/paths';
import { useCurrentEnvironment } from './use-current-environment';
import classes from './environment-menu.module.css';

type EnvironmentMenuProps = {
  /** Stretch the button to its container, as in the mobile navigation drawer. */
  fullWidth?: boolean;
  /** Called when an environment is chosen, e.g. to close the drawer holding the dropdown. */
  onChoose?: () => void;
};

/**
 * docs/product.md §2 "Top navigation": the environment dropdown. Shows the current environment (the one in the
 * address, else the first of the first project) and lists every environment grouped by project; choosing
 * one opens its feature list. Renders nothing while there is no environment.
 */
export function EnvironmentMenu({ fullWidth = false, onChoose }: EnvironmentMenuProps) {
  const { projects } = useSession();
  const current = useCurrentEnvironment();
  const idBase = useId();
  if (!current) return null;
  const { project, environment } = current;

  return (
    <Menu
      position="bottom-start"
      width={fullWidth ? 'target' : 300}
      shadow="md"
      loop
      withinPortal
      classNames={{ itemLabel: classes.itemLabel }}
    >
      <Menu.Target>
        <UnstyledButton
          className={classes.trigger}
          data-full-width={fullWidth || undefined}
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
      </Menu.Target>
      <Menu.Dropdown className={classes.dropdown}>
        {projects
          .filter((p) => p.environments.length > 0)
          .map((p, index) => {
            const labelId = `${idBase}-${p.id}`;
            return (
              <div key={p.id} role="group" aria-labelledby={labelId}>
                {index > 0 ? <Menu.Divider /> : null}
                <Menu.Label id={labelId}>{p.name}</Menu.Label>
                {p.environments.map((e) => {
                  const isCurrent = e.id === environment.id;
                  return (
                    <Menu.Item
                      key={e.id}
                      component={Link}
                      to={featureListPath(p.key, e.key)}
                      className={classes.item}
                      onClick={onChoose}
                      aria-current={isCurrent ? 'true' : undefined}
                      leftSection={<EnvironmentSwatch color={e.color} />}
                      rightSection={
                        <Group gap={6} wrap="nowrap">
                          {e.local ? <LocalEnvironmentIcon /> : null}
                          {isCurrent ? (
                            <IconCheck
                              size={16}
                              style={{ color: 'var(--mantine-primary-color-filled)' }}
                              aria-hidden="true"
                            />
                          ) : null}
                        </Group>
                      }
                    >
                      <Group gap={8} wrap="nowrap">
                        <Text span size="sm" truncate miw={0}>
                          {e.name}
                        </Text>
                        <Text span size="xs" c="dimmed" ff="monospace" truncate miw={0} maw="45%">
                          {e.key}
                        </Text>
                      </Group>
                    </Menu.Item>
                  );
                })}
              </div>
            );
          })}
      </Menu.Dropdown>
    </Menu>
  );
}
