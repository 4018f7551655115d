import { notifications } from '@mantine/notifications';
import type { InitialPayload, InvitesResult, TeamMember } from '@vexil/core';
import { closeAllModals } from '../lib/modals';
import { initialPayload, jsonResponse, renderRoute, stubApi } from './test-utils';
import { TeamAdmin } from '../features/team/components/team-admin';

export type ApiHandler = Parameters<typeof stubApi>[0][string];

const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

/** A row of GET /api/v1/users. */
export function teamMember(overrides: Partial<TeamMember> & Pick<TeamMember, 'email'>): TeamMember {
  const firstName = overrides.firstName ?? '';
  const lastName = overrides.lastName ?? '';
  const authority = overrides.authority === undefined ? 'ROLE_ORGANISATION_EDITOR' : overrides.authority;
  const activated = overrides.activated ?? true;
  return {
    id: uuid(500),
    fullName: `${firstName} ${lastName}`.trim(),
    authorities: authority ? [authority] : [],
    hash: '',
    settings: { introReadDate: null },
    login: overrides.email,
    userHash: '',
    langKey: 'en',
    activatedDate: activated ? '2026-01-01T00:00:00.000Z' : null,
    invitationExpiresDate: activated ? null : '2026-01-08T00:00:00.000Z',
    ...overrides,
    firstName,
    lastName,
    authority,
    activated,
  };
}

/** The demo admin (the signed-in user of `initialPayload()`), an editor and a pending invitation. */
export function sampleTeam(): TeamMember[] {
  return [
    teamMember({
      id: uuid(1),
      email: 'admin@example.com',
      firstName: 'Demo',
      lastName: 'Admin',
      authority: 'ROLE_ORGANISATION_ADMIN',
    }),
    teamMember({ id: uuid(501), email: 'grace@example.com', firstName: 'Grace', lastName: 'Hopper' }),
    teamMember({
      id: uuid(502),
      email: 'ada@example.com',
      authority: 'ROLE_ORGANISATION_READONLY_USER',
      activated: false,
    }),
  ];
}

/** An answer of POST /api/v1/invites for these addresses. */
export function invitesResult(emails: string[], mail: InvitesResult['mail'], message: string): InvitesResult {
  return {
    mail,
    message,
    invitations: emails.map((email, index) => ({
      id: uuid(600 + index),
      email,
      resent: false,
      mail,
      link: mail === 'sent' ? null : `http://localhost:3000/invited/vxi_key${index}`,
      expiresDate: '2026-01-08T00:00:00.000Z',
    })),
  };
}

/**
 * Stands in for the team API: GET /api/v1/initial answers the payload and GET /api/v1/users the
 * state's members, which the test's handlers may change (`state.members = ...`).
 */
export function serveTeam(
  options: { payload?: InitialPayload; members?: TeamMember[]; handlers?: Record<string, ApiHandler> } = {},
) {
  const payload = options.payload ?? initialPayload();
  const state = { members: options.members ?? sampleTeam() };
  const calls = stubApi({
    'GET /api/v1/initial': () => jsonResponse(200, payload),
    'GET /api/v1/users': () => jsonResponse(200, state.members),
    ...options.handlers,
  });
  return { calls, state };
}

/** Team Management at /admin/users, as the admin page mounts it. */
export function renderTeamAdmin() {
  return renderRoute({ path: 'admin/users', element: <TeamAdmin /> }, '/admin/users');
}

/** Toasts and the modal stack outlive a rendered tree; each test starts without them. */
export function resetOverlays(): void {
  notifications.clean();
  closeAllModals();
}
