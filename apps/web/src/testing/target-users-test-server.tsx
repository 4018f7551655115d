import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ModalsProvider } from '@mantine/modals';
import { Notifications, notifications } from '@mantine/notifications';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { closeAllModals } from '../lib/modals';
import { createTestQueryClient, jsonResponse, Providers, stubApi } from './test-utils';
import { AUTHORITIES, type Authority } from '@vexil/core';
import type { ReportedUser } from '../entities/target-users/api/get-target-users';
import { UsersPage, type UsersPageProps } from '../features/target-users/components/users-page';

/*
 * Stands in for the users API in the Users page's tests: one in-memory list of the users of the
 * environment "web"/"dev", most recently seen first, filtered by ?query= (id contains) and paged by
 * ?page=&pageSize=, with deletes. Handlers given to serveUsers replace the default ones.
 */

export type ApiHandler = Parameters<typeof stubApi>[0][string];

export const PROJECT = { key: 'web', name: 'Web shop' };
export const DEVELOPMENT = { key: 'dev', name: 'Development', production: false, tags: [] };
export const PRODUCTION = { key: 'production', name: 'Production', production: true, tags: [] };
export const LIST_PATH = '/api/v1/projects/web/environments/dev/users';

export const userWith = (authority: Authority) => ({ authorities: [authority] });
export const ADMIN = userWith(AUTHORITIES.ROLE_ORGANISATION_ADMIN);

const MINUTE = 60_000;

/** A reported user, last seen `minutesAgo` minutes ago. */
export function reportedUser(
  id: string,
  attributes: ReportedUser['attributes'] = {},
  minutesAgo = 3,
): ReportedUser {
  return { id, attributes, lastSeenDate: new Date(Date.now() - minutesAgo * MINUTE).toISOString() };
}

export function serveUsers(options: { users?: ReportedUser[]; handlers?: Record<string, ApiHandler> } = {}) {
  let users = [...(options.users ?? [])];
  const calls = stubApi({
    [`GET ${LIST_PATH}`]: ({ url }) => {
      const query = url.searchParams.get('query') ?? '';
      const page = Number(url.searchParams.get('page') ?? 0);
      const pageSize = Number(url.searchParams.get('pageSize') ?? 50);
      const matching = users
        .filter((user) => user.id.includes(query))
        .sort((a, b) => b.lastSeenDate.localeCompare(a.lastSeenDate));
      return jsonResponse(200, {
        content: matching.slice(page * pageSize, (page + 1) * pageSize),
        last: (page + 1) * pageSize >= matching.length,
        page,
        pageSize,
        totalElements: matching.length,
      });
    },
    ...Object.fromEntries(
      (options.users ?? []).map((user) => [
        `DELETE ${LIST_PATH}/${encodeURIComponent(user.id)}`,
        (() => {
          users = users.filter((other) => other.id !== user.id);
          return new Response(null, { status: 204 });
        }) satisfies ApiHandler,
      ]),
    ),
    ...options.handlers,
  });
  return { calls };
}

/** The query parameters of the list requests made so far. */
export function listRequests(calls: { method: string; path: string }[]): URLSearchParams[] {
  return calls
    .filter((call) => call.method === 'GET' && call.path.startsWith(LIST_PATH))
    .map((call) => new URL(call.path, 'http://localhost').searchParams);
}

/** Renders the Users page with the modal stack and toasts, at /…/users plus `search`. */
export function renderUsersPage(props: Partial<UsersPageProps> = {}, search = '') {
  const queryClient = createTestQueryClient();
  const router = createMemoryRouter(
    [
      {
        path: '/projects/:projectKey/environments/:environmentKey/users',
        element: <UsersPage project={PROJECT} environment={DEVELOPMENT} user={ADMIN} {...props} />,
      },
    ],
    { initialEntries: [`/projects/web/environments/dev/users${search}`] },
  );
  const result = render(
    <Providers queryClient={queryClient}>
      <ModalsProvider>
        <Notifications />
        <RouterProvider router={router} />
      </ModalsProvider>
    </Providers>,
  );
  return { ...result, router, queryClient, user: userEvent.setup() };
}

export function resetOverlays(): void {
  notifications.clean();
  closeAllModals();
}
