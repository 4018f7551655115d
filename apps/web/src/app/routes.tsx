import type { ComponentType } from 'react';
import { Navigate, type RouteObject } from 'react-router';
import { RequireFlag } from './require-flag';
import { RequireSession } from './require-session';
import { RootLayout } from './root-layout';
import { RouteError } from './route-error';
import { AppLayout } from './shell/app-layout';
import { LoginRoute } from './routes/login-route';
import type { UiFlag } from '@vexil/core';

/*
 * The route table (docs/product.md §2). Screens of later issues plug into the groups below; a group's
 * routes render inside the shell (top navigation, banners) and behind the session gate.
 *
 * Every screen but sign-in is loaded when first visited (`lazy`), so the sign-in page and Home do not
 * download the targeting editor, charts or admin screens: each route module becomes a chunk of its
 * own. Sign-in stays in the first bundle because it is the first page of most visits.
 */

/** A route module loaded on first visit: `screen(() => import('./routes/x'), 'X')`. */
function screen<M, K extends keyof M>(load: () => Promise<M>, name: K, flag?: UiFlag): RouteObject['lazy'] {
  return async () => {
    const Component = (await load())[name] as ComponentType;
    return flag
      ? {
          element: (
            <RequireFlag flag={flag}>
              <Component />
            </RequireFlag>
          ),
        }
      : { Component };
  };
}

/** Signed-out screens. */
const publicRoutes: RouteObject[] = [
  { path: 'login', element: <LoginRoute /> },
  { path: 'login/:token', lazy: screen(() => import('./routes/token-login-route'), 'TokenLoginRoute') },
  { path: ':organisation/login', element: <LoginRoute /> },
  // Links sent outside Vexil (Slack, webhooks, Jira) in the path form: the organisation, then the page.
  {
    path: ':organisation/projects/*',
    lazy: screen(() => import('./routes/organisation-link-route'), 'OrganisationLinkRoute'),
  },
  {
    path: ':organisation/home',
    lazy: screen(() => import('./routes/organisation-link-route'), 'OrganisationLinkRoute'),
  },
  { path: 'logout', lazy: screen(() => import('./routes/logout-route'), 'LogoutRoute') },
  {
    path: ':organisation/forgot-password',
    lazy: screen(() => import('../features/signup/components/reset-request-page'), 'ResetRequestPage'),
  },
  {
    path: 'find-organisation',
    lazy: screen(
      () => import('../features/signup/components/find-organisation-page'),
      'FindOrganisationPage',
    ),
  },
  {
    path: 'signup',
    lazy: screen(() => import('../features/signup/components/signup-wizard-page'), 'SignupWizardPage'),
  },
  {
    path: 'activate',
    lazy: screen(() => import('../features/signup/components/signup-wizard-page'), 'ActivatePage'),
  },
  {
    path: 'invited/:activationKey',
    lazy: screen(() => import('../features/signup/components/invited-signup-page'), 'InvitedSignupPage'),
  },
  {
    path: 'resetpassword',
    lazy: screen(() => import('../features/signup/components/reset-password-page'), 'ResetPasswordPage'),
  },
];

/** /features/create and /features/link (Features issue). */
const featureRoutes: RouteObject[] = [
  {
    path: 'features/create',
    lazy: screen(() => import('./routes/create-feature-route'), 'CreateFeatureRoute'),
  },
  { path: 'features/link', lazy: screen(() => import('./routes/link-feature-route'), 'LinkFeatureRoute') },
];

/**
 * /projects/:projectKey/features/:featureKey and
 * /projects/:projectKey/environments/:environmentKey/{features,features/:featureKey/:featureDetailPageTab?,
 * experiments, experiments/:experimentId/stats, tutorial, users, segments, change-requests,
 * change-requests/:changeRequestId, schedule} (environment issues). The
 * frame resolves the project and environment and shows the banners; children not registered yet fall
 * through to Page not found.
 */
const projectRoutes: RouteObject[] = [
  {
    path: 'projects/:projectKey/features/:featureKey/:featureDetailPageTab?',
    lazy: screen(() => import('./routes/project-feature-redirect'), 'ProjectFeatureRedirect'),
  },
  {
    path: 'projects/:projectKey/environments/:environmentKey',
    lazy: screen(() => import('./routes/environment-frame'), 'EnvironmentFrame'),
    children: [
      { index: true, element: <Navigate to="features" replace /> },
      {
        path: 'features',
        lazy: screen(() => import('./routes/environment-features-page'), 'EnvironmentFeaturesPage'),
      },
      {
        path: 'features/:featureKey/:featureDetailPageTab?',
        lazy: screen(() => import('./routes/feature-detail-route'), 'FeatureDetailRoute'),
      },
      {
        path: 'segments',
        lazy: screen(
          () => import('./routes/environment-segments-page'),
          'EnvironmentSegmentsPage',
          'segments',
        ),
      },
      {
        path: 'experiments',
        lazy: screen(() => import('./routes/environment-experiments-page'), 'EnvironmentExperimentsPage'),
      },
      {
        path: 'experiments/:experimentId/stats',
        lazy: screen(
          () => import('./routes/environment-experiment-stats-page'),
          'EnvironmentExperimentStatsPage',
        ),
      },
      {
        path: 'users',
        lazy: screen(() => import('./routes/environment-users-page'), 'EnvironmentUsersPage', 'traffic'),
      },
      {
        path: 'change-requests',
        lazy: screen(
          () => import('./routes/environment-change-requests-page'),
          'EnvironmentChangeRequestsPage',
        ),
      },
      {
        path: 'change-requests/:changeRequestId',
        lazy: screen(
          () => import('./routes/environment-change-request-page'),
          'EnvironmentChangeRequestPage',
        ),
      },
      {
        path: 'schedule',
        lazy: screen(() => import('./routes/environment-schedule-page'), 'EnvironmentSchedulePage'),
      },
      {
        path: 'tutorial',
        lazy: screen(
          () => import('./routes/environment-tutorial-page'),
          'EnvironmentTutorialPage',
          'tutorial-tab',
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
  { path: 'admin', lazy: screen(() => import('./routes/admin-page'), 'AdminIndexRedirect') },
  { path: 'admin/:adminTab', lazy: screen(() => import('./routes/admin-page'), 'AdminPage') },
  { path: 'admin/:adminTab/:projectKey', lazy: screen(() => import('./routes/admin-page'), 'AdminPage') },
  {
    path: 'admin/projects/:projectKey',
    lazy: async () => {
      const { AdminPage } = await import('./routes/admin-page');
      return { element: <AdminPage tab="projects" /> };
    },
  },
  {
    // /admin/integrations/jira/connect too: the panel tells it from a connection's id.
    path: 'admin/integrations/jira/:jiraIntegrationId',
    lazy: async () => {
      const { AdminPage } = await import('./routes/admin-page');
      return { element: <AdminPage tab="integrations" /> };
    },
  },
];

const authenticatedRoutes: RouteObject[] = [
  { index: true, lazy: screen(() => import('./routes/home-page'), 'HomePage') },
  { path: 'home', lazy: screen(() => import('./routes/home-page'), 'HomePage') },
  { path: 'profile', lazy: screen(() => import('./routes/profile-route'), 'ProfileRoute') },
  { path: 'help', lazy: screen(() => import('./routes/help-route'), 'HelpRoute') },
  {
    path: 'test/401',
    lazy: screen(() => import('./routes/unauthorised-test-route'), 'UnauthorisedTestRoute'),
  },
  ...featureRoutes,
  ...projectRoutes,
  ...adminRoutes,
  { path: '*', lazy: screen(() => import('./routes/not-found-page'), 'NotFoundPage') },
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
