import { SegmentsPage } from '../../features/segments/components/segments-page';
import { useSession } from '../../lib/session';
import { useEnvironmentScope } from '../environment-scope';

/**
 * /projects/:projectKey/environments/:environmentKey/segments: the environment's segments, given the
 * project and environment the frame resolved and the signed-in user (features may not read app/'s
 * context themselves). Keyed by environment, so a search typed in one never leaks into another.
 */
export function EnvironmentSegmentsPage() {
  const { project, environment } = useEnvironmentScope();
  const { principalUser } = useSession();
  return (
    <SegmentsPage
      key={`${project.key}/${environment.key}`}
      project={project}
      environment={environment}
      user={principalUser}
    />
  );
}
