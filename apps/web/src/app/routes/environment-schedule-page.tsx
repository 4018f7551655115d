import { SchedulePage } from '../../features/schedules/components/schedule-page';
import { useEnvironmentScope } from '../environment-scope';

/**
 * /projects/:projectKey/environments/:environmentKey/schedule: the project's schedules, reached from
 * the environment the user works in, as its change requests are.
 */
export function EnvironmentSchedulePage() {
  const { project } = useEnvironmentScope();
  return <SchedulePage key={project.key} project={project} />;
}
