import { ChangeRequestsPage } from '../../features/change-requests/components/change-requests-page';
import { useSession } from '../../lib/session';
import { useEnvironmentScope } from '../environment-scope';

/**
 * /projects/:projectKey/environments/:environmentKey/change-requests: the project's change requests,
 * seen from the environment the frame resolved (its "current environment" filter and the default of
 * New change request), with the signed-in user's rights.
 */
export function EnvironmentChangeRequestsPage() {
  const { project, environment } = useEnvironmentScope();
  const { principalUser } = useSession();
  return (
    <ChangeRequestsPage
      key={`${project.key}/${environment.key}`}
      project={project}
      environment={environment}
      user={principalUser}
    />
  );
}
