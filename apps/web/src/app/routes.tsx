import { Navigate, type RouteObject } from 'react-router';
import { RequireFlag } from './require-flag';
import { RequireSession } from './require-session';
import { RootLayout } from './root-layout';
import { RouteError } from './route-error';
import { AppLayout } from './shell/app-layout';
import { AdminIndexRedirect, AdminPage } from './routes/admin-page';
import { CreateFeatureRoute } from './routes/create-feature-route';
import { EnvironmentFeaturesPage } from './routes/environment-features-page';
import { EnvironmentFrame } from './routes/environment-frame';
import { EnvironmentSegmentsPage } from './routes/environment-segments-page';
import { EnvironmentUsersPage } from './routes/environment-users-page';
import { FeatureDetailRoute } from './routes/feature-detail-route';
import { HomePage } from './routes/home-page';
import { LinkFeatureRoute } from './routes/link-feature-route';
import { LoginRoute } from './routes/login-route';
import { LogoutRoute } from './routes/logout-route';
import { NotFoundPage } from './routes/not-found-page';
import { ProfileRoute } from './routes/profile-route';
import { ProjectFeatureRedirect } from './routes/project-feature-redirect';
import { TokenLoginRoute } from './routes/token-login-route';
import { UnauthorisedTestRoute } from './routes/unauthorised-test-route';

/*
 * The route table of spec §2. Screens of later issues plug into the groups below; a group's routes
 * render inside the shell (top navigation, banners) and behind the session gate.
 */

/** Signed-out screens. Later: /signup, /activate, /invited/:activationKey, /resetpassword. */
const publicRoutes: RouteObject[] = [
  { path: 'login', element: <LoginRoute /> },
  { path: 'login/:token', element: <TokenLoginRoute /> },
  { path: ':organisation/login', element: <LoginRoute /> },
  { path: 'logout', element: <LogoutRoute /> },
];

/** /features/create and /features/link (Features issue). */
const featureRoutes: RouteObject[] = [
  { path: 'features/create', element: <CreateFeatureRoute /> },
  { path: 'features/link', element: <LinkFeatureRoute /> },
];

/**
 * /projects/:projectKey/features/:featureKey and
 * /projects/:projectKey/environments/:environmentKey/{features,features/:featureKey/:featureDetailPageTab?,
 * experiments, experiments/:experimentId/stats, tutorial, users, segments} (environment issues). The
 * frame resolves the project and environment and shows the banners; children not registered yet fall
 * through to Page not found.
 */
const projectRoutes: RouteObject[] = [
  { path: 'projects/:projectKey/features/:featureKey', element: <ProjectFeatureRedirect /> },
  {
    path: 'projects/:projectKey/environments/:environmentKey',
    element: <EnvironmentFrame />,
    children: [
      { index: true, element: <Navigate to="features" replace /> },
      { path: 'features', element: <EnvironmentFeaturesPage /> },
      { path: 'features/:featureKey/:featureDetailPageTab?', element: <FeatureDetailRoute /> },
      {
        path: 'segments',
        element: (
          <RequireFlag flag="segments">
            <EnvironmentSegmentsPage />
          </RequireFlag>
        ),
      },
      {
        path: 'users',
        element: (
          <RequireFlag flag="traffic">
            <EnvironmentUsersPage />
          </RequireFlag>
        ),
      },
    ],
  },
];

/**
 * /admin, /admin/:adminTab, /admin/:adminTab/:projectKey, /admin/projects/:projectKey, /admin/billing,
 * /admin/integrations/jira/connect, /admin/integrations/jira/:jiraIntegrationId (admin issues).
 */
const adminRoutes: RouteObject[] = [
  { path: 'admin', element: <AdminIndexRedirect /> },
  { path: 'admin/:adminTab', element: <AdminPage /> },
  { path: 'admin/:adminTab/:projectKey', element: <AdminPage /> },
  { path: 'admin/projects/:projectKey', element: <AdminPage tab="projects" /> },
];

const authenticatedRoutes: RouteObject[] = [
  { index: true, element: <HomePage /> },
  { path: 'home', element: <HomePage /> },
  { path: 'profile', element: <ProfileRoute /> },
  { path: 'test/401', element: <UnauthorisedTestRoute /> },
  ...featureRoutes,
  ...projectRoutes,
  ...adminRoutes,
  { path: '*', element: <NotFoundPage /> },
];

export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteError />,
    children: [
      ...publicRoutes,
      {
        element: (
          <RequireSession>
            <AppLayout />
          </RequireSession>
        ),
        errorElement: <RouteError />,
        children: authenticatedRoutes,
      },
    ],
  },
];
