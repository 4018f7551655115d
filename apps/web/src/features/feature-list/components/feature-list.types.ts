import type { FeatureListSortColumn, HomeFeature, Principal, SortDirection } from '@vexil/core';
import type { ToggleEnvironment } from './feature-toggle';

/** The column the server sorts by and which way. */
export type Sort = { by: FeatureListSortColumn; direction: SortDirection };

export type FeatureListTableProps = {
  /** null while the first page loads: skeleton rows stand in. */
  features: HomeFeature[] | null;
  environment: ToggleEnvironment & { key: string };
  user: Principal;
  /** The project of the list, for the features' pages. */
  projectKey: string;
  /** The rows shown are the previous page's while the next one loads. */
  stale: boolean;
  /** Flag `tags`: the Tags column and the cards' tags. */
  showTags: boolean;
  sort: Sort;
  onSort: (column: FeatureListSortColumn) => void;
};

export type RowProps = { feature: HomeFeature } & Pick<
  FeatureListTableProps,
  'environment' | 'user' | 'projectKey' | 'showTags'
>;
