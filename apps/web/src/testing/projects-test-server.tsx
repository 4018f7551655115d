import { notifications } from '@mantine/notifications';
import { closeAllModals } from '../lib/modals';
import { useParams } from 'react-router';
import { initialPayload, jsonResponse, renderRoute, stubApi, withSdkKeys } from './test-utils';
import type { InitialPayload, Project } from '@vexil/core';
import { ProjectAdmin } from '../features/projects/components/project-admin';

export type ApiHandler = Parameters<typeof stubApi>[0][string];

export type ServeOptions = {
  payload?: InitialPayload;
  /** GET /api/v1/projects answers these; by default the payload's projects, with SDK keys. */
  projects?: Project[];
  handlers?: Record<string, ApiHandler>;
};

/**
 * Stands in for the projects API in tests: GET /api/v1/initial and GET /api/v1/projects answer from one
 * list, which the test's own handlers may change (`state.projects = ...`). Returns the call log and the
 * state.
 */
export function serveProjects(options: ServeOptions = {}) {
  const payload = options.payload ?? initialPayload();
  const state = { projects: options.projects ?? payload.projects.map(withSdkKeys) };
  const calls = stubApi({
    'GET /api/v1/initial': () =>
      jsonResponse(200, {
        ...payload,
        projects: state.projects.map(({ targets: _targets, environments, ...project }) => ({
          ...project,
          environments: environments.map(
            ({ apiKey: _apiKey, jsApiKey: _jsApiKey, ...environment }) => environment,
          ),
        })),
      }),
    'GET /api/v1/projects': () => jsonResponse(200, state.projects),
    ...options.handlers,
  });
  return { calls, state };
}

/** Toasts and the modal stack outlive a rendered tree; each test starts without them. */
export function resetOverlays(): void {
  notifications.clean();
  closeAllModals();
}

/** A network failure, as fetch reports it. */
export function networkFailure(): never {
  throw new TypeError('Failed to fetch');
}

function ProjectAdminRoute() {
  const { projectKey } = useParams();
  return <ProjectAdmin projectKey={projectKey} />;
}

/** Project admin at `path` (/admin/projects or /admin/projects/{projectKey}), as the admin page mounts it. */
export function renderProjectAdmin(path: string) {
  return renderRoute(
    [
      { path: 'admin/projects', element: <ProjectAdminRoute /> },
      { path: 'admin/projects/:projectKey', element: <ProjectAdminRoute /> },
    ],
    path,
  );
}
