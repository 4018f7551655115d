import { FeatureList } from '../../features/feature-list/components/feature-list';
import { useEnvironmentScope } from '../environment-scope';

/**
 * /projects/:projectKey/environments/:environmentKey/features: the environment's feature list, given the
 * project and environment the frame resolved (features may not read app/'s context themselves).
 */
export function EnvironmentFeaturesPage() {
  const { project, environment } = useEnvironmentScope();
  return <FeatureList project={project} environment={environment} />;
}
