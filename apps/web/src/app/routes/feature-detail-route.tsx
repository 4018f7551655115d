import { useParams } from 'react-router';
import { FeatureDetailPage } from '../../features/feature-detail/components/feature-detail-page';
import { FeatureHistory } from '../../features/feature-history/components/feature-history';
import { FeatureToggle } from '../../features/feature-list/components/feature-toggle';
import { FeatureTargeting } from '../../features/targeting/components/feature-targeting';
import { useSession } from '../../lib/session';
import { useEnvironmentScope } from '../environment-scope';

/**
 * .../environments/:environmentKey/features/:featureKey/:featureDetailPageTab? (docs/product.md §2): the feature
 * detail page, with the targeting editor in its Targeting tab, the version history in its History tab and the feature list's on/off switch in its
 * header and Overview, so that a feature switches on and off alike wherever it shows.
 */
export function FeatureDetailRoute() {
  const { project, environment } = useEnvironmentScope();
  const { principalUser } = useSession();
  const { featureKey = '', featureDetailPageTab } = useParams();
  return (
    <FeatureDetailPage
      project={project}
      environment={environment}
      featureKey={featureKey}
      tab={featureDetailPageTab}
      targeting={(feature, control) => (
        <FeatureTargeting feature={feature} control={control} environmentName={environment.name} />
      )}
      history={(feature) => (
        <FeatureHistory
          feature={feature}
          projectKey={project.key}
          projectId={project.id}
          environment={{ ...environment, projectId: project.id }}
          user={principalUser}
        />
      )}
      toggle={(feature, control, inEnvironment) => (
        <FeatureToggle
          feature={feature}
          control={control}
          environment={{ ...inEnvironment, projectId: project.id }}
          user={principalUser}
        />
      )}
    />
  );
}
