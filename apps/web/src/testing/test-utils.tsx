import type { ReactNode } from 'react';
import { render, screen } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, Outlet, RouterProvider, type RouteObject } from 'react-router';
import { vi } from 'vitest';
import { useEnvironmentScope, type EnvironmentScope } from '../app/environment-scope';
import { RequireSession } from '../app/require-session';
import { RootLayout } from '../app/root-layout';
import { RouteError } from '../app/route-error';
import { EnvironmentFrame } from '../app/routes/environment-frame';
import { NotFoundPage } from '../app/routes/not-found-page';
import { ProjectFeatureRedirect } from '../app/routes/project-feature-redirect';
import { AppLayout } from '../app/shell/app-layout';
import { theme } from '../app/theme';
import { accountKeys } from '../entities/account/api/query-keys';
import {
  ENTERPRISE_PLAN_LIMITS,
  UI_FLAGS,
  type InitialPayload,
  type Project,
  type Subscription,
} from '@vexil/core';

type Handler = (request: { url: URL; method: string; body: unknown }) => Response | Promise<Response>;

export function jsonResponse(status: number, body?: unknown): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

/** Stubs fetch with handlers keyed by "METHOD /path"; unknown calls answer 404. Returns the call log. */
export function stubApi(handlers: Record<string, Handler>) {
  const calls: { method: string; path: string; body: unknown }[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const method = init?.method ?? 'GET';
    const body: unknown = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    calls.push({ method, path: url.pathname + url.search, body });
    const handler = handlers[`${method} ${url.pathname}`];
    return handler ? handler({ url, method, body }) : jsonResponse(404, { title: 'Not found' });
  });
  vi.stubGlobal('fetch', fetchMock);
  return calls;
}

export const allFlagsOn = Object.fromEntries(UI_FLAGS.map((flag) => [flag, true])) as InitialPayload['flags'];

const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

function environment(
  n: number,
  key: string,
  name: string,
  production: boolean,
): InitialPayload['projects'][number]['environments'][number] {
  return {
    id: uuid(100 + n),
    name,
    key,
    url: '',
    color: '#1273de',
    local: !production,
    production,
    isProduction: production,
    sdkCanCreateFeatures: !production,
    projectKey: 'web',
    tags: [],
    lastModifiedDate: '2026-01-01T00:00:00.000Z',
  };
}

/** A valid initial payload: the demo admin, one project with two environments, every flag on. */
export function initialPayload(overrides: Partial<InitialPayload> = {}): InitialPayload {
  return {
    principalUser: {
      id: uuid(1),
      firstName: 'Demo',
      lastName: 'Admin',
      email: 'admin@example.com',
      login: 'admin@example.com',
      userHash: 'hash',
      authorities: ['ROLE_ORGANISATION_ADMIN'],
      langKey: 'en',
      activatedDate: '2026-01-01T00:00:00.000Z',
      // Has closed the welcome walkthrough, which would otherwise open over every screen under test.
      settings: { introReadDate: '2026-01-01T00:00:00.000Z' },
    },
    organisation: { id: uuid(2), name: 'Demo', domain: 'demo', settings: { jiraEnabled: false } },
    projects: [
      {
        id: uuid(3),
        name: 'Web shop',
        key: 'web',
        lastModifiedDate: '2026-01-01T00:00:00.000Z',
        url: '',
        tags: [],
        environments: [
          environment(1, 'production', 'Production', true),
          environment(2, 'dev', 'Development', false),
        ],
      },
    ],
    subscription: null,
    flags: allFlagsOn,
    ...overrides,
  };
}

/** A trial subscription with `days` left. */
export function trialSubscription(days: number, inTrial = true): Subscription {
  return {
    id: 'sub_1',
    status: 'active',
    quantity: 1,
    total: 0,
    percentOff: null,
    amountOff: null,
    inTrial,
    daysUntilEndOfTrial: days,
    price: null,
    limits: { ...ENTERPRISE_PLAN_LIMITS },
  };
}

export function createTestQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
}

export function Providers({ children, queryClient }: { children: ReactNode; queryClient: QueryClient }) {
  return (
    <MantineProvider theme={theme} env="test">
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </MantineProvider>
  );
}

/**
 * Renders a route table in memory at `path`; returns the router to read where it went. The whole
 * table (`app/routes.tsx`) loads every screen: only its own test renders it, screens use renderRoute.
 */
export function renderRoutes(routes: RouteObject[], path: string, queryClient = createTestQueryClient()) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const result = render(
    <Providers queryClient={queryClient}>
      <RouterProvider router={router} />
    </Providers>,
  );
  return { ...result, router, queryClient };
}

export type RenderRouteOptions = {
  /**
   * The signed-in user's initial payload, put in the cache as if it had loaded. Without it the session
   * gate asks GET /api/v1/initial, which the test then answers.
   */
  session?: InitialPayload;
  /** Inside the app's shell (top navigation, trial banner), as the signed-in screens are. */
  shell?: boolean;
};

/**
 * Mounts just the route(s) a test needs at `path`, inside what the route table puts around signed-in
 * screens: the root layout (modal stack, toasts), the session gate (session and UI flags) and, with
 * `shell`, the top navigation. Any other address is Page not found. Returns the router to read where
 * it went.
 */
export function renderRoute(
  routes: RouteObject | RouteObject[],
  path: string,
  options: RenderRouteOptions = {},
) {
  const queryClient = createTestQueryClient();
  if (options.session) queryClient.setQueryData(accountKeys.initial, options.session);
  const table: RouteObject[] = [
    {
      element: <RootLayout />,
      errorElement: <RouteError />,
      children: [
        {
          element: <RequireSession>{options.shell ? <AppLayout /> : <Outlet />}</RequireSession>,
          errorElement: <RouteError />,
          children: [...[routes].flat(), { path: '*', element: <NotFoundPage /> }],
        },
      ],
    },
  ];
  return renderRoutes(table, path, queryClient);
}

/**
 * The app's environment frame at /projects/:projectKey/environments/:environmentKey (it resolves both,
 * shows the banners, and is Page not found for an unknown one), with `children` below it.
 */
export function environmentRoute(children: RouteObject[]): RouteObject {
  return {
    path: 'projects/:projectKey/environments/:environmentKey',
    element: <EnvironmentFrame />,
    children,
  };
}

/** The app's /projects/:projectKey/features/:featureKey, which sends a feature to its first environment. */
export const projectFeatureRedirectRoute: RouteObject = {
  path: 'projects/:projectKey/features/:featureKey',
  element: <ProjectFeatureRedirect />,
};

/** Gives a screen the project and environment the frame resolved, as the app's route modules do. */
export function InEnvironment({ children }: { children: (scope: EnvironmentScope) => ReactNode }) {
  return children(useEnvironmentScope());
}

type ProjectFixture = InitialPayload['projects'][number];
type EnvironmentFixture = ProjectFixture['environments'][number];
let fixtureIds = 0;

/**
 * A project of the initial payload with the environments described; each environment is plain (neither
 * local nor production, colour #1273de) unless its overrides say otherwise. Ids are fresh on every call.
 */
export function projectFixture(
  key: string,
  name: string,
  environments: (Partial<EnvironmentFixture> & Pick<EnvironmentFixture, 'key' | 'name'>)[],
): ProjectFixture {
  fixtureIds += 1;
  const projectId = uuid(10_000 + fixtureIds * 100);
  return {
    id: projectId,
    name,
    key,
    url: '',
    tags: [],
    lastModifiedDate: '2026-01-01T00:00:00.000Z',
    environments: environments.map((overrides, index) => {
      const production = overrides.production ?? false;
      return {
        lastModifiedDate: '2026-01-01T00:00:00.000Z',
        id: uuid(10_000 + fixtureIds * 100 + index + 1),
        url: '',
        color: '#1273de',
        local: false,
        production,
        isProduction: production,
        sdkCanCreateFeatures: !production,
        projectKey: key,
        tags: [],
        ...overrides,
      };
    }),
  };
}

/**
 * A project of the initial payload as GET /api/v1/projects returns it: with targets and each environment's
 * SDK keys (derived from the environment id, so they are stable and match the key patterns).
 */
export function withSdkKeys(project: InitialPayload['projects'][number]): Project {
  return {
    ...project,
    targets: [],
    environments: project.environments.map((environment) => {
      const hex = environment.id.replace(/-/g, '');
      return { ...environment, apiKey: `sdk-srv-env-${hex}`, jsApiKey: `sdk-js-env-${hex}` };
    }),
  };
}

/** Renders `ui` with the providers and the modal stack, for components that open modals. */
export function renderWithModals(ui: ReactNode) {
  const queryClient = createTestQueryClient();
  const result = render(
    <Providers queryClient={queryClient}>
      <ModalsProvider>{ui}</ModalsProvider>
    </Providers>,
  );
  return { ...result, queryClient };
}

/**
 * The open menu of the top navigation. Those menus load their code on first use (app/shell/
 * deferred-menu.tsx); in a test worker the first use also transforms that code, which can take
 * longer than Testing Library's default second.
 */
export function findOpenMenu(): Promise<HTMLElement> {
  return screen.findByRole('menu', {}, { timeout: 5_000 });
}
