import { TutorialPage } from '../../features/tutorial/components/tutorial-page';
import { useSession } from '../../lib/session';
import { useEnvironmentScope } from '../environment-scope';

/**
 * /projects/:projectKey/environments/:environmentKey/tutorial (flag tutorial-tab): the SDK tutorial of
 * the environment the frame resolved, for the signed-in user. Keyed by environment, so each one's
 * progress shows from its first render.
 */
export function EnvironmentTutorialPage() {
  const { project, environment } = useEnvironmentScope();
  const { principalUser } = useSession();
  return (
    <TutorialPage
      key={`${project.id}/${environment.id}`}
      project={project}
      environment={environment}
      user={principalUser}
    />
  );
}
