import type { QueryClient, QueryKey } from '@tanstack/react-query';
import type { Feature, FeatureControl } from '@vexil/core';
import { featureKeys } from '../../features/api/query-keys';
import { invalidateFeatures } from '../../features/api/features-cache';
import { isFeaturePage, type FeaturePage } from '../../features/api/get-environment-features';
import { targetKeys } from '../../targets/api/query-keys';

/** What the feature lists and pages held before an optimistic change, to put back on failure. */
export type ControlSnapshot = [QueryKey, unknown][];

/** The caches that show controls: every environment's feature list and every feature's page. */
const CONTROL_CACHES = [featureKeys.environments(), featureKeys.details()];

/** The feature with the control `id` changed by `change`; the same feature when it does not hold it. */
function featureWithControl<F extends Feature>(
  feature: F,
  id: string,
  change: (control: FeatureControl) => FeatureControl,
): F {
  const entry = Object.entries(feature.controls).find(([, control]) => control.id === id);
  if (!entry) return feature;
  const [environmentKey, control] = entry;
  return { ...feature, controls: { ...feature.controls, [environmentKey]: change(control) } };
}

/** The page with the control `id` changed by `change`; the same page when it does not hold it. */
function withControl(
  page: FeaturePage,
  id: string,
  change: (control: FeatureControl) => FeatureControl,
): FeaturePage {
  const content = page.content.map((feature) => featureWithControl(feature, id, change));
  return content.some((feature, index) => feature !== page.content[index]) ? { ...page, content } : page;
}

function isFeature(data: unknown): data is Feature {
  return typeof data === 'object' && data !== null && typeof (data as Feature).controls === 'object';
}

/**
 * Applies `change` to the control `id` in every cached environment feature page and feature detail, so
 * that the list, the feature page's header and its Overview show the switch where the user left it.
 */
export function changeCachedControl(
  queryClient: QueryClient,
  id: string,
  change: (control: FeatureControl) => FeatureControl,
): void {
  queryClient.setQueriesData({ queryKey: featureKeys.environments() }, (data: unknown) =>
    isFeaturePage(data) ? withControl(data, id, change) : data,
  );
  queryClient.setQueriesData({ queryKey: featureKeys.details() }, (data: unknown) =>
    isFeature(data) ? featureWithControl(data, id, change) : data,
  );
}

/**
 * Stops the fetches of the caches that show controls (an answer from before the change must not
 * overwrite it) and returns what they hold, before an optimistic change.
 */
export async function snapshotControls(queryClient: QueryClient): Promise<ControlSnapshot> {
  await Promise.all(CONTROL_CACHES.map((queryKey) => queryClient.cancelQueries({ queryKey })));
  return CONTROL_CACHES.flatMap((queryKey) => queryClient.getQueriesData({ queryKey }));
}

/** Puts the feature lists and pages back as they were before an optimistic change. */
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
