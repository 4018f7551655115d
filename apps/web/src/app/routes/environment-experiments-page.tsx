import { AccessDenied } from '../../components/access-denied';
import { ExperimentsPage } from '../../features/experiments/components/experiments-page';
import { FlagGate } from '../../lib/flags';
import { useSession } from '../../lib/session';
import { useEnvironmentScope } from '../environment-scope';

/**
 * /projects/:projectKey/environments/:environmentKey/experiments: the environment's experiments, given
 * the project and environment the frame resolved and the signed-in user (features may not read app/'s
 * context themselves). Without flag experiments: "Access denied." (docs/product.md §2, §8), not Page
 * not found as for other flagged screens.
 */
export function EnvironmentExperimentsPage() {
  const { project, environment } = useEnvironmentScope();
  const { principalUser } = useSession();
  return (
    <FlagGate flag="experiments" fallback={<AccessDenied />}>
      <ExperimentsPage
        key={`${project.key}/${environment.key}`}
        project={project}
        environment={environment}
        user={principalUser}
      />
    </FlagGate>
  );
}
