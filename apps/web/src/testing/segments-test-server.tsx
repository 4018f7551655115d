import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ModalsProvider } from '@mantine/modals';
import { Notifications, notifications } from '@mantine/notifications';
import { createMemoryRouter, Outlet, RouterProvider } from 'react-router';
import { closeAllModals } from '../lib/modals';
import { createTestQueryClient, jsonResponse, Providers, stubApi } from './test-utils';
import { AUTHORITIES, normaliseSegmentKey, type Authority, type Segment } from '@vexil/core';
import { SegmentsPage, type SegmentsPageProps } from '../features/segments/components/segments-page';

/*
 * Stands in for the segments API in the Segments page's tests: one in-memory list of segments of the
 * environment "web"/"dev", listed by name and filtered by ?query=, with creates (cleaned, unique keys),
 * updates and deletes. Handlers given to serveSegments replace the default ones.
 */

export type ApiHandler = Parameters<typeof stubApi>[0][string];

export const PROJECT = { key: 'web', name: 'Web shop' };
export const DEVELOPMENT = { key: 'dev', name: 'Development', production: false, tags: [] };
export const PRODUCTION = { key: 'production', name: 'Production', production: true, tags: [] };
export const LIST_PATH = '/api/v2/segments/web/dev';

export const userWith = (authority: Authority) => ({ authorities: [authority] });
export const ADMIN = userWith(AUTHORITIES.ROLE_ORGANISATION_ADMIN);

let ids = 0;
const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

export function segmentFixture(name: string, overrides: Partial<Segment> = {}): Segment {
  ids += 1;
  return {
    id: uuid(5000 + ids),
    key: normaliseSegmentKey(name),
    name,
    description: '',
    projectKey: 'web',
    environmentKey: 'dev',
    lastModifiedDate: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}

type SegmentBody = Omit<Segment, 'id'> & { id?: string };

export function serveSegments(options: { segments?: Segment[]; handlers?: Record<string, ApiHandler> } = {}) {
  let segments = [...(options.segments ?? [])];
  const byName = () => [...segments].sort((a, b) => a.name.localeCompare(b.name));
  const calls = stubApi({
    [`GET ${LIST_PATH}`]: ({ url }) => {
      const query = (url.searchParams.get('query') ?? '').toLowerCase();
      return jsonResponse(
        200,
        byName().filter((s) =>
          [s.name, s.key, s.description].some((text) => text.toLowerCase().includes(query)),
        ),
      );
    },
    'POST /api/v2/segments/': ({ body }) => {
      const input = body as SegmentBody;
      const key = normaliseSegmentKey(input.key);
      if (segments.some((s) => s.key === key)) {
        const message = `A segment with the key "${key}" already exists in this environment.`;
        return jsonResponse(400, { title: message, errors: [{ field: 'key', message }] });
      }
      const { id: _id, ...fields } = input;
      const created = { ...segmentFixture(input.name), ...fields, key };
      segments.push(created);
      return jsonResponse(201, created);
    },
    'PUT /api/v2/segments/': ({ body }) => {
      const input = body as Segment;
      segments = segments.map((s) => (s.id === input.id ? { ...s, ...input } : s));
      return jsonResponse(
        200,
        segments.find((s) => s.id === input.id),
      );
    },
    ...Object.fromEntries(
      (options.segments ?? []).map((segment) => [
        `DELETE /api/v2/segments/${segment.id}`,
        (() => {
          segments = segments.filter((s) => s.id !== segment.id);
          return new Response(null, { status: 204 });
        }) satisfies ApiHandler,
      ]),
    ),
    ...options.handlers,
  });
  return { calls };
}

/**
 * Renders the Segments page with the modal stack and toasts, at /…/segments plus `search`. Both are
 * inside the router, as the app's root layout puts them, so that they can hold links.
 */
export function renderSegmentsPage(props: Partial<SegmentsPageProps> = {}, search = '') {
  const queryClient = createTestQueryClient();
  const router = createMemoryRouter(
    [
      {
        element: (
          <ModalsProvider>
            <Notifications />
            <Outlet />
          </ModalsProvider>
        ),
        children: [
          {
            path: '/projects/:projectKey/environments/:environmentKey/segments',
            element: <SegmentsPage project={PROJECT} environment={DEVELOPMENT} user={ADMIN} {...props} />,
          },
        ],
      },
    ],
    { initialEntries: [`/projects/web/environments/dev/segments${search}`] },
  );
  const result = render(
    <Providers queryClient={queryClient}>
      <RouterProvider router={router} />
    </Providers>,
  );
  return { ...result, router, queryClient, user: userEvent.setup() };
}

export function resetOverlays(): void {
  notifications.clean();
  closeAllModals();
}
