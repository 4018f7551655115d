import { useMatch } from 'react-router';
import { useSession } from '../../lib/session';
import {
  chooseCurrentEnvironment,
  useRememberedEnvironments,
  type EnvironmentChoice,
} from '../../lib/current-environment';
import { findEnvironment, findProject } from '../environment-scope';

export type CurrentEnvironment = EnvironmentChoice;

/**
 * The environment the environment-scoped navigation points at: the one in the address when the user is
 * inside an environment, otherwise the one they last worked in (see lib/current-environment). Null
 * without one.
 */
export function useCurrentEnvironment(): CurrentEnvironment | null {
  const { projects } = useSession();
  const { remembered } = useRememberedEnvironments();
  const match = useMatch('/projects/:projectKey/environments/:environmentKey/*');

  if (match) {
    const project = findProject(projects, match.params.projectKey ?? '');
    const environment = project && findEnvironment(project, match.params.environmentKey ?? '');
    if (project && environment) return { project, environment };
  }
  return chooseCurrentEnvironment(projects, remembered);
}
