import { Anchor, Code, Group, Paper, Skeleton, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { FeatureStatusIcons } from '../../../components/feature-status';
import { featureDetailPath } from '../../../lib/paths';
import { FeatureSwitch, FeatureTags, LastChanged, SKELETON_ROWS } from './feature-cells';
import type { FeatureListTableProps, RowProps } from './feature-list.types';
import classes from './feature-list.module.css';

/**
 * On a phone, a card per feature: the same switch, link, key, tags, description, status and last
 * change as a row, stacked.
 */
function FeatureCard({ feature, environment, user, projectKey, showTags }: RowProps) {
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
        {showTags && feature.tags.length > 0 ? <FeatureTags tags={feature.tags} /> : null}
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
        <Text size="xs" c="dimmed">
          Changed <LastChanged date={feature.lastChangedDate} size="xs" />
        </Text>
      </Stack>
    </Paper>
  );
}

/**
 * Below the `sm` breakpoint the table would scroll sideways and hide the Status column (docs/product.md §2
 * "Feature list"): the features are a list of cards instead, with the same accessible names.
 */
export function FeatureCards({
  features,
  environment,
  user,
  projectKey,
  stale,
  showTags,
}: FeatureListTableProps) {
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
              showTags={showTags}
            />
          ))}
    </Stack>
  );
}
