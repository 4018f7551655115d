import { Navigate, type RouteObject } from 'react-router';
import { ProfilePage } from '../features/account/components/profile-page';
import { LoginPage } from '../features/auth/components/login-page';
import { LogoutPage } from '../features/auth/components/logout-page';
import { TokenLoginPage } from '../features/auth/components/token-login-page';
import { UnauthorisedTestPage } from '../features/auth/components/unauthorised-test-page';
import { CreateFeaturePage } from '../features/features/components/create-feature-page';
import { LinkFeaturePage } from '../features/features/components/link-feature-page';
import { AdminIndexRedirect, AdminPage } from './admin/admin-page';
import { EnvironmentFeaturesPage } from './environment/environment-features-page';
import { EnvironmentFrame } from './environment/environment-frame';
import { EnvironmentSegmentsPage } from './environment/environment-segments-page';
import { EnvironmentUsersPage } from './environment/environment-users-page';
import { FeatureDetailRoute } from './environment/feature-detail-route';
import { ProjectFeatureRedirect } from './environment/project-feature-redirect';
import { RedirectIfSignedIn } from './redirect-if-signed-in';
import { RequireFlag } from './require-flag';
import { RequireSession } from './require-session';
import { RootLayout } from './root-layout';
import { RouteError } from './route-error';
import { AppLayout } from './shell/app-layout';
import { HomePage } from './routes/home-page';
import { NotFoundPage } from './routes/not-found-page';

/*
 * The route table of spec §2. Screens of later issues plug into the groups below; a group's routes
 * render inside the shell (top navigation, banners) and behind the session gate.
 */

/** Signed-out screens. Later: /signup, /activate, /invited/:activationKey, /resetpassword. */
const publicRoutes: RouteObject[] = [
  {
    path: 'login',
    element: (
      <RedirectIfSignedIn>
        <LoginPage />
      </RedirectIfSignedIn>
    ),
  },
  { path: 'login/:token', element: <TokenLoginPage /> },
  {
    path: ':organisation/login',
    element: (
      <RedirectIfSignedIn>
        <LoginPage />
      </RedirectIfSignedIn>
    ),
  },
  { path: 'logout', element: <LogoutPage /> },
];

/** /features/create and /features/link (Features issue). */
const featureRoutes: RouteObject[] = [
  { path: 'features/create', element: <CreateFeaturePage /> },
  { path: 'features/link', element: <LinkFeaturePage /> },
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
  {
    path: 'profile',
    element: (
      <RequireFlag flag="profile">
        <ProfilePage />
      </RequireFlag>
    ),
  },
  { path: 'test/401', element: <UnauthorisedTestPage /> },
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
