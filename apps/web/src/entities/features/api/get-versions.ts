import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { apiClient } from '../../../lib/api-client';
import {
  versionDiffSchema,
  versionPageSchema,
  versionSchema,
  type Version,
  type VersionDiff,
  type VersionPage,
  type VersionSummary,
} from '@vexil/core';
import { featureKeys } from './query-keys';

/** How many versions one page of a feature's history loads. */
export const HISTORY_PAGE_SIZE = 20;

/**
 * Whose versions: the feature's settings (`environmentKey` null) or its control in one environment
 * (docs/adr/0022-versions.md).
 */
export type VersionedPart = { projectKey: string; featureKey: string; environmentKey: string | null };

function versionsPath({ projectKey, featureKey }: VersionedPart, rest = ''): string {
  return `/api/v1/projects/${encodeURIComponent(projectKey)}/features/${encodeURIComponent(featureKey)}/versions${rest}`;
}

function environmentQuery({ environmentKey }: VersionedPart) {
  return environmentKey === null ? {} : { environmentKey };
}

/** GET …/versions?environmentKey=&page=&pageSize=: one page of versions, newest first, without snapshots. */
export function getVersions(part: VersionedPart, page: number, signal?: AbortSignal): Promise<VersionPage> {
  return apiClient.get(versionsPath(part), {
    schema: versionPageSchema,
    query: { ...environmentQuery(part), page, pageSize: HISTORY_PAGE_SIZE },
    notifyErrors: false,
    signal,
  });
}

/** GET …/versions/{number}: one version with its snapshot. */
export function getVersion(part: VersionedPart, number: number, signal?: AbortSignal): Promise<Version> {
  return apiClient.get(versionsPath(part, `/${number}`), {
    schema: versionSchema,
    query: environmentQuery(part),
    notifyErrors: false,
    signal,
  });
}

/** GET …/versions/{a}/diff/{b}: what turns version a into version b, as a JSON Patch and as sentences. */
export function getVersionDiff(
  part: VersionedPart,
  a: number,
  b: number,
  signal?: AbortSignal,
): Promise<VersionDiff> {
  return apiClient.get(versionsPath(part, `/${a}/diff/${b}`), {
    schema: versionDiffSchema,
    query: environmentQuery(part),
    notifyErrors: false,
    signal,
  });
}

export const versionsQueryOptions = (part: VersionedPart) =>
  infiniteQueryOptions({
    queryKey: featureKeys.versions(part.projectKey, part.featureKey, part.environmentKey),
    queryFn: ({ pageParam, signal }) => getVersions(part, pageParam, signal),
    initialPageParam: 0,
    getNextPageParam: (last: VersionPage, pages: VersionPage[]) => (last.last ? undefined : pages.length),
  });

/** One version of one part of a feature, as a history entry shows it. */
export type HistoryEntry = VersionSummary & { part: VersionedPart };

/**
 * The feature's history as one timeline, newest first: its settings' versions and its control's in
 * `environmentKey`, each loaded a page at a time. Only entries newer than the oldest one loaded of a
 * part with more to load are shown, so that "Load more" never slips an older entry above a newer one.
 */
export function useFeatureHistory(projectKey: string, featureKey: string, environmentKey: string) {
  const settings = useInfiniteQuery(versionsQueryOptions({ projectKey, featureKey, environmentKey: null }));
  const control = useInfiniteQuery(versionsQueryOptions({ projectKey, featureKey, environmentKey }));
  const entries = useMemo(() => {
    const parts = [
      { query: settings, part: { projectKey, featureKey, environmentKey: null } },
      { query: control, part: { projectKey, featureKey, environmentKey } },
    ];
    const loaded = parts.map(({ query, part }) => ({
      more: query.hasNextPage,
      items: (query.data?.pages ?? []).flatMap((page) =>
        page.content.map((version): HistoryEntry => ({ ...version, part })),
      ),
    }));
    const cutoffs = loaded
      .filter((part) => part.more && part.items.length > 0)
      .map((part) => part.items[part.items.length - 1]!.createdDate);
    const cutoff = cutoffs.length > 0 ? cutoffs.reduce((a, b) => (a > b ? a : b)) : null;
    return loaded
      .flatMap((part) => part.items)
      .filter((entry) => cutoff === null || entry.createdDate >= cutoff)
      .sort((a, b) => b.createdDate.localeCompare(a.createdDate) || b.number - a.number);
  }, [settings, control, projectKey, featureKey, environmentKey]);

  return {
    entries,
    /** The newest version of each part: what a restore names as current. */
    newest: {
      settings: settings.data?.pages[0]?.content[0]?.number ?? null,
      control: control.data?.pages[0]?.content[0]?.number ?? null,
    },
    isPending: settings.isPending || control.isPending,
    error: settings.error ?? control.error,
    hasMore: settings.hasNextPage || control.hasNextPage,
    isLoadingMore: settings.isFetchingNextPage || control.isFetchingNextPage,
    loadMore: () => {
      if (settings.hasNextPage) void settings.fetchNextPage();
      if (control.hasNextPage) void control.fetchNextPage();
    },
    refetch: () => Promise.all([settings.refetch(), control.refetch()]),
  };
}

/** Two versions of one part, with the diff between them (both loaded with their snapshots). */
export function useVersionComparison(part: VersionedPart, a: number | null, b: number | null) {
  const enabled = a !== null && b !== null;
  const from = useQuery(
    queryOptions({
      queryKey: [...featureKeys.versions(part.projectKey, part.featureKey, part.environmentKey), 'one', a],
      queryFn: ({ signal }) => getVersion(part, a!, signal),
      enabled,
      staleTime: Infinity,
    }),
  );
  const to = useQuery(
    queryOptions({
      queryKey: [...featureKeys.versions(part.projectKey, part.featureKey, part.environmentKey), 'one', b],
      queryFn: ({ signal }) => getVersion(part, b!, signal),
      enabled,
      staleTime: Infinity,
    }),
  );
  const diff = useQuery(
    queryOptions({
      queryKey: featureKeys.versionDiff(
        part.projectKey,
        part.featureKey,
        part.environmentKey,
        a ?? 0,
        b ?? 0,
      ),
      queryFn: ({ signal }) => getVersionDiff(part, a!, b!, signal),
      enabled,
      staleTime: Infinity,
    }),
  );
  return { from, to, diff };
}
