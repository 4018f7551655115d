import { Navigate, useLocation, useParams } from 'react-router';
import { NotFound } from '../../components/not-found';
import { useSession } from '../../lib/session';
import { environmentFeaturesPath, findProject } from './environment-paths';

/**
 * /projects/:projectKey/features/:featureKey (spec §2): the same feature under the project's first
 * environment. A project that is unknown, or has no environment, is Page not found.
 */
export function ProjectFeatureRedirect() {
  const { projects } = useSession();
  const { projectKey = '', featureKey = '' } = useParams();
  const { search, hash } = useLocation();
  const project = findProject(projects, projectKey);
  const environment = project?.environments[0];
  if (!project || !environment) return <NotFound />;
  const pathname = `${environmentFeaturesPath(project.key, environment.key)}/${encodeURIComponent(featureKey)}`;
  return <Navigate replace to={{ pathname, search, hash }} />;
}
