import { useCallback, useEffect, useEffectEvent, useMemo, useState } from 'react';
import { Button, Stack, Text } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate, useSearchParams } from 'react-router';
import { openApiKeysModal } from '../../../components/api-keys-modal';
import { closeModal } from '../../../lib/modals';
import { notifyError } from '../../../lib/notify';
import { useSession } from '../../../lib/session';
import {
  FEATURE_LIST_SORT_COLUMNS,
  FEATURE_PAGE_SIZES,
  FEATURE_STATE_FILTERS,
  SORT_DIRECTIONS,
  TARGETING_STATUSES,
  defaultSortDirection,
  denialOf,
  isOrganisationAdmin,
  type Environment,
  type FeatureListSortColumn,
} from '@vexil/core';
import { environmentQueryOptions } from '../../../entities/environments/api/get-environment';
import { useRotateEnvironmentKey } from '../../../entities/environments/api/rotate-environment-key';
import {
  useEnvironmentFeatures,
  type FeatureListFilters,
  type FeaturePageSize,
} from '../../../entities/features/api/get-environment-features';
import { useFlag } from '../../../lib/flags';
import { usePlanLimit } from '../../../entities/billing/hooks/use-plan-limit';
import { FeatureListFilterBar, activeFilterCount } from './feature-list-filters';
import { FeatureListHeader, NewFeatureButton } from './feature-list-header';
import { FeatureListPaging } from './feature-list-paging';
import { FeatureListTable, type Sort } from './feature-list-table';
import { openFeatureSummaryModal } from './feature-summary-modal';
import { openNewFeatureModal } from './new-feature-modal';
import { errorReason, LoadError } from '../../../components/load-error';
import { EmptyState } from '../../../components/empty-state';
import { featureDetailPath } from '../../../lib/paths';

/** docs/product.md §2: the search is sent ~250 ms after the last keystroke. */
export const SEARCH_DEBOUNCE_MS = 250;

export type FeatureListProps = {
  project: {
    key: string;
    name: string;
    /** The project's id, so that a custom role limited to some projects applies. */
    id?: string;
  };
  environment: {
    key: string;
    name: string;
    color: string;
    production: boolean;
    tags: string[];
  };
};

type AddressName =
  'q' | 'page' | 'size' | 'key' | 'tag' | 'state' | 'stale' | 'targeting' | 'sortBy' | 'sortDirection';
/** A new value per name; null (or '' or []) removes it. `tag` takes one value per tag. */
type AddressChange = Partial<Record<AddressName, string | string[] | null>>;

function oneOf<T extends string>(values: readonly T[], value: string | null): value is T {
  return (values as readonly (string | null)[]).includes(value);
}

/** docs/product.md §2: the list starts sorted by name, A to Z. */
export const DEFAULT_SORT: Sort = { by: 'name', direction: defaultSortDirection('name') };

/**
 * The list's state in the address, so that it survives a reload and can be shared: `q` (search),
 * `page` (from 1), `size` (50, 100 or 500), `key` (the feature whose detail modal is open), the
 * filters `tag` (once per tag), `state` (on, off), `stale` (true) and `targeting` (off, targeted,
 * single), and the sort `sortBy` (name, key, lastChanged) with `sortDirection` (asc, desc). Defaults
 * are left out of the address; anything unreadable is the default.
 */
function readAddress(params: URLSearchParams) {
  const query = (params.get('q') ?? '').trim();
  const size = Number(params.get('size'));
  const pageSize: FeaturePageSize = (FEATURE_PAGE_SIZES as readonly number[]).includes(size)
    ? (size as FeaturePageSize)
    : FEATURE_PAGE_SIZES[0];
  const requestedPage = Number(params.get('page'));
  const page = Number.isInteger(requestedPage) && requestedPage >= 1 ? requestedPage : 1;
  const featureKey = params.get('key') || null;
  const state = params.get('state');
  const targeting = params.get('targeting');
  const filters: FeatureListFilters = {
    tags: [...new Set(params.getAll('tag').filter(Boolean))],
    state: oneOf(FEATURE_STATE_FILTERS, state) ? state : null,
    stale: params.get('stale') === 'true',
    targeting: oneOf(TARGETING_STATUSES, targeting) ? targeting : null,
  };
  const by = params.get('sortBy');
  const direction = params.get('sortDirection');
  const sort: Sort = oneOf(FEATURE_LIST_SORT_COLUMNS, by)
    ? { by, direction: oneOf(SORT_DIRECTIONS, direction) ? direction : defaultSortDirection(by) }
    : DEFAULT_SORT;
  return { query, page, pageSize, featureKey, filters, sort };
}

/**
 * {@link readAddress} and a way to change it. Both keep their identity while the address does, so
 * that typing in the search box re-renders neither the filters nor the rows.
 */
function useListAddress() {
  const [params, setParams] = useSearchParams();
  const view = useMemo(() => readAddress(params), [params]);
  const update = useCallback(
    (change: AddressChange, options: { replace?: boolean } = {}) =>
      setParams(
        (previous) => {
          const next = new URLSearchParams(previous);
          for (const [name, value] of Object.entries(change)) {
            next.delete(name);
            for (const one of Array.isArray(value) ? value : [value]) {
              if (one !== null && one !== undefined && one !== '') next.append(name, one);
            }
          }
          return next;
        },
        { replace: options.replace ?? false },
      ),
    [setParams],
  );
  return { ...view, update };
}

/** The address of a filter change: the filters given, from the first page. */
function filterChange(change: Partial<FeatureListFilters>): AddressChange {
  return {
    page: null,
    ...(change.tags !== undefined ? { tag: change.tags } : {}),
    ...(change.state !== undefined ? { state: change.state } : {}),
    ...(change.stale !== undefined ? { stale: change.stale ? 'true' : null } : {}),
    ...(change.targeting !== undefined ? { targeting: change.targeting } : {}),
  };
}

const NO_FILTERS: AddressChange = { tag: null, state: null, stale: null, targeting: null, page: null };

/**
 * docs/product.md §2 "Feature list": an environment's features, searchable, filtered, sorted and paged
 * on the server, each with its on/off switch, status, tags and last change; New Feature, the
 * environment's Api keys, and the detail modal of `?key=`.
 */
export function FeatureList({ project, environment }: FeatureListProps) {
  const { principalUser: user } = useSession();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const rotateKey = useRotateEnvironmentKey();
  const showTags = useFlag('tags');
  const address = useListAddress();
  const { query, page, pageSize, featureKey, sort, update } = address;
  // Without the tags flag no tag filter shows, so none applies.
  const filters = useMemo(
    () => (showTags ? address.filters : { ...address.filters, tags: [] }),
    [showTags, address.filters],
  );
  const filtered = activeFilterCount(filters) > 0;
  const sortColumn = useCallback(
    (column: FeatureListSortColumn) =>
      update(
        {
          sortBy: column,
          sortDirection:
            sort.by === column ? (sort.direction === 'asc' ? 'desc' : 'asc') : defaultSortDirection(column),
          page: null,
        },
        { replace: true },
      ),
    [update, sort],
  );
  const changeFilters = useCallback(
    (change: Partial<FeatureListFilters>) => update(filterChange(change), { replace: true }),
    [update],
  );
  const clearFilters = useCallback(() => update(NO_FILTERS, { replace: true }), [update]);

  // The box shows what is typed; the address (and so the request) follows 250 ms later. Going back to
  // an address with another search puts that search in the box.
  const [search, setSearch] = useState(query);
  const [addressQuery, setAddressQuery] = useState(query);
  if (addressQuery !== query) {
    setAddressQuery(query);
    if (search.trim() !== query) setSearch(query);
  }
  const applySearch = useDebouncedCallback(
    (text: string) => address.update({ q: text.trim() || null, page: null }, { replace: true }),
    SEARCH_DEBOUNCE_MS,
  );

  const list = useEnvironmentFeatures({
    projectKey: project.key,
    environmentKey: environment.key,
    query,
    page: page - 1,
    pageSize,
    sortBy: sort.by,
    sortDirection: sort.direction,
    ...filters,
  });
  const data = list.data;
  const totalElements = data ? (data.totalElements ?? data.page * data.pageSize + data.content.length) : 0;
  const pastTheEnd = Boolean(
    data && !list.isPlaceholderData && data.content.length === 0 && totalElements > 0,
  );

  // An address past the last page (features were deleted, or an old link) goes to the first page.
  const goToFirstPage = useEffectEvent(() => address.update({ page: null }, { replace: true }));
  useEffect(() => {
    if (pastTheEnd) goToFirstPage();
  }, [pastTheEnd]);

  // `?key=` opens the feature's detail modal; closing it removes `key`. When the page goes (e.g. "Open
  // feature" navigates away), the modal is closed without touching the address.
  const clearFeatureKey = useEffectEvent(() => address.update({ key: null }, { replace: true }));
  useEffect(() => {
    if (!featureKey) return;
    let closedByPage = false;
    const id = openFeatureSummaryModal({
      projectKey: project.key,
      environment: { key: environment.key, name: environment.name },
      featureKey,
      featurePath: featureDetailPath(project.key, environment.key, featureKey),
      onClose: () => {
        if (!closedByPage) clearFeatureKey();
      },
    });
    return () => {
      closedByPage = true;
      closeModal(id);
    };
  }, [featureKey, project.key, environment.key, environment.name]);

  const createDenial = denialOf(user, 'create', { type: 'feature', projectId: project.id })?.message ?? null;
  // docs/product.md §6/§8: with the billing flag on, the plan's maxFeatures (the server refuses too).
  const featureLimit = usePlanLimit('maxFeatures').message;
  const newFeature = () =>
    openNewFeatureModal({
      projectKey: project.key,
      onCreated: (feature) => void navigate(featureDetailPath(project.key, environment.key, feature.key)),
    });

  const [loadingKeys, setLoadingKeys] = useState(false);
  const apiKeys = async () => {
    setLoadingKeys(true);
    let withKeys: Environment;
    try {
      withKeys = await queryClient.fetchQuery(environmentQueryOptions(project.key, environment.key));
    } catch (error) {
      notifyError(`We could not load the Api keys of ${environment.name}. ${errorReason(error)}`.trim());
      return;
    } finally {
      setLoadingKeys(false);
    }
    openApiKeysModal({
      environment: withKeys,
      // Rotation is for organisation admins only (the server refuses anyone else).
      onRotate: isOrganisationAdmin(user)
        ? (kind) => rotateKey.mutateAsync({ id: withKeys.id, kind })
        : undefined,
    });
  };

  let body: React.ReactNode;
  if (list.isError && !data) {
    body = (
      <LoadError
        title="We could not load the features."
        error={list.error}
        retrying={list.isFetching}
        onRetry={() => void list.refetch()}
      />
    );
  } else if (data && totalElements === 0 && !list.isPlaceholderData) {
    const clearSearch = () => {
      applySearch.cancel();
      setSearch('');
    };
    body = filtered ? (
      <EmptyState>
        <Text c="dimmed">No feature matches these filters{query ? ` and “${query}”` : ''}.</Text>
        <Button
          variant="default"
          onClick={() => {
            clearSearch();
            address.update({ ...NO_FILTERS, q: null }, { replace: true });
          }}
        >
          Clear filters
        </Button>
      </EmptyState>
    ) : query ? (
      <EmptyState>
        <Text c="dimmed">No features match “{query}”.</Text>
        <Button
          variant="default"
          onClick={() => {
            clearSearch();
            address.update({ q: null, page: null }, { replace: true });
          }}
        >
          Clear search
        </Button>
      </EmptyState>
    ) : (
      <EmptyState>
        <Text c="dimmed">No features yet. Create one to get started.</Text>
        <NewFeatureButton denial={createDenial} limit={featureLimit} onClick={newFeature} />
      </EmptyState>
    );
  } else {
    body = (
      <Stack gap="sm">
        <FeatureListTable
          features={data ? data.content : null}
          environment={{ ...environment, projectId: project.id }}
          user={user}
          projectKey={project.key}
          stale={list.isPlaceholderData}
          showTags={showTags}
          sort={sort}
          onSort={sortColumn}
        />
        {data && data.content.length > 0 ? (
          <FeatureListPaging
            page={page}
            pageSize={pageSize}
            totalElements={totalElements}
            shown={data.content.length}
            onPage={(next) => {
              address.update({ page: next === 1 ? null : String(next) });
              // A new page starts at its first row, not where the old one was scrolled to.
              window.scrollTo({ top: 0 });
            }}
            onPageSize={(size) =>
              address.update({ size: size === FEATURE_PAGE_SIZES[0] ? null : String(size), page: null })
            }
          />
        ) : null}
      </Stack>
    );
  }

  return (
    <Stack gap="lg">
      <FeatureListHeader
        projectName={project.name}
        environment={environment}
        search={search}
        onSearch={(text) => {
          setSearch(text);
          applySearch(text);
        }}
        createDenial={createDenial}
        featureLimit={featureLimit}
        onNewFeature={newFeature}
        onApiKeys={() => void apiKeys()}
        apiKeysLoading={loadingKeys}
      />
      <FeatureListFilterBar
        projectKey={project.key}
        filters={filters}
        showTags={showTags}
        onChange={changeFilters}
        onClear={clearFilters}
      />
      {body}
    </Stack>
  );
}
