import { useId, useMemo, useState } from 'react';
import { Alert, Button, Group, SegmentedControl, Stack, TextInput, Title } from '@mantine/core';
import { IconAlertCircle, IconRefresh, IconSearch } from '@tabler/icons-react';
import { useSearchParams } from 'react-router';
import { HOME_FEATURE_FILTERS, type Feature, type HomeFeatureFilter } from '@vexil/core';
import { isApiError } from '../../../lib/api-client';
import { useFlag } from '../../../lib/flags';
import { notifyError } from '../../../lib/notify';
import { useBookmarkFeature } from '../../../entities/features/api/bookmark-feature';
import { useHomeFeatures } from '../../../entities/features/api/get-home-features';
import {
  DEFAULT_SORT,
  filterFeatures,
  HomeFeaturesTable,
  sortFeatures,
  type Sort,
  type SortColumn,
} from './home-features-table';

/** docs/product.md §8 "Bookmark failure", followed by the server's reason. */
export const BOOKMARK_FAILED_MESSAGE = 'We encountered an error, the bookmark was not saved.';

const FILTER_LABELS: Record<HomeFeatureFilter, string> = {
  recent: 'Recent',
  bookmarked: 'Bookmarked',
  maintaining: 'Maintaining',
};

function isHomeFeatureFilter(value: string | null): value is HomeFeatureFilter {
  return (HOME_FEATURE_FILTERS as readonly (string | null)[]).includes(value);
}

function reasonOf(error: unknown): string {
  if (isApiError(error)) return error.title ?? error.detail ?? error.message;
  return error instanceof Error ? error.message : '';
}

/**
 * The home page's Features section (docs/product.md §2): Recent, Bookmarked (flag bookmarked) and Maintaining (flag
 * maintainer) lists chosen by `?filter=` (recent by default), a "Filter Features..." text filter over the
 * loaded list, and a table sorted by name until a header is clicked.
 */
export function HomeFeatures() {
  const headingId = useId();
  const bookmarkedOn = useFlag('bookmarked');
  const maintainerOn = useFlag('maintainer');
  const [searchParams, setSearchParams] = useSearchParams();
  const [text, setText] = useState('');
  const [sort, setSort] = useState<Sort>(DEFAULT_SORT);

  const filters = HOME_FEATURE_FILTERS.filter(
    (filter) => (filter !== 'bookmarked' || bookmarkedOn) && (filter !== 'maintaining' || maintainerOn),
  );
  const requested = searchParams.get('filter');
  const filter: HomeFeatureFilter =
    isHomeFeatureFilter(requested) && filters.includes(requested) ? requested : 'recent';

  const list = useHomeFeatures(filter);
  const bookmark = useBookmarkFeature();

  const rows = useMemo(
    () => (list.data ? sortFeatures(filterFeatures(list.data, text), sort) : null),
    [list.data, text, sort],
  );

  const chooseFilter = (next: string) => {
    setSearchParams(
      (params) => {
        params.set('filter', next);
        return params;
      },
      { replace: true },
    );
  };

  const sortBy = (column: SortColumn) =>
    setSort((current) =>
      current.by === column
        ? { by: column, direction: current.direction === 'asc' ? 'desc' : 'asc' }
        : { by: column, direction: 'asc' },
    );

  const toggleBookmark = (feature: Feature) =>
    bookmark.mutate(
      { featureId: feature.id, bookmarked: !feature.bookmarked },
      { onError: (error) => notifyError(`${BOOKMARK_FAILED_MESSAGE} ${reasonOf(error)}`.trim()) },
    );

  return (
    <section aria-labelledby={headingId}>
      <Stack gap="md">
        <Group justify="space-between" align="flex-end" gap="md">
          <Title order={2} size="h3" id={headingId}>
            Features
          </Title>
          <Group gap="sm" align="center" wrap="wrap">
            {filters.length > 1 ? (
              <SegmentedControl
                aria-label="Feature list"
                data={filters.map((value) => ({ value, label: FILTER_LABELS[value] }))}
                value={filter}
                onChange={chooseFilter}
              />
            ) : null}
            <TextInput
              aria-label="Filter Features..."
              placeholder="Filter Features..."
              leftSection={<IconSearch size={16} aria-hidden="true" />}
              value={text}
              onChange={(event) => setText(event.currentTarget.value)}
              w={{ base: '100%', xs: 260 }}
            />
          </Group>
        </Group>
        {list.isError && !list.data ? (
          <Alert
            color="red"
            variant="light"
            icon={<IconAlertCircle size={18} aria-hidden="true" />}
            title="We could not load the features."
            role="alert"
          >
            <Stack gap="sm" align="flex-start">
              {reasonOf(list.error)}
              <Button
                size="xs"
                variant="default"
                leftSection={<IconRefresh size={14} aria-hidden="true" />}
                loading={list.isFetching}
                onClick={() => void list.refetch()}
              >
                Retry
              </Button>
            </Stack>
          </Alert>
        ) : (
          <HomeFeaturesTable
            features={rows}
            sort={sort}
            onSort={sortBy}
            onToggleBookmark={bookmarkedOn ? toggleBookmark : undefined}
            stale={list.isPlaceholderData}
          />
        )}
      </Stack>
    </section>
  );
}
