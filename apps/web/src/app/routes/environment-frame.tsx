import { useEffect } from 'react';
import { Navigate, Outlet, useLocation, useParams } from 'react-router';
import { NotFound } from '../../components/not-found';
import { useRememberedEnvironments } from '../../lib/current-environment';
import { useSession } from '../../lib/session';
import { EnvironmentBanners } from '../shell/environment-banners';
import { EnvironmentContext, findEnvironment, findProject } from '../environment-scope';

/** The position of `:environmentKey` in `/projects/:projectKey/environments/:environmentKey/...`. */
const ENVIRONMENT_SEGMENT = 4;

/**
 * /projects/:projectKey/environments/:environmentKey and its children (docs/product.md §2). Resolves both from the
 * session's projects: an unknown one is Page not found (docs/product.md §8); an environment given by id is
 * rewritten to its key, keeping the rest of the address. Then the banners, then the screen. The
 * environment opened becomes the user's current one, which the navigation keeps once they leave it.
 */
export function EnvironmentFrame() {
  const { projects } = useSession();
  const { remember } = useRememberedEnvironments();
  const { projectKey = '', environmentKey = '' } = useParams();
  const location = useLocation();

  const project = findProject(projects, projectKey);
  const environment = project ? findEnvironment(project, environmentKey) : undefined;
  const projectId = project?.id;
  const environmentId = environment?.id;
  useEffect(() => {
    if (projectId && environmentId) remember(projectId, environmentId);
  }, [remember, projectId, environmentId]);
  if (!project || !environment) return <NotFound />;

  if (environment.key !== environmentKey) {
    const segments = location.pathname.split('/');
    segments[ENVIRONMENT_SEGMENT] = encodeURIComponent(environment.key);
    return (
      <Navigate replace to={{ pathname: segments.join('/'), search: location.search, hash: location.hash }} />
    );
  }

  return (
    <EnvironmentContext value={{ project, environment }}>
      <EnvironmentBanners environment={environment} />
      <Outlet />
    </EnvironmentContext>
  );
}
