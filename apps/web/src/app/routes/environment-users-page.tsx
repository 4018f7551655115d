import { UsersPage } from '../../features/target-users/components/users-page';
import { useSession } from '../../lib/session';
import { useEnvironmentScope } from '../environment-scope';

/**
 * /projects/:projectKey/environments/:environmentKey/users: the users SDKs reported in the environment,
 * given the project and environment the frame resolved and the signed-in user (features may not read
 * app/'s context themselves). Keyed by environment, so a search typed in one never leaks into another.
 */
export function EnvironmentUsersPage() {
  const { project, environment } = useEnvironmentScope();
  const { principalUser } = useSession();
  return (
    <UsersPage
      key={`${project.key}/${environment.key}`}
      project={project}
      environment={environment}
      user={principalUser}
    />
  );
}
