import { createContext, useContext } from 'react';
import type { ProjectSummary } from '@vexil/core';

export type EnvironmentSummary = ProjectSummary['environments'][number];

export type EnvironmentScope = { project: ProjectSummary; environment: EnvironmentSummary };

export const EnvironmentContext = createContext<EnvironmentScope | null>(null);

/**
 * The project and environment of the address, as resolved by the environment frame. Only inside
 * /projects/:projectKey/environments/:environmentKey, where both are known to exist.
 */
export function useEnvironmentScope(): EnvironmentScope {
  const scope = useContext(EnvironmentContext);
  if (!scope) throw new Error('useEnvironmentScope is only available inside an environment route.');
  return scope;
}

export function findProject(projects: ProjectSummary[], projectKey: string): ProjectSummary | undefined {
  return projects.find((project) => project.key === projectKey);
}

/**
 * The environment named in an address: by key, or by id (docs/product.md §2 "An environment given as an id is
 * rewritten to its key in the URL"). Keys win, so an id can never shadow a real key.
 */
export function findEnvironment(project: ProjectSummary, keyOrId: string): EnvironmentSummary | undefined {
  return (
    project.environments.find((environment) => environment.key === keyOrId) ??
    project.environments.find((environment) => environment.id === keyOrId)
  );
}
