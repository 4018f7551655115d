import { useMemo } from 'react';
import { useDebouncedValue } from '@mantine/hooks';
import { isOrganisationAdmin, isProductionEnvironment, type Feature, type ProjectSummary } from '@vexil/core';
import {
  environmentToOpen,
  useRememberedEnvironments,
  type RememberedEnvironments,
} from '../../../lib/current-environment';
import { adminPath, featureDetailPath, featureListPath, projectFeaturePath } from '../../../lib/paths';
import { useSession } from '../../../lib/session';
import { useFeatureSearch } from '../api/search-features';

/** The features' search is sent this long after the last keystroke; projects and environments filter at once. */
export const FEATURE_SEARCH_DEBOUNCE_MS = 200;

/** How many results each group shows at most: the rest are a few more letters away. */
export const RESULT_LIMITS = { features: 10, projects: 8, environments: 8 } as const;

/** Before anything is typed: a few projects and environments, the ones worked in first. */
export const EMPTY_QUERY_LIMIT = 5;

export type QuickSearchResultKind = 'feature' | 'project' | 'environment';

export type QuickSearchResult = {
  /** Unique among all results. */
  id: string;
  kind: QuickSearchResultKind;
  name: string;
  key: string;
  /** The project's name, for a feature or an environment. */
  projectName?: string;
  /** An environment's colour. */
  color?: string;
  /** An environment that counts as production. */
  production?: boolean;
  /** Where choosing the result leads. */
  to: string;
};

export type QuickSearchGroups = {
  features: QuickSearchResult[];
  projects: QuickSearchResult[];
  environments: QuickSearchResult[];
};

type Named = { name: string; key: string };

/** Whether the name or the key contains `text` (already lower case), whatever their case. */
function matches(item: Named, text: string): boolean {
  return item.name.toLowerCase().includes(text) || item.key.toLowerCase().includes(text);
}

/** The items whose name or key contains `text`, those starting with it first, otherwise in their order. */
function matching<T>(items: readonly T[], text: string, named: (item: T) => Named): T[] {
  const needle = text.toLowerCase();
  const startsWith = (item: T) => {
    const { name, key } = named(item);
    return name.toLowerCase().startsWith(needle) || key.toLowerCase().startsWith(needle);
  };
  const found = items.filter((item) => matches(named(item), needle));
  return [...found.filter(startsWith), ...found.filter((item) => !startsWith(item))];
}

type EnvironmentOfProject = {
  project: ProjectSummary;
  environment: ProjectSummary['environments'][number];
};

function environmentResult({ project, environment }: EnvironmentOfProject): QuickSearchResult {
  return {
    id: `environment-${environment.id}`,
    kind: 'environment',
    name: environment.name,
    key: environment.key,
    projectName: project.name,
    color: environment.color,
    production: isProductionEnvironment(environment),
    to: featureListPath(project.key, environment.key),
  };
}

/**
 * A feature opens on its page in the environment of its project that the rest of the dashboard would
 * open (docs/product.md §2 "Current environment"); a project the session does not know yet (made since it
 * loaded) is left to /projects/{projectKey}/features/{featureKey} to decide.
 */
export function featureResults(
  features: readonly Feature[],
  text: string,
  projects: readonly ProjectSummary[],
  remembered: RememberedEnvironments,
): QuickSearchResult[] {
  return matching(features, text, (feature) => feature)
    .slice(0, RESULT_LIMITS.features)
    .map((feature) => {
      const project = projects.find((p) => p.key === feature.projectKey);
      const environment = project && environmentToOpen(project, remembered);
      return {
        id: `feature-${feature.id}`,
        kind: 'feature',
        name: feature.name,
        key: feature.key,
        projectName: feature.project.name,
        to: environment
          ? featureDetailPath(feature.projectKey, environment.key, feature.key)
          : projectFeaturePath(feature.projectKey, feature.key),
      };
    });
}

/**
 * A project opens its feature list in the environment chosen for it; one without environments opens its
 * admin page for an organisation admin and is left out for everyone else, having nothing to open.
 */
export function projectResults(
  projects: readonly ProjectSummary[],
  text: string,
  remembered: RememberedEnvironments,
  admin: boolean,
): QuickSearchResult[] {
  const openable = projects.flatMap((project) => {
    const environment = environmentToOpen(project, remembered);
    if (!environment && !admin) return [];
    const to = environment
      ? featureListPath(project.key, environment.key)
      : adminPath('projects', project.key);
    return [
      { id: `project-${project.id}`, kind: 'project' as const, name: project.name, key: project.key, to },
    ];
  });
  return text === ''
    ? openable.slice(0, EMPTY_QUERY_LIMIT)
    : matching(openable, text, (result) => result).slice(0, RESULT_LIMITS.projects);
}

/**
 * Every environment of every project, in the projects' order. Before anything is typed, the ones the user
 * worked in come first: the current one, then the one last used in each other project.
 */
export function environmentResults(
  projects: readonly ProjectSummary[],
  text: string,
  remembered: RememberedEnvironments,
): QuickSearchResult[] {
  const all = projects.flatMap((project) =>
    project.environments.map((environment) => ({ project, environment })),
  );
  if (text !== '') {
    return matching(all, text, ({ environment }) => environment)
      .slice(0, RESULT_LIMITS.environments)
      .map(environmentResult);
  }
  const worked = new Set(Object.values(remembered.byProject));
  const rank = ({ environment }: EnvironmentOfProject) =>
    environment.id === remembered.current ? 0 : worked.has(environment.id) ? 1 : 2;
  return [...all]
    .sort((a, b) => rank(a) - rank(b))
    .slice(0, EMPTY_QUERY_LIMIT)
    .map(environmentResult);
}

export type QuickSearchResults = {
  groups: QuickSearchGroups;
  /** The features' search for the text typed has not answered yet. */
  searchingFeatures: boolean;
  /** The features' search failed (null otherwise). */
  featureError: unknown;
  retryFeatures: () => void;
};

/**
 * What the quick search finds for `query`: features from the server's search of the whole organisation
 * (it returns only what the user may see), projects and environments from the session's projects. The
 * features of the previous answer that still match stay on screen while the next answer loads.
 */
export function useQuickSearchResults(query: string): QuickSearchResults {
  const { projects, principalUser } = useSession();
  const { remembered } = useRememberedEnvironments();
  const text = query.trim();
  const [debounced] = useDebouncedValue(text, FEATURE_SEARCH_DEBOUNCE_MS);
  const search = useFeatureSearch(text === '' ? '' : debounced);
  const admin = isOrganisationAdmin(principalUser);
  const found = search.data;

  const groups = useMemo(
    () => ({
      features: text === '' ? [] : featureResults(found ?? [], text, projects, remembered),
      projects: projectResults(projects, text, remembered, admin),
      environments: environmentResults(projects, text, remembered),
    }),
    [found, text, projects, remembered, admin],
  );
  const searchingFeatures = text !== '' && (debounced !== text || search.isFetching);
  return {
    groups,
    searchingFeatures,
    featureError: text !== '' && !searchingFeatures && search.isError ? search.error : null,
    retryFeatures: () => void search.refetch(),
  };
}
