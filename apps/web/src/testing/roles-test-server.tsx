import { notifications } from '@mantine/notifications';
import {
  AUTHORITY_OPTIONS,
  roleNameTakenMessage,
  type InitialPayload,
  type Role,
  type RoleInput,
  type TeamMember,
} from '@vexil/core';
import { closeAllModals } from '../lib/modals';
import { initialPayload, jsonResponse, renderRoute, stubApi } from './test-utils';
import { RolesAdmin } from '../features/roles/components/roles-admin';

/*
 * Stands in for the roles API in Role Management's tests: the built-in authorities, custom roles in
 * memory (names unique without case, deletion refused while someone holds the role) and the team's
 * members to give them to. Handlers given to serveRoles replace the default ones.
 */

export type ApiHandler = Parameters<typeof stubApi>[0][string];

const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

/** The project of the test payload ("Web shop") and one more, "Mobile app". */
export const WEB_ID = initialPayload().projects[0]!.id;
export const MOBILE_ID = uuid(4);

export function payloadWithTwoProjects(): InitialPayload {
  const payload = initialPayload();
  const web = payload.projects[0]!;
  return {
    ...payload,
    projects: [
      ...payload.projects,
      { ...web, id: MOBILE_ID, name: 'Mobile app', key: 'mob', environments: [] },
    ],
  };
}

export function member(n: number, firstName: string, lastName: string, activated = true): TeamMember {
  const email = `${firstName.toLowerCase()}@example.com`;
  return {
    id: uuid(800 + n),
    email,
    firstName,
    lastName,
    fullName: `${firstName} ${lastName}`,
    authority: 'ROLE_ORGANISATION_READONLY_USER',
    authorities: ['ROLE_ORGANISATION_READONLY_USER'],
    activated,
    hash: '',
    settings: { introReadDate: null },
    login: email,
    userHash: '',
    langKey: 'en',
    activatedDate: activated ? '2026-01-01T00:00:00.000Z' : null,
    invitationExpiresDate: activated ? null : '2026-01-08T00:00:00.000Z',
  };
}

export const GRACE = member(1, 'Grace', 'Hopper');
export const ALAN = member(2, 'Alan', 'Turing');
export const PENDING = member(3, 'Pending', 'Person', false);

export function roleFixture(n: number, overrides: Partial<Role> = {}): Role {
  return {
    id: uuid(900 + n),
    name: `Role ${n}`,
    description: '',
    grants: [],
    members: [],
    ...overrides,
  };
}

export function serveRoles(
  options: {
    roles?: Role[];
    payload?: InitialPayload;
    members?: TeamMember[];
    handlers?: Record<string, ApiHandler>;
  } = {},
) {
  const state = { roles: [...(options.roles ?? [])] };
  const members = options.members ?? [GRACE, ALAN, PENDING];
  let created = 0;
  const nameOf = (id: string) => {
    const found = members.find((m) => m.id === id)!;
    return `${found.firstName} ${found.lastName}`;
  };
  const handlers: Record<string, ApiHandler> = {
    'GET /api/v1/initial': () => jsonResponse(200, options.payload ?? payloadWithTwoProjects()),
    'GET /api/v1/iam/authorities': () => jsonResponse(200, AUTHORITY_OPTIONS),
    'GET /api/v1/roles': () =>
      jsonResponse(
        200,
        [...state.roles].sort((a, b) => a.name.toLowerCase().localeCompare(b.name.toLowerCase())),
      ),
    'GET /api/v1/users': () => jsonResponse(200, members),
    'PUT /api/v1/roles': ({ body }) => {
      const input = body as RoleInput;
      if (state.roles.some((r) => r.id !== input.id && r.name.toLowerCase() === input.name.toLowerCase())) {
        const title = roleNameTakenMessage(input.name);
        return jsonResponse(409, { title, errors: [{ field: 'name', message: title }] });
      }
      const before = state.roles.find((r) => r.id === input.id);
      created += 1;
      const role: Role = {
        id: input.id ?? uuid(950 + created),
        name: input.name,
        description: input.description ?? '',
        grants: input.grants ?? [],
        members: before?.members ?? [],
      };
      state.roles = [...state.roles.filter((r) => r.id !== role.id), role];
      return jsonResponse(before ? 200 : 201, role);
    },
    ...options.handlers,
  };
  const calls = stubApi(
    new Proxy(handlers, {
      // Each role's DELETE and members PUT, whatever roles the test creates.
      get(target, key: string) {
        if (key in target) return target[key];
        const deleting = /^DELETE \/api\/v1\/roles\/([^/]+)$/.exec(key);
        if (deleting) {
          return () => {
            const role = state.roles.find((r) => r.id === deleting[1]);
            if (!role) return jsonResponse(404, { title: 'Not found' });
            if (role.members.length > 0)
              return jsonResponse(409, {
                title: `The role "${role.name}" is held by ${role.members.map((m) => m.name).join(', ')}. Take it from them before deleting it.`,
              });
            state.roles = state.roles.filter((r) => r !== role);
            return new Response(null, { status: 204 });
          };
        }
        const assigning = /^PUT \/api\/v1\/roles\/([^/]+)\/members$/.exec(key);
        if (assigning) {
          return ({ body }: { body: unknown }) => {
            const role = state.roles.find((r) => r.id === assigning[1]);
            if (!role) return jsonResponse(404, { title: 'Not found' });
            const { userIds } = body as { userIds: string[] };
            const next = { ...role, members: userIds.map((id) => ({ id, name: nameOf(id) })) };
            state.roles = state.roles.map((r) => (r === role ? next : r));
            return jsonResponse(200, next);
          };
        }
        return undefined;
      },
    }),
  );
  return { calls, state };
}

/** Role Management at /admin/roles, as the admin page mounts it. */
export function renderRolesAdmin() {
  return renderRoute({ path: 'admin/roles', element: <RolesAdmin /> }, '/admin/roles');
}

/** Toasts and the modal stack outlive a rendered tree; each test starts without them. */
export function resetOverlays(): void {
  notifications.clean();
  closeAllModals();
}
