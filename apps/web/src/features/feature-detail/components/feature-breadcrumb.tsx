import { Anchor, Breadcrumbs, Group, Menu, Text, UnstyledButton } from '@mantine/core';
import { IconCheck, IconSelector } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { FeatureDetailTab, ProjectSummary } from '@vexil/core';
import { featureDetailPath, featureListPath } from '../../../lib/paths';

type EnvironmentSummary = ProjectSummary['environments'][number];

export type FeatureBreadcrumbProps = {
  project: ProjectSummary;
  environment: EnvironmentSummary;
  featureKey: string;
  featureName: string;
  tab: FeatureDetailTab;
};

/** A dot of the environment's colour; the name beside it carries the meaning. */
function Swatch({ color }: { color: string }) {
  return (
    <span
      aria-hidden="true"
      style={{
        width: 10,
        height: 10,
        borderRadius: '50%',
        background: color,
        flexShrink: 0,
        display: 'inline-block',
      }}
    />
  );
}

/**
 * docs/product.md §2 "Breadcrumb": project, an environment dropdown (name and key) that keeps the feature and tab,
 * Features (the environment's list) and the feature's name.
 */
export function FeatureBreadcrumb({
  project,
  environment,
  featureKey,
  featureName,
  tab,
}: FeatureBreadcrumbProps) {
  return (
    <nav aria-label="Breadcrumb">
      <Breadcrumbs separatorMargin={6} styles={{ root: { flexWrap: 'wrap', rowGap: 4 } }}>
        <Text size="sm" c="dimmed">
          {project.name}
        </Text>
        <Menu position="bottom-start" shadow="md" width={260} withinPortal loop>
          <Menu.Target>
            <UnstyledButton aria-label={`Environment: ${environment.name}`} style={{ borderRadius: 4 }}>
              <Group gap={6} wrap="nowrap">
                <Swatch color={environment.color} />
                <Text size="sm" fw={600}>
                  {environment.name}
                </Text>
                <Text size="xs" c="dimmed" ff="monospace">
                  {environment.key}
                </Text>
                <IconSelector size={14} aria-hidden="true" style={{ color: 'var(--mantine-color-dimmed)' }} />
              </Group>
            </UnstyledButton>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Label>Environments of {project.name}</Menu.Label>
            {project.environments.map((e) => {
              const current = e.id === environment.id;
              return (
                <Menu.Item
                  key={e.id}
                  component={Link}
                  to={featureDetailPath(project.key, e.key, featureKey, tab)}
                  aria-current={current ? 'true' : undefined}
                  leftSection={<Swatch color={e.color} />}
                  rightSection={
                    current ? (
                      <IconCheck
                        size={14}
                        aria-hidden="true"
                        style={{ color: 'var(--mantine-primary-color-filled)' }}
                      />
                    ) : null
                  }
                >
                  <Group gap={8} wrap="nowrap">
                    <Text span size="sm">
                      {e.name}
                    </Text>
                    <Text span size="xs" c="dimmed" ff="monospace">
                      {e.key}
                    </Text>
                  </Group>
                </Menu.Item>
              );
            })}
          </Menu.Dropdown>
        </Menu>
        <Anchor component={Link} to={featureListPath(project.key, environment.key)} size="sm">
          Features
        </Anchor>
        <Text size="sm" aria-current="page" truncate maw={320}>
          {featureName}
        </Text>
      </Breadcrumbs>
    </nav>
  );
}
