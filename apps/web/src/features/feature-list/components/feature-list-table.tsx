import { memo } from 'react';
import { Anchor, Code, Group, Skeleton, Stack, Table, Text, UnstyledButton } from '@mantine/core';
import { IconChevronDown, IconChevronUp, IconSelector } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { FeatureListSortColumn } from '@vexil/core';
import { FeatureStatusIcons } from '../../../components/feature-status';
import { TruncatedText } from '../../../components/truncated-text';
import type { FeatureListTableProps, RowProps, Sort } from './feature-list.types';
import { FeatureCards } from './feature-cards';
import { FeatureSwitch, FeatureTags, LastChanged, SKELETON_ROWS } from './feature-cells';
import classes from './feature-list.module.css';
import { useNarrowScreen } from '../../../lib/narrow-screen';
import { featureDetailPath } from '../../../lib/paths';

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

export type { FeatureListTableProps, RowProps, Sort } from './feature-list.types';
