import { Anchor, Code, Group, Paper, Skeleton, Stack, Table, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { Feature, Principal } from '@vexil/core';
import { FeatureStatusIcons } from '../../../components/feature-status';
import { TruncatedText } from '../../../components/truncated-text';
import { FeatureToggle, type ToggleEnvironment } from './feature-toggle';
import classes from './feature-list.module.css';
import { useNarrowScreen } from '../../../lib/narrow-screen';
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
        <FeatureSwitch feature={feature} environment={environment} user={user} />
      </Table.Td>
      <Table.Td>
        <TruncatedText
          text={feature.name}
          render={(target) => (
            <Anchor
              component={Link}
              to={featureDetailPath(projectKey, environment.key, feature.key)}
              fw={600}
              size="sm"
              {...target}
            >
              {feature.name}
            </Anchor>
          )}
        />
      </Table.Td>
      <Table.Td>
        <TruncatedText text={feature.key} render={(target) => <Code {...target}>{feature.key}</Code>} />
      </Table.Td>
      <Table.Td>
        <Text
          size="sm"
          lineClamp={2}
          c={feature.description ? undefined : 'dimmed'}
          className={classes.wrapAnywhere}
        >
          {feature.description || '—'}
        </Text>
      </Table.Td>
      <Table.Td>
        {control ? (
          <Stack gap={4}>
            <FeatureStatusIcons control={control} variants={feature.variants} />
            <Text size="xs" c="dimmed" className={classes.wrapAnywhere}>
              {control.rulesDescription}
            </Text>
          </Stack>
        ) : null}
      </Table.Td>
    </Table.Tr>
  );
}

/** The switch of a feature's row or card, or a dash when the feature has no control in the environment. */
function FeatureSwitch({
  feature,
  environment,
  user,
}: { feature: Feature } & Pick<FeatureListTableProps, 'environment' | 'user'>) {
  const control = feature.controls[environment.key];
  return control ? (
    <FeatureToggle feature={feature} control={control} environment={environment} user={user} />
  ) : (
    <Text size="sm" c="dimmed" aria-label={`${feature.name} is not set up in ${environment.name}`}>
      —
    </Text>
  );
}

/** On a phone, a card per feature: the same switch, link, key, description and status as a row, stacked. */
function FeatureCard({
  feature,
  environment,
  user,
  projectKey,
}: { feature: Feature } & Omit<FeatureListTableProps, 'features' | 'stale'>) {
  const control = feature.controls[environment.key];
  return (
    <Paper component="li" withBorder radius="md" p="sm">
      <Stack gap={6}>
        <Group gap="sm" wrap="nowrap" align="flex-start">
          <FeatureSwitch feature={feature} environment={environment} user={user} />
          <Stack gap={2} miw={0}>
            <Anchor
              component={Link}
              to={featureDetailPath(projectKey, environment.key, feature.key)}
              fw={600}
              size="sm"
              className={classes.wrapAnywhere}
            >
              {feature.name}
            </Anchor>
            <Code w="fit-content" maw="100%" className={classes.wrapAnywhere}>
              {feature.key}
            </Code>
          </Stack>
        </Group>
        {feature.description ? (
          <Text size="sm" lineClamp={2} className={classes.wrapAnywhere}>
            {feature.description}
          </Text>
        ) : null}
        {control ? (
          <Group gap="xs" wrap="nowrap" align="center">
            <FeatureStatusIcons control={control} variants={feature.variants} />
            <Text size="xs" c="dimmed" miw={0} className={classes.wrapAnywhere}>
              {control.rulesDescription}
            </Text>
          </Group>
        ) : null}
      </Stack>
    </Paper>
  );
}

/**
 * Below the `sm` breakpoint the table would scroll sideways and hide the Status column (docs/product.md §2
 * "Feature list"): the features are a list of cards instead, with the same accessible names.
 */
function FeatureCards({ features, environment, user, projectKey, stale }: FeatureListTableProps) {
  return (
    <Stack
      component="ul"
      gap="xs"
      m={0}
      p={0}
      className={stale ? `${classes.cards} ${classes.stale}` : classes.cards}
      aria-label={`Features in ${environment.name}`}
      aria-busy={features === null || stale || undefined}
    >
      {features === null
        ? Array.from({ length: SKELETON_ROWS }, (_, index) => (
            <Paper
              component="li"
              key={index}
              withBorder
              radius="md"
              p="sm"
              data-testid="feature-skeleton-row"
            >
              <Stack gap={8}>
                <Skeleton height={14} width="60%" />
                <Skeleton height={14} width="40%" />
                <Skeleton height={14} width="85%" />
              </Stack>
            </Paper>
          ))
        : features.map((feature) => (
            <FeatureCard
              key={feature.id}
              feature={feature}
              environment={environment}
              user={user}
              projectKey={projectKey}
            />
          ))}
    </Stack>
  );
}

/** docs/product.md §2 "Feature list": one row per feature with its switch, name, key, description and status. */
export function FeatureListTable(props: FeatureListTableProps) {
  const { features, environment, user, projectKey, stale } = props;
  const narrow = useNarrowScreen();
  if (narrow) return <FeatureCards {...props} />;
  return (
    <Table.ScrollContainer minWidth={820}>
      <Table
        // Fixed: a long name or key is cut (with a tooltip) rather than pushing the other columns away.
        layout="fixed"
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
