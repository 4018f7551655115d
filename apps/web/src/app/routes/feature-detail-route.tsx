import { useParams } from 'react-router';
import { FeatureDetailPage } from '../../features/feature-detail/components/feature-detail-page';
import { FeatureTargeting } from '../../features/targeting/components/feature-targeting';
import { useEnvironmentScope } from '../environment-scope';

/**
 * .../environments/:environmentKey/features/:featureKey/:featureDetailPageTab? (docs/product.md §2): the feature
 * detail page, with the targeting editor in its Targeting tab.
 */
export function FeatureDetailRoute() {
  const { project, environment } = useEnvironmentScope();
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
    />
  );
}
