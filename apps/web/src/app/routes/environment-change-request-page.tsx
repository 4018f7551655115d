import { useParams } from 'react-router';
import { ChangeRequestPage } from '../../features/change-requests/components/change-request-page';
import { useEnvironmentScope } from '../environment-scope';

/** /projects/:projectKey/environments/:environmentKey/change-requests/:changeRequestId: one request. */
export function EnvironmentChangeRequestPage() {
  const { project } = useEnvironmentScope();
  const { changeRequestId = '' } = useParams();
  return (
    <ChangeRequestPage key={changeRequestId} projectKey={project.key} changeRequestId={changeRequestId} />
  );
}
