import { Navigate, useLocation, useParams } from 'react-router';
import { NotFound } from '../../components/not-found';
import { environmentToOpen, useRememberedEnvironments } from '../../lib/current-environment';
import { useSession } from '../../lib/session';
import { featureDetailPath } from '../../lib/paths';
import { findProject } from '../environment-scope';
import { FEATURE_DETAIL_TABS, type FeatureDetailTab } from '@vexil/core';

/** The tab an address names after the feature: none (undefined), one of the page's, or not a tab (null). */
function tabOf(segment: string | undefined): FeatureDetailTab | undefined | null {
  if (segment === undefined || segment === '') return undefined;
  return (FEATURE_DETAIL_TABS as readonly string[]).includes(segment) ? (segment as FeatureDetailTab) : null;
}

/**
 * /projects/:projectKey/features/:featureKey/:featureDetailPageTab? (docs/product.md §2): the same feature, on
 * the same tab (the audit log links a feature's settings versions to its History this way), under the project's first
 * environment, which is the one the user last worked in there, else the first non-production one (see
 * lib/current-environment). A project that is unknown, or has no environment, is Page not found.
 */
export function ProjectFeatureRedirect() {
  const { projects } = useSession();
  const { remembered } = useRememberedEnvironments();
  const { projectKey = '', featureKey = '', featureDetailPageTab } = useParams();
  const { search, hash } = useLocation();
  const project = findProject(projects, projectKey);
  const environment = project && environmentToOpen(project, remembered);
  if (!project || !environment) return <NotFound />;
  const tab = tabOf(featureDetailPageTab);
  if (tab === null) return <NotFound />;
  const pathname = featureDetailPath(project.key, environment.key, featureKey, tab);
  return <Navigate replace to={{ pathname, search, hash }} />;
}
