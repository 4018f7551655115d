import {
  ActionIcon,
  Anchor,
  CopyButton,
  Skeleton,
  Table,
  Text,
  Tooltip,
  UnstyledButton,
  VisuallyHidden,
} from '@mantine/core';
import {
  IconCheck,
  IconChevronDown,
  IconChevronUp,
  IconCopy,
  IconSelector,
  IconStar,
  IconStarFilled,
} from '@tabler/icons-react';
import { Link } from 'react-router';
import dayjs from 'dayjs';
import relativeTime from 'dayjs/plugin/relativeTime.js';
import {
  defaultSortDirection,
  type FeatureSortColumn,
  type HomeFeature,
  type SortDirection,
} from '@vexil/core';
import {
  COPIED_MESSAGE,
  COPY_TOOLTIP_CLOSE_DELAY_MS,
  COPY_TOOLTIP_OPEN_DELAY_MS,
} from '../../../components/copy-tooltip';
import { TruncatedText } from '../../../components/truncated-text';
import { formatDate } from '../../../lib/format';
import { projectFeaturePath } from '../../../lib/paths';
import classes from './home-features.module.css';

dayjs.extend(relativeTime);

export type SortColumn = FeatureSortColumn;
export type { SortDirection };
export type Sort = { by: SortColumn; direction: SortDirection };

/** docs/product.md §9: the home table starts with the last changed feature first. */
export const DEFAULT_SORT: Sort = { by: 'lastChanged', direction: defaultSortDirection('lastChanged') };

const COLUMNS: { column: SortColumn; label: string }[] = [
  { column: 'key', label: 'Key' },
  { column: 'name', label: 'Name' },
  { column: 'description', label: 'Description' },
  { column: 'project', label: 'Project' },
  { column: 'maintainer', label: 'Maintainer' },
  { column: 'lastChanged', label: 'Last changed' },
];

/** "3 minutes ago", with the full date (docs/product.md §9 format) on hover and for assistive technology. */
function LastChanged({ date }: { date: string }) {
  const full = formatDate(date);
  return (
    <Tooltip label={full} openDelay={COPY_TOOLTIP_OPEN_DELAY_MS} withArrow>
      <Text component="time" dateTime={date} size="sm" className={classes.lastChanged}>
        {dayjs(date).fromNow()}
      </Text>
    </Tooltip>
  );
}

function SortHeader({
  column,
  label,
  sort,
  onSort,
}: {
  column: SortColumn;
  label: string;
  sort: Sort;
  onSort: (column: SortColumn) => void;
}) {
  const active = sort.by === column;
  const Icon = !active ? IconSelector : sort.direction === 'asc' ? IconChevronUp : IconChevronDown;
  return (
    <Table.Th
      aria-sort={active ? (sort.direction === 'asc' ? 'ascending' : 'descending') : 'none'}
      className={classes[`column-${column}`]}
    >
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

function CopyKey({ featureKey }: { featureKey: string }) {
  return (
    <CopyButton value={featureKey} timeout={2000}>
      {({ copied, copy }) => (
        <Tooltip
          label={copied ? COPIED_MESSAGE : 'Copy key'}
          opened={copied || undefined}
          openDelay={COPY_TOOLTIP_OPEN_DELAY_MS}
          closeDelay={COPY_TOOLTIP_CLOSE_DELAY_MS}
          withArrow
          position="top"
        >
          <UnstyledButton
            className={classes.keyButton}
            data-copied={copied || undefined}
            onClick={copy}
            aria-label={copied ? COPIED_MESSAGE : `Copy key ${featureKey}`}
          >
            <span className={classes.keyText}>{featureKey}</span>
            {copied ? (
              <IconCheck size={14} aria-hidden="true" className={classes.keyIcon} />
            ) : (
              <IconCopy size={14} aria-hidden="true" className={classes.keyIcon} />
            )}
          </UnstyledButton>
        </Tooltip>
      )}
    </CopyButton>
  );
}

function BookmarkToggle({
  feature,
  onToggle,
}: {
  feature: HomeFeature;
  onToggle: (feature: HomeFeature) => void;
}) {
  const label = feature.bookmarked ? `Remove bookmark from ${feature.name}` : `Bookmark ${feature.name}`;
  return (
    <Tooltip
      label={feature.bookmarked ? 'Remove bookmark' : 'Bookmark'}
      openDelay={COPY_TOOLTIP_OPEN_DELAY_MS}
      withArrow
    >
      <ActionIcon
        variant="subtle"
        color={feature.bookmarked ? 'yellow' : 'gray'}
        aria-label={label}
        aria-pressed={feature.bookmarked}
        onClick={() => onToggle(feature)}
      >
        {feature.bookmarked ? (
          <IconStarFilled size={16} aria-hidden="true" />
        ) : (
          <IconStar size={16} aria-hidden="true" />
        )}
      </ActionIcon>
    </Tooltip>
  );
}

export type HomeFeaturesTableProps = {
  /** One page of the list, sorted on the server; null while the list loads: skeleton rows. */
  features: readonly HomeFeature[] | null;
  sort: Sort;
  onSort: (column: SortColumn) => void;
  /** Given when the bookmarked flag is on: a star per row. */
  onToggleBookmark?: ((feature: HomeFeature) => void) | undefined;
  /** A new list is on its way: the rows dim. */
  stale?: boolean;
};

const SKELETON_ROWS = 5;

/**
 * docs/product.md §2 "Home page": Key (copies), Name (links), Description, Project, Maintainer and Last
 * changed; sortable headers (the sorting itself is the server's).
 */
export function HomeFeaturesTable({
  features,
  sort,
  onSort,
  onToggleBookmark,
  stale,
}: HomeFeaturesTableProps) {
  const columnCount = COLUMNS.length + (onToggleBookmark ? 1 : 0);
  return (
    <Table.ScrollContainer minWidth={880}>
      <Table
        // Fixed: the columns keep their widths whatever the rows hold (skeleton, "No results", data).
        layout="fixed"
        verticalSpacing="sm"
        highlightOnHover
        className={classes.table}
        aria-label="Features"
        aria-busy={features === null || stale || undefined}
        data-stale={stale || undefined}
      >
        <Table.Thead>
          <Table.Tr>
            {onToggleBookmark ? (
              <Table.Th className={classes['column-bookmark']}>
                <VisuallyHidden>Bookmark</VisuallyHidden>
              </Table.Th>
            ) : null}
            {COLUMNS.map(({ column, label }) => (
              <SortHeader key={column} column={column} label={label} sort={sort} onSort={onSort} />
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {features === null ? (
            Array.from({ length: SKELETON_ROWS }, (_, row) => (
              <Table.Tr key={row} aria-hidden="true">
                {Array.from({ length: columnCount }, (_, cell) => (
                  <Table.Td key={cell}>
                    <Skeleton height={14} radius="sm" width={cell === 0 && onToggleBookmark ? 20 : '70%'} />
                  </Table.Td>
                ))}
              </Table.Tr>
            ))
          ) : features.length === 0 ? (
            <Table.Tr>
              <Table.Td colSpan={columnCount}>
                <Text c="dimmed" ta="center" py="lg">
                  No results
                </Text>
              </Table.Td>
            </Table.Tr>
          ) : (
            features.map((feature) => (
              <Table.Tr key={feature.id}>
                {onToggleBookmark ? (
                  <Table.Td>
                    <BookmarkToggle feature={feature} onToggle={onToggleBookmark} />
                  </Table.Td>
                ) : null}
                <Table.Td>
                  <CopyKey featureKey={feature.key} />
                </Table.Td>
                <Table.Td>
                  <TruncatedText
                    text={feature.name}
                    render={(target) => (
                      <Anchor
                        component={Link}
                        to={projectFeaturePath(feature.projectKey, feature.key)}
                        fw={500}
                        size="sm"
                        {...target}
                      >
                        {feature.name}
                      </Anchor>
                    )}
                  />
                </Table.Td>
                <Table.Td>
                  <Text
                    size="sm"
                    c={feature.description ? undefined : 'dimmed'}
                    lineClamp={2}
                    className={classes.wrapAnywhere}
                  >
                    {feature.description}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <TruncatedText text={feature.project.name} />
                </Table.Td>
                <Table.Td>
                  {feature.maintainer ? (
                    <TruncatedText text={feature.maintainer.name} />
                  ) : (
                    <Text size="sm" c="dimmed">
                      —
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>
                  <LastChanged date={feature.lastChangedDate} />
                </Table.Td>
              </Table.Tr>
            ))
          )}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
