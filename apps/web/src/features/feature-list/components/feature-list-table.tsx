import { Anchor, Code, Group, Skeleton, Stack, Table, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { Feature, Principal } from '@vexil/core';
import { FeatureStatusIcons } from '../../../components/feature-status';
import { FeatureToggle, type ToggleEnvironment } from './feature-toggle';
import classes from './feature-list.module.css';
import { featureDetailPath } from '../../../lib/paths';

export type FeatureListTableProps = {
  /** null while the first page loads: skeleton rows stand in. */
  features: Feature[] | null;
  environment: ToggleEnvironment & { key: string };
  user: Principal;
  /** The project of the list, for the features' pages. */
  projectKey: string;
  /** The rows shown are the previous page's while the next one loads. */
  stale: boolean;
};

const SKELETON_ROWS = 6;

function SkeletonRows() {
  return Array.from({ length: SKELETON_ROWS }, (_, index) => (
    <Table.Tr key={index} data-testid="feature-skeleton-row">
      <Table.Td>
        <Skeleton height={24} width={42} radius="xl" />
      </Table.Td>
      <Table.Td>
        <Skeleton height={14} width="70%" />
      </Table.Td>
      <Table.Td>
        <Skeleton height={14} width="60%" />
      </Table.Td>
      <Table.Td>
        <Skeleton height={14} width="85%" />
      </Table.Td>
      <Table.Td>
        <Group gap={6} wrap="nowrap">
          <Skeleton height={28} circle />
          <Skeleton height={28} circle />
          <Skeleton height={28} circle />
        </Group>
      </Table.Td>
    </Table.Tr>
  ));
}

function FeatureRow({
  feature,
  environment,
  user,
  projectKey,
}: { feature: Feature } & Omit<FeatureListTableProps, 'features' | 'stale'>) {
  const control = feature.controls[environment.key];
  return (
    <Table.Tr>
      <Table.Td>
        {control ? (
          <FeatureToggle feature={feature} control={control} environment={environment} user={user} />
        ) : (
          <Text size="sm" c="dimmed" aria-label={`${feature.name} is not set up in ${environment.name}`}>
            —
          </Text>
        )}
      </Table.Td>
      <Table.Td>
        <Anchor
          component={Link}
          to={featureDetailPath(projectKey, environment.key, feature.key)}
          fw={600}
          size="sm"
        >
          {feature.name}
        </Anchor>
      </Table.Td>
      <Table.Td>
        <Code className={classes.key}>{feature.key}</Code>
      </Table.Td>
      <Table.Td>
        <Text size="sm" lineClamp={2} c={feature.description ? undefined : 'dimmed'}>
          {feature.description || '—'}
        </Text>
      </Table.Td>
      <Table.Td>
        {control ? (
          <Stack gap={4}>
            <FeatureStatusIcons control={control} variants={feature.variants} />
            <Text size="xs" c="dimmed">
              {control.rulesDescription}
            </Text>
          </Stack>
        ) : null}
      </Table.Td>
    </Table.Tr>
  );
}

/** docs/product.md §2 "Feature list": one row per feature with its switch, name, key, description and status. */
export function FeatureListTable({ features, environment, user, projectKey, stale }: FeatureListTableProps) {
  return (
    <Table.ScrollContainer minWidth={820}>
      <Table
        verticalSpacing="sm"
        highlightOnHover
        aria-label={`Features in ${environment.name}`}
        aria-busy={features === null || stale || undefined}
        className={stale ? classes.stale : undefined}
      >
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={72}>On</Table.Th>
            <Table.Th w="22%">Name</Table.Th>
            <Table.Th w="20%">Key</Table.Th>
            <Table.Th>Description</Table.Th>
            <Table.Th w="24%">Status</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {features === null ? (
            <SkeletonRows />
          ) : (
            features.map((feature) => (
              <FeatureRow
                key={feature.id}
                feature={feature}
                environment={environment}
                user={user}
                projectKey={projectKey}
              />
            ))
          )}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
