import type { ChangeRequestListQuery } from '@vexil/core';

/** What the change requests list is asked for (`page` counts from 0, as the API does). */
export type ChangeRequestListParams = { projectKey: string } & Partial<
  Omit<ChangeRequestListQuery, 'page'>
> & {
    page: number;
  };

/**
 * The change requests domain's cache keys. Every change requests query starts with `all`; the lists and
 * the waiting count refresh after any action on a request, whose own answer replaces its cached copy.
 */
export const changeRequestKeys = {
  all: ['change-requests'] as const,
  /** Every list, of every project and filter. */
  lists: () => [...changeRequestKeys.all, 'list'] as const,
  list: ({ projectKey, ...filters }: ChangeRequestListParams) =>
    [...changeRequestKeys.lists(), projectKey, filters] as const,
  /** One request, with its changes, timeline and buttons. */
  detail: (projectKey: string, id: string) => [...changeRequestKeys.all, 'detail', projectKey, id] as const,
  /** How many requests wait for the caller's review, across the organisation. */
  waiting: () => [...changeRequestKeys.all, 'waiting'] as const,
  /** One environment's approval settings. */
  approvalSettings: (projectKey: string, environmentKey: string) =>
    ['approval-settings', projectKey, environmentKey] as const,
  /** Whether an environment asks for change requests, as the caller sees it (with their draft). */
  policy: (projectKey: string, environmentKey: string) =>
    [...changeRequestKeys.all, 'policy', projectKey, environmentKey] as const,
};
