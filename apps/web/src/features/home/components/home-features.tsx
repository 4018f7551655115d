import { lazy, Suspense, useEffect, useId, useState } from 'react';
import { Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useSearchParams } from 'react-router';
import {
  FEATURE_SORT_COLUMNS,
  HOME_FEATURE_FILTERS,
  HOME_FEATURES_PAGE_SIZE,
  SORT_DIRECTIONS,
  defaultSortDirection,
  type HomeFeature,
  type HomeFeatureFilter,
} from '@vexil/core';
import { LoadError } from '../../../components/load-error';
import classes from './home-features.module.css';
import { isApiError } from '../../../lib/api-client';
import { useFlag } from '../../../lib/flags';
import { notifyError } from '../../../lib/notify';
import { useBookmarkFeature } from '../../../entities/features/api/bookmark-feature';
import { useHomeFeatures } from '../../../entities/features/api/get-home-features';
import { DEFAULT_SORT, HomeFeaturesTable, type Sort, type SortColumn } from './home-features-table';

const Pagination = lazy(() =>
  import('../../../components/pager').then((module) => ({ default: module.Pagination })),
);

/** docs/product.md §8 "Bookmark failure", followed by the server's reason. */
export const BOOKMARK_FAILED_MESSAGE = 'We encountered an error, the bookmark was not saved.';
/** docs/product.md §2: what a failed load says, above the reason and a Retry button. */
export const LOAD_FAILED_TITLE = 'We could not load the features.';

/** The text filter asks the server once typing pauses. */
const FILTER_DEBOUNCE_MS = 250;

const FILTER_LABELS: Record<HomeFeatureFilter, string> = {
  recent: 'Recent',
  bookmarked: 'Bookmarked',
  maintaining: 'Maintaining',
};

function oneOf<T extends string>(values: readonly T[], value: string | null): value is T {
  return (values as readonly (string | null)[]).includes(value);
}

function reasonOf(error: unknown): string {
  if (isApiError(error)) return error.title ?? error.detail ?? error.message;
  return error instanceof Error ? error.message : '';
}

/**
 * The sort and the page (from 1) as the address says them, so that a reload or a shared link keeps
 * them: `?sortBy=name&sortDirection=asc&page=2`. Anything unreadable is the default.
 */
function readView(params: URLSearchParams): { sort: Sort; page: number } {
  const by = params.get('sortBy');
  const direction = params.get('sortDirection');
  const sort: Sort = oneOf(FEATURE_SORT_COLUMNS, by)
    ? { by, direction: oneOf(SORT_DIRECTIONS, direction) ? direction : defaultSortDirection(by) }
    : DEFAULT_SORT;
  const page = Number(params.get('page') ?? '1');
  return { sort, page: Number.isInteger(page) && page >= 1 ? page : 1 };
}

/**
 * The home page's Features section (docs/product.md §2): Recent, Bookmarked (flag bookmarked) and
 * Maintaining (flag maintainer) lists chosen by `?filter=` (recent by default), a "Filter Features..."
 * text filter, and a table of 50 a page sorted by last change, newest first, until a header is clicked.
 * Filtering, sorting and paging are the server's; the list, sort and page live in the address.
 */
export function HomeFeatures() {
  const headingId = useId();
  const bookmarkedOn = useFlag('bookmarked');
  const maintainerOn = useFlag('maintainer');
  const [searchParams, setSearchParams] = useSearchParams();
  const [text, setText] = useState('');
  const [query] = useDebouncedValue(text.trim(), FILTER_DEBOUNCE_MS);

  const filters = HOME_FEATURE_FILTERS.filter(
    (filter) => (filter !== 'bookmarked' || bookmarkedOn) && (filter !== 'maintaining' || maintainerOn),
  );
  const requested = searchParams.get('filter');
  const filter: HomeFeatureFilter = oneOf(filters, requested) ? requested : 'recent';
  const { sort, page } = readView(searchParams);

  const list = useHomeFeatures({
    list: filter,
    query,
    page: page - 1,
    sortBy: sort.by,
    sortDirection: sort.direction,
  });
  const bookmark = useBookmarkFeature();

  const total = list.data?.totalElements ?? 0;
  const pages = Math.max(1, Math.ceil(total / HOME_FEATURES_PAGE_SIZE));

  /** Changes the address; any change but the page itself goes back to the first page. */
  const update = (change: (params: URLSearchParams) => void) =>
    setSearchParams(
      (params) => {
        params.delete('page');
        change(params);
        return params;
      },
      { replace: true },
    );

  // A page past the end (the list shrank, or an old link): show the last page instead.
  const pastTheEnd = !list.isPlaceholderData && list.data !== undefined && page > pages;
  useEffect(() => {
    if (pastTheEnd) update((params) => (pages > 1 ? params.set('page', String(pages)) : undefined));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only when the page turns out to be past the end
  }, [pastTheEnd, pages]);

  const chooseFilter = (next: string) => update((params) => params.set('filter', next));

  const filterText = (next: string) => {
    setText(next);
    if (page !== 1) update(() => undefined);
  };

  const sortBy = (column: SortColumn) =>
    update((params) => {
      params.set('sortBy', column);
      params.set(
        'sortDirection',
        sort.by === column ? (sort.direction === 'asc' ? 'desc' : 'asc') : defaultSortDirection(column),
      );
    });

  const goTo = (next: number) =>
    update((params) => (next > 1 ? params.set('page', String(next)) : undefined));

  const toggleBookmark = (feature: HomeFeature) =>
    bookmark.mutate(
      { featureId: feature.id, bookmarked: !feature.bookmarked },
      { onError: (error) => notifyError(`${BOOKMARK_FAILED_MESSAGE} ${reasonOf(error)}`.trim()) },
    );

  const first = (page - 1) * HOME_FEATURES_PAGE_SIZE + 1;
  const shown = list.data?.content.length ?? 0;

  return (
    <section aria-labelledby={headingId}>
      <Stack gap="md">
        <Group justify="space-between" align="flex-end" gap="md">
          <Title order={2} size="h3" id={headingId}>
            Features
          </Title>
          <Group gap="sm" align="center" wrap="wrap">
            {filters.length > 1 ? (
              <div role="radiogroup" aria-label="Feature list" className={classes.segments}>
                {filters.map((value) => (
                  <label key={value} className={classes.segment}>
                    <input
                      type="radio"
                      name={`${headingId}-list`}
                      value={value}
                      checked={filter === value}
                      onChange={() => chooseFilter(value)}
                      className={classes.segmentInput}
                    />
                    {FILTER_LABELS[value]}
                  </label>
                ))}
              </div>
            ) : null}
            <TextInput
              aria-label="Filter Features..."
              placeholder="Filter Features..."
              leftSection={<IconSearch size={16} aria-hidden="true" />}
              value={text}
              onChange={(event) => filterText(event.currentTarget.value)}
              w={{ base: '100%', xs: 260 }}
            />
          </Group>
        </Group>
        {list.isError && !list.data ? (
          <LoadError
            title={LOAD_FAILED_TITLE}
            error={list.error}
            retrying={list.isFetching}
            onRetry={() => void list.refetch()}
          />
        ) : (
          <>
            <HomeFeaturesTable
              features={list.data?.content ?? null}
              sort={sort}
              onSort={sortBy}
              onToggleBookmark={bookmarkedOn ? toggleBookmark : undefined}
              stale={list.isPlaceholderData}
            />
            {shown > 0 ? (
              <Group justify="space-between" gap="sm">
                <Text size="sm" c="dimmed" aria-live="polite">
                  {first}–{first + shown - 1} of {total}
                </Text>
                {pages > 1 ? (
                  // Most lists fit one page: the pager is fetched only for those that do not.
                  <Suspense fallback={null}>
                    <Pagination
                      total={pages}
                      value={Math.min(page, pages)}
                      onChange={goTo}
                      size="sm"
                      siblings={1}
                      boundaries={1}
                      getControlProps={(control) => ({
                        'aria-label': control === 'previous' ? 'Previous page' : 'Next page',
                      })}
                      getItemProps={(item) => ({
                        'aria-label': `Page ${item}`,
                        'aria-current': item === page ? 'page' : undefined,
                      })}
                    />
                  </Suspense>
                ) : null}
              </Group>
            ) : null}
          </>
        )}
      </Stack>
    </section>
  );
}
