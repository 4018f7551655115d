import { createContext, useContext } from 'react';
import type { ProjectSummary } from '@vexil/core';
import type { EnvironmentSummary } from './environment-paths';

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
