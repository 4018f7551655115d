import { memo } from 'react';
import {
  Anchor,
  Badge,
  Code,
  Group,
  Paper,
  Skeleton,
  Stack,
  Table,
  Text,
  Tooltip,
  UnstyledButton,
} from '@mantine/core';
import { IconChevronDown, IconChevronUp, IconSelector } from '@tabler/icons-react';
import { Link } from 'react-router';
import dayjs from 'dayjs';
import relativeTime from 'dayjs/plugin/relativeTime.js';
import type { FeatureListSortColumn, HomeFeature, Principal, SortDirection } from '@vexil/core';
import { FeatureStatusIcons } from '../../../components/feature-status';
import { TruncatedText } from '../../../components/truncated-text';
import { formatDate } from '../../../lib/format';
import { FeatureToggle, type ToggleEnvironment } from './feature-toggle';
import classes from './feature-list.module.css';
import { useNarrowScreen } from '../../../lib/narrow-screen';
import { featureDetailPath } from '../../../lib/paths';

dayjs.extend(relativeTime);

/** The column the server sorts by and which way. */
export type Sort = { by: FeatureListSortColumn; direction: SortDirection };

export type FeatureListTableProps = {
  /** null while the first page loads: skeleton rows stand in. */
  features: HomeFeature[] | null;
  environment: ToggleEnvironment & { key: string };
  user: Principal;
  /** The project of the list, for the features' pages. */
  projectKey: string;
  /** The rows shown are the previous page's while the next one loads. */
  stale: boolean;
  /** Flag `tags`: the Tags column and the cards' tags. */
  showTags: boolean;
  sort: Sort;
  onSort: (column: FeatureListSortColumn) => void;
};

type RowProps = { feature: HomeFeature } & Pick<
  FeatureListTableProps,
  'environment' | 'user' | 'projectKey' | 'showTags'
>;

/** Tags shown as badges before the rest is counted ("+2"), the whole list on hover. */
const SHOWN_TAGS = 3;

/**
 * A feature's tags as badges that wrap within the cell, each cut at the cell's width; past three, "+N"
 * with every tag on hover.
 */
function FeatureTags({ tags }: { tags: readonly string[] }) {
  if (tags.length === 0) {
    return (
      <Text size="sm" c="dimmed" aria-label="No tags">
        —
      </Text>
    );
  }
  const hidden = tags.slice(SHOWN_TAGS);
  return (
    <Group component="ul" gap={4} className={classes.tags} aria-label="Tags">
      {tags.slice(0, SHOWN_TAGS).map((tag) => (
        <Badge
          key={tag}
          component="li"
          variant="light"
          color="gray"
          size="sm"
          className={classes.tag}
          title={tag}
        >
          {tag}
        </Badge>
      ))}
      {hidden.length > 0 ? (
        <Tooltip
          label={tags.join(', ')}
          withArrow
          multiline
          maw={320}
          events={{ hover: true, focus: true, touch: true }}
        >
          <Badge
            component="li"
            variant="outline"
            color="gray"
            size="sm"
            className={classes.moreTags}
            tabIndex={0}
            aria-label={`${hidden.length} more: ${hidden.join(', ')}`}
          >
            +{hidden.length}
          </Badge>
        </Tooltip>
      ) : null}
    </Group>
  );
}

/** "3 days ago", with the full date (docs/product.md §9 format) on hover and in `datetime`. */
function LastChanged({ date, size = 'sm' }: { date: string; size?: 'xs' | 'sm' }) {
  return (
    <Tooltip
      label={formatDate(date)}
      withArrow
      openDelay={300}
      events={{ hover: true, focus: true, touch: true }}
    >
      <Text component="time" dateTime={date} size={size} className={classes.lastChanged} tabIndex={0}>
        {dayjs(date).fromNow()}
      </Text>
    </Tooltip>
  );
}

/** A column header that sorts by its column: the server sorts; `aria-sort` says how. */
function SortHeader({
  column,
  label,
  sort,
  onSort,
  width,
}: {
  column: FeatureListSortColumn;
  label: string;
  sort: Sort;
  onSort: (column: FeatureListSortColumn) => void;
  width: number | string;
}) {
  const active = sort.by === column;
  const Icon = !active ? IconSelector : sort.direction === 'asc' ? IconChevronUp : IconChevronDown;
  return (
    <Table.Th w={width} aria-sort={active ? (sort.direction === 'asc' ? 'ascending' : 'descending') : 'none'}>
      <UnstyledButton
        className={classes.sortButton}
        data-active={active || undefined}
        onClick={() => onSort(column)}
      >
        <span>{label}</span>
        <Icon size={14} stroke={1.8} aria-hidden="true" className={classes.sortIcon} />
      </UnstyledButton>
    </Table.Th>
  );
}

const SKELETON_ROWS = 6;

function SkeletonRows({ showTags }: { showTags: boolean }) {
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
      {showTags ? (
        <Table.Td>
          <Skeleton height={18} width="50%" radius="xl" />
        </Table.Td>
      ) : null}
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
      <Table.Td>
        <Skeleton height={14} width="70%" />
      </Table.Td>
    </Table.Tr>
  ));
}

function FeatureRow({ feature, environment, user, projectKey, showTags }: RowProps) {
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
      {showTags ? (
        <Table.Td>
          <FeatureTags tags={feature.tags} />
        </Table.Td>
      ) : null}
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
      <Table.Td>
        <LastChanged date={feature.lastChangedDate} />
      </Table.Td>
    </Table.Tr>
  );
}

/** The switch of a feature's row or card, or a dash when the feature has no control in the environment. */
function FeatureSwitch({
  feature,
  environment,
  user,
}: { feature: HomeFeature } & Pick<FeatureListTableProps, 'environment' | 'user'>) {
  const control = feature.controls[environment.key];
  return control ? (
    <FeatureToggle feature={feature} control={control} environment={environment} user={user} />
  ) : (
    <Text size="sm" c="dimmed" aria-label={`${feature.name} is not set up in ${environment.name}`}>
      —
    </Text>
  );
}

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
function FeatureCards({ features, environment, user, projectKey, stale, showTags }: FeatureListTableProps) {
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

/**
 * docs/product.md §2 "Feature list": one row per feature with its switch, name, key, tags, description,
 * status and last change; Name, Key and Last changed sort (on the server) when their header is clicked.
 * Memoised: typing in the search box does not re-render the rows.
 */
export const FeatureListTable = memo(function FeatureListTable(props: FeatureListTableProps) {
  const { features, environment, user, projectKey, stale, showTags, sort, onSort } = props;
  const narrow = useNarrowScreen();
  if (narrow) return <FeatureCards {...props} />;
  return (
    <Table.ScrollContainer minWidth={showTags ? 1040 : 900}>
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
            <SortHeader column="name" label="Name" sort={sort} onSort={onSort} width="17%" />
            <SortHeader column="key" label="Key" sort={sort} onSort={onSort} width="14%" />
            {showTags ? <Table.Th w="14%">Tags</Table.Th> : null}
            <Table.Th>Description</Table.Th>
            <Table.Th w="18%">Status</Table.Th>
            <SortHeader column="lastChanged" label="Last changed" sort={sort} onSort={onSort} width={164} />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {features === null ? (
            <SkeletonRows showTags={showTags} />
          ) : (
            features.map((feature) => (
              <FeatureRow
                key={feature.id}
                feature={feature}
                environment={environment}
                user={user}
                projectKey={projectKey}
                showTags={showTags}
              />
            ))
          )}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
});
