import { useId } from 'react';
import { Group, Menu, Text } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useSession } from '../../lib/session';
import { EnvironmentSwatch, LocalEnvironmentIcon } from '../../components/environment-marks';
import { featureListPath } from '../../lib/paths';
import { useMenuRequest, type LoadedMenuProps } from './deferred-menu';
import type { CurrentEnvironment } from './use-current-environment';
import classes from './environment-menu.module.css';

type EnvironmentMenuDropdownProps = LoadedMenuProps & {
  current: CurrentEnvironment;
  fullWidth: boolean;
  onChoose: (() => void) | undefined;
};

/** The environment dropdown around its button, loaded when first wanted (see ./deferred-menu). */
export function EnvironmentMenuDropdown({
  current,
  fullWidth,
  onChoose,
  ...deferred
}: EnvironmentMenuDropdownProps) {
  const target = useMenuRequest(deferred);
  const { projects } = useSession();
  const idBase = useId();
  const { environment } = current;

  return (
    <Menu
      position="bottom-start"
      width={fullWidth ? 'target' : 300}
      shadow="md"
      loop
      withinPortal
      classNames={{ itemLabel: classes.itemLabel }}
    >
      <Menu.Target>{target}</Menu.Target>
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
