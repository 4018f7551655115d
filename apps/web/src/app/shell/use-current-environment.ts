import { useMatch } from 'react-router';
import { useSession } from '../../lib/session';
import type { InitialPayload } from '@vexil/core';

type Project = InitialPayload['projects'][number];
type Environment = Project['environments'][number];

export type CurrentEnvironment = { project: Project; environment: Environment };

/**
 * The environment the environment-scoped navigation points at: the one in the address when the user is
 * inside an environment, otherwise the first environment of the first project. Null without one.
 */
export function useCurrentEnvironment(): CurrentEnvironment | null {
  const { projects } = useSession();
  const match = useMatch('/projects/:projectKey/environments/:environmentKey/*');

  let project = projects[0];
  let environment = project?.environments[0];
  if (match) {
    const inPath = projects.find((p) => p.key === match.params.projectKey);
    const environmentInPath = inPath?.environments.find(
      (e) => e.key === match.params.environmentKey || e.id === match.params.environmentKey,
    );
    if (inPath && environmentInPath) {
      project = inPath;
      environment = environmentInPath;
    }
  }
  if (!project || !environment) return null;
  return { project, environment };
}
