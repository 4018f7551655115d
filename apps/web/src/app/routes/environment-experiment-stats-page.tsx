import { useParams } from 'react-router';
import { AccessDenied } from '../../components/access-denied';
import { ExperimentStatsPage } from '../../features/experiments/components/experiment-stats-page';
import { FlagGate } from '../../lib/flags';
import { useEnvironmentScope } from '../environment-scope';

/** .../experiments/:experimentId/stats: one experiment's statistics; "Access denied." without the flag. */
export function EnvironmentExperimentStatsPage() {
  const { project, environment } = useEnvironmentScope();
  const { experimentId = '' } = useParams();
  return (
    <FlagGate flag="experiments" fallback={<AccessDenied />}>
      <ExperimentStatsPage
        key={experimentId}
        project={project}
        environment={environment}
        experimentId={experimentId}
      />
    </FlagGate>
  );
}
