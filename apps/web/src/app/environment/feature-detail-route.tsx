import { useParams } from 'react-router';
import { FeatureDetailPage } from '../../features/features/components/feature-detail/feature-detail-page';
import { useEnvironmentScope } from './environment-context';

/** .../environments/:environmentKey/features/:featureKey/:featureDetailPageTab? (spec §2). */
export function FeatureDetailRoute() {
  const { project, environment } = useEnvironmentScope();
  const { featureKey = '', featureDetailPageTab } = useParams();
  return (
    <FeatureDetailPage
      project={project}
      environment={environment}
      featureKey={featureKey}
      tab={featureDetailPageTab}
    />
  );
}
