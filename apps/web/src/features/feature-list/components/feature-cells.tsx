import { Badge, Group, Text, Tooltip } from '@mantine/core';
import dayjs from 'dayjs';
import relativeTime from 'dayjs/plugin/relativeTime.js';
import type { HomeFeature } from '@vexil/core';
import { formatDate } from '../../../lib/format';
import { FeatureToggle } from './feature-toggle';
import type { FeatureListTableProps } from './feature-list.types';
import classes from './feature-list.module.css';

dayjs.extend(relativeTime);

/*
 * What a feature's row (feature-list-table.tsx) and its card on a phone (feature-cards.tsx) both show:
 * its switch, its tags and its last change.
 */

/** Rows (or cards) that stand in while the first page loads. */
export const SKELETON_ROWS = 6;

/** Tags shown as badges before the rest is counted ("+2"), the whole list on hover. */
const SHOWN_TAGS = 3;

/**
 * A feature's tags as badges that wrap within the cell, each cut at the cell's width; past three, "+N"
 * with every tag on hover.
 */
export function FeatureTags({ tags }: { tags: readonly string[] }) {
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
export function LastChanged({ date, size = 'sm' }: { date: string; size?: 'xs' | 'sm' }) {
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

/** The switch of a feature's row or card, or a dash when the feature has no control in the environment. */
export function FeatureSwitch({
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
