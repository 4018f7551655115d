import { Navigate, useLocation, useParams } from 'react-router';
import { NotFound } from '../../components/not-found';
import { environmentToOpen, useRememberedEnvironments } from '../../lib/current-environment';
import { useSession } from '../../lib/session';
import { featureDetailPath } from '../../lib/paths';
import { findProject } from '../environment-scope';

/**
 * /projects/:projectKey/features/:featureKey (docs/product.md §2): the same feature under the project's first
 * environment, which is the one the user last worked in there, else the first non-production one (see
 * lib/current-environment). A project that is unknown, or has no environment, is Page not found.
 */
export function ProjectFeatureRedirect() {
  const { projects } = useSession();
  const { remembered } = useRememberedEnvironments();
  const { projectKey = '', featureKey = '' } = useParams();
  const { search, hash } = useLocation();
  const project = findProject(projects, projectKey);
  const environment = project && environmentToOpen(project, remembered);
  if (!project || !environment) return <NotFound />;
  const pathname = featureDetailPath(project.key, environment.key, featureKey);
  return <Navigate replace to={{ pathname, search, hash }} />;
}
