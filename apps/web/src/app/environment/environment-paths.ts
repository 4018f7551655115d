import type { ProjectSummary } from '@vexil/core';

export type EnvironmentSummary = ProjectSummary['environments'][number];

/** `/projects/{projectKey}/environments/{environmentKey}`: the root of an environment's screens. */
export function environmentPath(projectKey: string, environmentKey: string): string {
  return `/projects/${encodeURIComponent(projectKey)}/environments/${encodeURIComponent(environmentKey)}`;
}

/** The feature list of an environment, where choosing an environment leads. */
export function environmentFeaturesPath(projectKey: string, environmentKey: string): string {
  return `${environmentPath(projectKey, environmentKey)}/features`;
}

export function findProject(projects: ProjectSummary[], projectKey: string): ProjectSummary | undefined {
  return projects.find((project) => project.key === projectKey);
}

/**
 * The environment named in an address: by key, or by id (spec §2 "An environment given as an id is
 * rewritten to its key in the URL"). Keys win, so an id can never shadow a real key.
 */
export function findEnvironment(project: ProjectSummary, keyOrId: string): EnvironmentSummary | undefined {
  return (
    project.environments.find((environment) => environment.key === keyOrId) ??
    project.environments.find((environment) => environment.id === keyOrId)
  );
}
