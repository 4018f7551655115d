import { useEffect, useEffectEvent, useState } from 'react';
import { Button, Stack, Text } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate, useSearchParams } from 'react-router';
import { openApiKeysModal } from '../../../components/api-keys-modal';
import { closeModal } from '../../../lib/modals';
import { notifyError } from '../../../lib/notify';
import { useSession } from '../../../lib/session';
import { FEATURE_PAGE_SIZES, denialOf, isOrganisationAdmin, type Environment } from '@vexil/core';
import { environmentQueryOptions } from '../../../entities/environments/api/get-environment';
import { useRotateEnvironmentKey } from '../../../entities/environments/api/rotate-environment-key';
import {
  useEnvironmentFeatures,
  type FeaturePageSize,
} from '../../../entities/features/api/get-environment-features';
import { FeatureListHeader, NewFeatureButton } from './feature-list-header';
import { FeatureListPaging } from './feature-list-paging';
import { FeatureListTable } from './feature-list-table';
import { openFeatureSummaryModal } from './feature-summary-modal';
import { openNewFeatureModal } from './new-feature-modal';
import { errorReason, LoadError } from '../../../components/load-error';
import { EmptyState } from '../../../components/empty-state';
import { featureDetailPath } from '../../../lib/paths';

/** docs/product.md §2: the search is sent ~250 ms after the last keystroke. */
export const SEARCH_DEBOUNCE_MS = 250;

export type FeatureListProps = {
  project: { key: string; name: string };
  environment: {
    key: string;
    name: string;
    color: string;
    production: boolean;
    tags: string[];
  };
};

type AddressChange = Partial<Record<'q' | 'page' | 'size' | 'key', string | null>>;

/**
 * The list's state in the address, so that it survives a reload and can be shared: `q` (search),
 * `page` (from 1), `size` (50, 100 or 500) and `key` (the feature whose detail modal is open). Defaults
 * are left out of the address.
 */
function useListAddress() {
  const [params, setParams] = useSearchParams();
  const query = (params.get('q') ?? '').trim();
  const size = Number(params.get('size'));
  const pageSize: FeaturePageSize = (FEATURE_PAGE_SIZES as readonly number[]).includes(size)
    ? (size as FeaturePageSize)
    : FEATURE_PAGE_SIZES[0];
  const requestedPage = Number(params.get('page'));
  const page = Number.isInteger(requestedPage) && requestedPage >= 1 ? requestedPage : 1;
  const featureKey = params.get('key') || null;

  const update = (change: AddressChange, options: { replace?: boolean } = {}) =>
    setParams(
      (previous) => {
        const next = new URLSearchParams(previous);
        for (const [name, value] of Object.entries(change)) {
          if (value === null || value === undefined || value === '') next.delete(name);
          else next.set(name, value);
        }
        return next;
      },
      { replace: options.replace ?? false },
    );

  return { query, page, pageSize, featureKey, update };
}

/**
 * docs/product.md §2 "Feature list": an environment's features, searchable and paged, each with its on/off switch
 * and status; New Feature, the environment's Api keys, and the detail modal of `?key=`.
 */
export function FeatureList({ project, environment }: FeatureListProps) {
  const { principalUser: user } = useSession();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const rotateKey = useRotateEnvironmentKey();
  const address = useListAddress();
  const { query, page, pageSize, featureKey } = address;

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

  const createDenial = denialOf(user, 'create', { type: 'feature' })?.message ?? null;
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
    body = query ? (
      <EmptyState>
        <Text c="dimmed">No features match “{query}”.</Text>
        <Button
          variant="default"
          onClick={() => {
            applySearch.cancel();
            setSearch('');
            address.update({ q: null, page: null }, { replace: true });
          }}
        >
          Clear search
        </Button>
      </EmptyState>
    ) : (
      <EmptyState>
        <Text c="dimmed">No features yet. Create one to get started.</Text>
        <NewFeatureButton denial={createDenial} onClick={newFeature} />
      </EmptyState>
    );
  } else {
    body = (
      <Stack gap="sm">
        <FeatureListTable
          features={data ? data.content : null}
          environment={environment}
          user={user}
          projectKey={project.key}
          stale={list.isPlaceholderData}
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
        onNewFeature={newFeature}
        onApiKeys={() => void apiKeys()}
        apiKeysLoading={loadingKeys}
      />
      {body}
    </Stack>
  );
}
