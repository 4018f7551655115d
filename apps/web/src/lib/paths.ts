import type { FeatureDetailTab } from '@vexil/core';

/*
 * Every dashboard address that code builds. Keys are encoded, so each one stays a single path segment
 * whatever it holds.
 */

const segment = encodeURIComponent;

/** `/projects/{projectKey}/environments/{environmentKey}`: the root of an environment's screens. */
export function environmentPath(projectKey: string, environmentKey: string): string {
  return `/projects/${segment(projectKey)}/environments/${segment(environmentKey)}`;
}

/** One screen of an environment: `features`, `users`, `segments`... */
export function environmentSectionPath(projectKey: string, environmentKey: string, section: string): string {
  return `${environmentPath(projectKey, environmentKey)}/${section}`;
}

/** The feature list of an environment, where choosing an environment leads. */
export function featureListPath(projectKey: string, environmentKey: string): string {
  return environmentSectionPath(projectKey, environmentKey, 'features');
}

/**
 * The detail page of a feature in an environment: on `tab` when given (docs/product.md §2: the tab is in the URL),
 * otherwise on the page's first tab.
 */
export function featureDetailPath(
  projectKey: string,
  environmentKey: string,
  featureKey: string,
  tab?: FeatureDetailTab,
): string {
  const page = `${featureListPath(projectKey, environmentKey)}/${segment(featureKey)}`;
  return tab ? `${page}/${tab}` : page;
}

/** The Experiments page of an environment. */
export function experimentsPath(projectKey: string, environmentKey: string): string {
  return environmentSectionPath(projectKey, environmentKey, 'experiments');
}

/** The statistics page of an experiment in its environment. */
export function experimentStatsPath(
  projectKey: string,
  environmentKey: string,
  experimentId: string,
): string {
  return `${experimentsPath(projectKey, environmentKey)}/${segment(experimentId)}/stats`;
}

/** Which change requests the list shows first: those waiting for the user's review, or their own. */
export type ChangeRequestsView = 'to-review' | 'mine';

/** The change requests page of a project, from one of its environments; `view` preselects a filter. */
export function changeRequestsPath(
  projectKey: string,
  environmentKey: string,
  view?: ChangeRequestsView,
): string {
  const page = environmentSectionPath(projectKey, environmentKey, 'change-requests');
  return view ? `${page}?view=${view}` : page;
}

/** One change request's page, in the environment it changes. */
export function changeRequestPath(projectKey: string, environmentKey: string, id: string): string {
  return `${changeRequestsPath(projectKey, environmentKey)}/${segment(id)}`;
}

/** The Schedule page of a project (docs/adr/0025-scheduler.md), from one of its environments. */
export function schedulePath(projectKey: string, environmentKey: string): string {
  return environmentSectionPath(projectKey, environmentKey, 'schedule');
}

/** `/projects/{projectKey}/features/{featureKey}`, which opens the feature in the first environment. */
export function projectFeaturePath(projectKey: string, featureKey: string): string {
  return `/projects/${segment(projectKey)}/features/${segment(featureKey)}`;
}

/** `/login`, or `/{organisation}/login` for an organisation's own sign-in page. */
export function loginPath(organisation?: string): string {
  return organisation === undefined ? '/login' : `/${segment(organisation)}/login`;
}

/** `/admin/{tab}`, or `/admin/{tab}/{projectKey}` for one project's page of the tab. */
export function adminPath(tab: string, projectKey?: string): string {
  return projectKey === undefined ? `/admin/${tab}` : `/admin/${tab}/${segment(projectKey)}`;
}

/** The Help page (docs/product.md §2 "Help page"). */
export const HELP_PATH = '/help';

/** The server's API reference (its OpenAPI pages), outside the dashboard's routes. */
export const API_REFERENCE_PATH = '/api/docs';

/** Admin › Integrations, connecting Jira (the page asks the server for its one-time token). */
export const JIRA_CONNECT_PATH = '/admin/integrations/jira/connect';

/** Admin › Integrations, one Jira connection's settings. */
export function jiraIntegrationPath(id: string): string {
  return `/admin/integrations/jira/${segment(id)}`;
}
