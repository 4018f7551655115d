import { FEATURE_DETAIL_TABS, type FeatureDetailTab } from '@vexil/core';

/** `/projects/{projectKey}/environments/{environmentKey}/features`: the environment's feature list. */
export function featureListPath(projectKey: string, environmentKey: string): string {
  return `/projects/${encodeURIComponent(projectKey)}/environments/${encodeURIComponent(environmentKey)}/features`;
}

/** The detail page of a feature in an environment, on `tab` (spec §2: the tab is in the URL). */
export function featureDetailPath(
  projectKey: string,
  environmentKey: string,
  featureKey: string,
  tab: FeatureDetailTab,
): string {
  return `${featureListPath(projectKey, environmentKey)}/${encodeURIComponent(featureKey)}/${tab}`;
}

/** The tab an address names: `overview` when it names none (spec §9), `null` when it is not a tab. */
export function tabFromUrl(tab: string | undefined): FeatureDetailTab | null {
  if (tab === undefined || tab === '') return 'overview';
  return (FEATURE_DETAIL_TABS as readonly string[]).includes(tab) ? (tab as FeatureDetailTab) : null;
}
