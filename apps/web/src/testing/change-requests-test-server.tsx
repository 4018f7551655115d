import {
  DEFAULT_APPROVAL_SETTINGS,
  type ApprovalSettings,
  type ChangeRequest,
  type ChangeRequestChange,
  type ChangeRequestSummary,
  type ChangeRequestTimelineEntry,
  type InitialPayload,
} from '@vexil/core';
import { environmentRoute, initialPayload, jsonResponse, renderRoute, stubApi } from './test-utils';
import { EnvironmentChangeRequestsPage } from '../app/routes/environment-change-requests-page';
import { EnvironmentChangeRequestPage } from '../app/routes/environment-change-request-page';
import { AdminPage } from '../app/routes/admin-page';

/*
 * Stands in for the change requests API in the dashboard's tests: the initial payload (project "web"
 * with environments "production" and "dev"), a list of requests answered by filter, each request's
 * page, and whatever actions a test hands in.
 */

type Handlers = Parameters<typeof stubApi>[0];

export const AUTHOR = { id: '00000000-0000-4000-8000-000000000001', name: 'Demo Admin' };
export const REVIEWER = { id: '00000000-0000-4000-8000-0000000000aa', name: 'Rita Reviewer' };
const DATE = '2026-01-02T03:04:05.000Z';
const uuid = (n: number) => `00000000-0000-4000-9000-${String(n).padStart(12, '0')}`;

/** Every button allowed unless the overrides say otherwise. */
export function actionsOf(overrides: Partial<ChangeRequest['actions']> = {}): ChangeRequest['actions'] {
  const allowed = { allowed: true, reason: null };
  return {
    edit: allowed,
    submit: allowed,
    approve: allowed,
    'request-changes': allowed,
    reject: allowed,
    apply: allowed,
    cancel: allowed,
    ...overrides,
  };
}

/** A change of the control of "Checkout" in production: turned on. */
export function changeFixture(n: number, overrides: Partial<ChangeRequestChange> = {}): ChangeRequestChange {
  return {
    id: uuid(500 + n),
    kind: 'control',
    resourceType: 'feature_control',
    resourceId: uuid(600 + n),
    featureKey: 'checkout',
    resourceName: 'Checkout',
    baseVersion: 3,
    liveVersion: 3,
    restoredFrom: null,
    comment: null,
    live: { enabled: false },
    proposed: { enabled: true },
    merged: { enabled: true },
    changes: ['Turned on'],
    conflicts: [],
    ...overrides,
  };
}

/** A timeline entry by the author. */
export function entryFixture(
  n: number,
  overrides: Partial<ChangeRequestTimelineEntry> = {},
): ChangeRequestTimelineEntry {
  return {
    id: uuid(700 + n),
    kind: 'created',
    by: AUTHOR,
    at: DATE,
    decision: null,
    text: null,
    round: 0,
    ...overrides,
  };
}

/** Request `n` ("Open checkout"…) in production, in review, with one change and one approval needed. */
export function changeRequestFixture(n: number, overrides: Partial<ChangeRequest> = {}): ChangeRequest {
  return {
    id: uuid(n),
    projectKey: 'web',
    environmentKey: 'production',
    environmentName: 'Production',
    title: `Open checkout ${n}`,
    description: 'Everyone gets the new checkout.',
    state: 'in-review',
    author: AUTHOR,
    changeCount: 1,
    approvals: 0,
    minApprovals: 1,
    suspendedReason: null,
    createdDate: DATE,
    updatedDate: DATE,
    round: 0,
    settings: { ...DEFAULT_APPROVAL_SETTINGS, required: true },
    changes: [changeFixture(1)],
    timeline: [entryFixture(1), entryFixture(2, { kind: 'submitted' })],
    changesRequestedBy: [],
    actions: actionsOf(),
    ...overrides,
  };
}

/** The list's view of a request. */
export function summaryOf(request: ChangeRequest): ChangeRequestSummary {
  const {
    round: _round,
    settings: _s,
    changes: _c,
    timeline: _t,
    changesRequestedBy: _b,
    actions: _a,
    ...summary
  } = request;
  return summary;
}

export type ServeChangeRequestsOptions = {
  payload?: InitialPayload;
  requests?: ChangeRequest[];
  /** Approval settings by environment key; unset ones answer the defaults. */
  settings?: Record<string, ApprovalSettings>;
  handlers?: Handlers;
};

/** Serves the initial payload, the list (filtered by state and environment), each request, and the settings. */
export function serveChangeRequests(options: ServeChangeRequestsOptions = {}) {
  const payload = options.payload ?? initialPayload();
  const state = { requests: options.requests ?? [] };
  const byId = Object.fromEntries(
    state.requests.map((request) => [
      `GET /api/v1/projects/web/change-requests/${request.id}`,
      () =>
        jsonResponse(
          200,
          state.requests.find((r) => r.id === request.id),
        ),
    ]),
  );
  const settings = Object.fromEntries(
    payload.projects[0]!.environments.map((environment) => [
      `GET /api/v1/projects/web/environments/${environment.key}/approval-settings`,
      () => jsonResponse(200, options.settings?.[environment.key] ?? DEFAULT_APPROVAL_SETTINGS),
    ]),
  );
  const policies = Object.fromEntries(
    payload.projects[0]!.environments.map((environment) => [
      `GET /api/v1/projects/web/environments/${environment.key}/change-request-policy`,
      () =>
        jsonResponse(200, {
          required: options.settings?.[environment.key]?.required ?? false,
          mayBypass: false,
          changeRequestId: null,
        }),
    ]),
  );
  const calls = stubApi({
    'GET /api/v1/initial': () => jsonResponse(200, payload),
    'GET /api/v1/projects/web/change-requests': ({ url }) => {
      const params = url.searchParams;
      const content = state.requests
        .filter((request) => !params.get('state') || request.state === params.get('state'))
        .filter(
          (request) =>
            !params.get('environmentKey') || request.environmentKey === params.get('environmentKey'),
        )
        .map(summaryOf);
      return jsonResponse(200, { content, totalElements: content.length, last: true });
    },
    'GET /api/v1/change-requests/waiting': () => jsonResponse(200, { count: 0 }),
    ...settings,
    ...policies,
    ...byId,
    ...options.handlers,
  });
  return { calls, state, payload };
}

/** The list requests sent, as their query parameters. */
export function listQueries(calls: ReturnType<typeof stubApi>) {
  return calls
    .filter((call) => call.method === 'GET' && call.path.startsWith('/api/v1/projects/web/change-requests?'))
    .map((call) => Object.fromEntries(new URL(call.path, 'http://localhost').searchParams));
}

/** The change requests page and a request's page at `path`, as the app's routes mount them. */
export function renderChangeRequests(path: string, session?: InitialPayload) {
  return renderRoute(
    environmentRoute([
      { path: 'change-requests', element: <EnvironmentChangeRequestsPage /> },
      { path: 'change-requests/:changeRequestId', element: <EnvironmentChangeRequestPage /> },
    ]),
    path,
    session ? { session } : {},
  );
}

/** Admin › Projects › a project at `path` (/admin/projects/{projectKey}), with its sections. */
export function renderProjectAdminPage(path: string) {
  return renderRoute({ path: 'admin/projects/:projectKey', element: <AdminPage tab="projects" /> }, path);
}
