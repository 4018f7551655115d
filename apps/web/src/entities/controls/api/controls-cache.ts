import type { QueryClient, QueryKey } from '@tanstack/react-query';
import type { Feature, FeatureControl } from '@vexil/core';
import { featureKeys } from '../../features/api/query-keys';
import { invalidateFeatures } from '../../features/api/features-cache';
import { isFeaturePage, type FeaturePage } from '../../features/api/get-environment-features';
import { targetKeys } from '../../targets/api/query-keys';

/** What the environment feature lists held before an optimistic change, to put back on failure. */
export type ControlSnapshot = [QueryKey, unknown][];

/** The page with the control `id` changed by `change`; the same page when it does not hold it. */
function withControl(
  page: FeaturePage,
  id: string,
  change: (control: FeatureControl) => FeatureControl,
): FeaturePage {
  let changed = false;
  const content = page.content.map((feature): Feature => {
    const entry = Object.entries(feature.controls).find(([, control]) => control.id === id);
    if (!entry) return feature;
    changed = true;
    const [environmentKey, control] = entry;
    return { ...feature, controls: { ...feature.controls, [environmentKey]: change(control) } };
  });
  return changed ? { ...page, content } : page;
}

/** Applies `change` to the control `id` in every cached environment feature page. */
export function changeCachedControl(
  queryClient: QueryClient,
  id: string,
  change: (control: FeatureControl) => FeatureControl,
): void {
  queryClient.setQueriesData({ queryKey: featureKeys.environments() }, (data: unknown) =>
    isFeaturePage(data) ? withControl(data, id, change) : data,
  );
}

/**
 * Stops the environment feature lists' fetches (an answer from before the change must not overwrite
 * it) and returns what they hold, before an optimistic change.
 */
export async function snapshotControls(queryClient: QueryClient): Promise<ControlSnapshot> {
  await queryClient.cancelQueries({ queryKey: featureKeys.environments() });
  return queryClient.getQueriesData({ queryKey: featureKeys.environments() });
}

/** Puts the environment feature lists back as they were before an optimistic change. */
export function restoreControls(queryClient: QueryClient, snapshot: ControlSnapshot | undefined): void {
  for (const [queryKey, data] of snapshot ?? []) queryClient.setQueryData(queryKey, data);
}

/**
 * After a control write, or a refused one: every features query (lists and pages show controls), every
 * feature's audit log, and the value suggestions, which include the values the rules use.
 */
export function controlChanged(queryClient: QueryClient): Promise<unknown> {
  return Promise.all([
    invalidateFeatures(queryClient),
    queryClient.invalidateQueries({ queryKey: targetKeys.values() }),
  ]);
}
