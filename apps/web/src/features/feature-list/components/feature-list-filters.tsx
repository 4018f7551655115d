import { memo, useId, useState } from 'react';
import {
  Badge,
  Button,
  Chip,
  Collapse,
  Input,
  MultiSelect,
  SegmentedControl,
  Select,
  Stack,
  Tooltip,
} from '@mantine/core';
import { IconAdjustmentsHorizontal, IconX } from '@tabler/icons-react';
import { STALE_AFTER_DAYS, type TargetingStatus } from '@vexil/core';
import { useTags } from '../../../entities/features/api/get-tags';
import type { FeatureListFilters } from '../../../entities/features/api/get-environment-features';
import { useNarrowScreen } from '../../../lib/narrow-screen';
import classes from './feature-list.module.css';

/** The words the targeting filter offers for each status (the status icons' words, docs/product.md §4). */
const TARGETING_OPTIONS: { value: TargetingStatus; label: string }[] = [
  { value: 'off', label: 'Off' },
  { value: 'targeted', label: 'Targeted' },
  { value: 'single', label: '100% one variant' },
];

const STATE_OPTIONS = [
  { value: 'all', label: 'All' },
  { value: 'on', label: 'On' },
  { value: 'off', label: 'Off' },
];

/** How many filters are set: the tags count as one. */
export function activeFilterCount(filters: FeatureListFilters): number {
  return (
    (filters.tags.length > 0 ? 1 : 0) +
    (filters.state ? 1 : 0) +
    (filters.stale ? 1 : 0) +
    (filters.targeting ? 1 : 0)
  );
}

export type FeatureListFilterBarProps = {
  projectKey: string;
  filters: FeatureListFilters;
  onChange: (change: Partial<FeatureListFilters>) => void;
  onClear: () => void;
  /** Flag `tags`: without it there is no tag filter. */
  showTags: boolean;
};

function TagsFilter({
  projectKey,
  tags,
  onChange,
}: {
  projectKey: string;
  tags: string[];
  onChange: (tags: string[]) => void;
}) {
  const [search, setSearch] = useState('');
  const known = useTags(projectKey);
  // A tag from the address that no feature has any more still shows, so it can be removed.
  const data = [...new Set([...(known.data ?? []), ...tags])].sort();
  return (
    <MultiSelect
      className={classes.tagsFilter}
      label="Tags"
      placeholder={tags.length === 0 ? 'Any tag' : undefined}
      data={data}
      value={tags}
      onChange={onChange}
      searchValue={search}
      onSearchChange={setSearch}
      searchable
      clearable
      hidePickedOptions
      nothingFoundMessage={known.isPending ? 'Loading tags…' : 'No such tag'}
      maxDropdownHeight={260}
      comboboxProps={{ withinPortal: true }}
    />
  );
}

/**
 * The feature list's filters (docs/product.md §2 "Feature list"): tags (features having all of them),
 * on or off, stale (no impression for 7 days or more) and targeting status, with "Clear filters" once
 * one is set. On a phone they fold away behind a Filters button that says how many are set.
 */
export const FeatureListFilterBar = memo(function FeatureListFilterBar({
  projectKey,
  filters,
  onChange,
  onClear,
  showTags,
}: FeatureListFilterBarProps) {
  const stateLabel = useId();
  const narrow = useNarrowScreen();
  const active = activeFilterCount(filters);
  // Folded on a phone, unless the list is already filtered: then what filters it shows.
  const [open, setOpen] = useState(active > 0);
  const panelId = useId();

  const controls = (
    <div className={classes.filters} id={panelId} role="group" aria-label="Filters">
      {showTags ? (
        <TagsFilter projectKey={projectKey} tags={filters.tags} onChange={(tags) => onChange({ tags })} />
      ) : null}
      <Stack gap={4} className={classes.stateFilter}>
        <Input.Label labelElement="div" id={stateLabel}>
          State
        </Input.Label>
        <SegmentedControl
          aria-labelledby={stateLabel}
          data={STATE_OPTIONS}
          value={filters.state ?? 'all'}
          onChange={(value) => onChange({ state: value === 'on' || value === 'off' ? value : null })}
          fullWidth={narrow}
        />
      </Stack>
      <Select
        className={classes.targetingFilter}
        label="Targeting"
        placeholder="Any"
        data={TARGETING_OPTIONS}
        value={filters.targeting}
        onChange={(value) => onChange({ targeting: (value as TargetingStatus | null) ?? null })}
        clearable
        allowDeselect
        comboboxProps={{ withinPortal: true }}
      />
      <Tooltip
        label={`No impressions for ${STALE_AFTER_DAYS} days or more in this environment`}
        withArrow
        openDelay={300}
      >
        <div className={classes.staleFilter}>
          <Chip checked={filters.stale} onChange={(stale) => onChange({ stale })} variant="outline">
            Stale
          </Chip>
        </div>
      </Tooltip>
      {active > 0 ? (
        <Button
          variant="subtle"
          leftSection={<IconX size={14} aria-hidden="true" />}
          onClick={onClear}
          className={classes.clearFilters}
        >
          Clear filters
        </Button>
      ) : null}
    </div>
  );

  if (!narrow) return controls;
  return (
    <Stack gap="xs">
      <Button
        variant="default"
        leftSection={<IconAdjustmentsHorizontal size={16} aria-hidden="true" />}
        rightSection={
          active > 0 ? (
            <Badge size="sm" circle aria-hidden="true">
              {active}
            </Badge>
          ) : null
        }
        aria-expanded={open}
        aria-controls={panelId}
        aria-label={active > 0 ? `Filters (${active} set)` : 'Filters'}
        onClick={() => setOpen((value) => !value)}
        className={classes.filtersToggle}
      >
        Filters
      </Button>
      <Collapse expanded={open}>{controls}</Collapse>
    </Stack>
  );
});
