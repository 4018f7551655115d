import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { FREE_PLAN_LIMITS } from '@vexil/core';
import { allFlagsOn, initialPayload, jsonResponse, trialSubscription } from '../../../testing/test-utils';
import { renderTeamAdmin, resetOverlays, sampleTeam, serveTeam } from '../../../testing/team-test-server';

function rowOf(email: string): HTMLElement {
  const row = screen.getByText(email).closest('tr');
  if (!row) throw new Error(`No row for ${email}`);
  return row;
}

function withSeats(limit: number) {
  return initialPayload({
    subscription: {
      ...trialSubscription(0, false),
      limits: { ...FREE_PLAN_LIMITS, maxOrganisationUsers: limit },
    },
  });
}

describe('Team Management', () => {
  afterEach(() => {
    resetOverlays();
    vi.unstubAllGlobals();
  });

  it('lists e-mail, full name, role badge and status, marking the signed-in user "(You)"', async () => {
    serveTeam();
    renderTeamAdmin();
    expect(await screen.findByRole('heading', { name: 'Team Management' })).toBeVisible();
    await screen.findByText('grace@example.com');
    expect(screen.getAllByRole('columnheader').map((th) => th.textContent)).toEqual([
      'Email',
      'Full name',
      'Role',
      'Status',
      'Actions',
    ]);

    const admin = rowOf('admin@example.com');
    expect(within(admin).getByText('(You)')).toBeVisible();
    expect(within(admin).getByText('Demo Admin')).toBeVisible();
    expect(within(admin).getByText('Organisation admin')).toBeVisible();
    expect(within(admin).getByText('Active')).toBeVisible();

    const grace = rowOf('grace@example.com');
    expect(within(grace).queryByText('(You)')).toBeNull();
    expect(within(grace).getByText('Non-Production editor')).toBeVisible();
    expect(within(grace).getByRole('button', { name: 'Edit Member grace@example.com' })).toBeVisible();
    expect(within(grace).queryByRole('button', { name: /Cancel Invite/ })).toBeNull();

    const ada = rowOf('ada@example.com');
    expect(within(ada).getByText('Invitation Pending')).toBeVisible();
    expect(within(ada).getByText('Read-only user')).toBeVisible();
    expect(within(ada).getByRole('button', { name: 'Cancel Invite to ada@example.com' })).toBeVisible();
    expect(within(ada).queryByRole('button', { name: /Edit Member/ })).toBeNull();
  });

  it('shows seat usage "n of m seats" when the plan limits seats, pending invitations included', async () => {
    serveTeam({ payload: withSeats(5) });
    renderTeamAdmin();
    expect(await screen.findByText('3 of 5 seats')).toBeVisible();
    expect(screen.getByRole('button', { name: 'Invite Users' }).hasAttribute('disabled')).toBe(false);
  });

  it('disables Invite Users once the seats are taken, saying why with an upgrade link', async () => {
    serveTeam({ payload: withSeats(3) });
    renderTeamAdmin();
    expect(await screen.findByText('3 of 3 seats')).toBeVisible();
    expect(screen.getByRole('button', { name: 'Invite Users' }).hasAttribute('disabled')).toBe(true);
    expect(screen.getByText(/Only 3 user\(s\) allowed\./)).toBeVisible();
    expect(screen.getByRole('link', { name: 'Upgrade your plan' }).getAttribute('href')).toBe(
      '/admin/billing',
    );
  });

  it('shows seat usage "n seats" without a seat limit (no subscription), pending invitations included', async () => {
    serveTeam();
    renderTeamAdmin();
    await screen.findByText('grace@example.com');
    expect(screen.getByText('3 seats')).toBeVisible();
    expect(screen.queryByText(/ of \d+ seats/)).toBeNull();
    expect(screen.getByRole('button', { name: 'Invite Users' }).hasAttribute('disabled')).toBe(false);
  });

  it("shows each member's custom roles beside the built-in role badge", async () => {
    const role = (id: number, name: string, members: { id: string; name: string }[]) => ({
      id: `00000000-0000-4000-8000-00000000090${id}`,
      name,
      description: '',
      grants: [],
      members,
    });
    const grace = { id: sampleTeam()[1]!.id, name: 'Grace Hopper' };
    const admin = { id: sampleTeam()[0]!.id, name: 'Demo Admin' };
    serveTeam({
      handlers: {
        'GET /api/v1/roles': () =>
          jsonResponse(200, [role(1, 'EU switchers', [grace]), role(2, 'Segment editors', [grace, admin])]),
      },
    });
    renderTeamAdmin();
    await screen.findByText('grace@example.com');
    const graceRow = rowOf('grace@example.com');
    expect(await within(graceRow).findByLabelText('Custom role: EU switchers')).toBeVisible();
    expect(within(graceRow).getByLabelText('Custom role: Segment editors')).toBeVisible();
    expect(within(graceRow).getByText('Non-Production editor')).toBeVisible();
    const adminRow = rowOf('admin@example.com');
    expect(within(adminRow).getByLabelText('Custom role: Segment editors')).toBeVisible();
    expect(within(adminRow).queryByLabelText('Custom role: EU switchers')).toBeNull();
    expect(within(rowOf('ada@example.com')).queryByLabelText(/Custom role/)).toBeNull();
  });

  it('shows no custom roles while roles are turned off, and does not ask for them', async () => {
    const { calls } = serveTeam({
      payload: initialPayload({ flags: { ...allFlagsOn, 'roles-admin': false } }),
    });
    renderTeamAdmin();
    await screen.findByText('grace@example.com');
    expect(screen.queryByLabelText(/Custom role/)).toBeNull();
    expect(calls.some((c) => c.path === '/api/v1/roles')).toBe(false);
  });

  it('removes a member after a confirmation: "User has been removed"', async () => {
    const { calls, state } = serveTeam({
      handlers: {
        [`DELETE /api/v1/users/${sampleTeam()[1]!.id}`]: () => {
          state.members = state.members.filter((m) => m.email !== 'grace@example.com');
          return new Response(null, { status: 204 });
        },
      },
    });
    renderTeamAdmin();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Remove grace@example.com' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove Member' });
    expect(
      within(dialog).getByText(/Remove Grace Hopper \(grace@example.com\) from the organisation\?/),
    ).toBeVisible();
    expect(
      within(dialog).getByText(/single sign-on will not let them back in unless you invite them again\./),
    ).toBeVisible();
    await user.click(within(dialog).getByRole('button', { name: 'Remove Member' }));
    expect(await screen.findByText('User has been removed')).toBeVisible();
    await waitFor(() => expect(screen.queryByText('grace@example.com')).toBeNull());
    expect(calls.filter((c) => c.method === 'DELETE')).toHaveLength(1);
  });

  it('does nothing when the confirmation is cancelled', async () => {
    const { calls } = serveTeam();
    renderTeamAdmin();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Cancel Invite to ada@example.com' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel Invite' });
    await user.click(within(dialog).getByRole('button', { name: 'Keep Invitation' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
  });

  it('cancels a pending invitation after a confirmation: "Invitation cancelled."', async () => {
    const ada = sampleTeam()[2]!;
    const { state } = serveTeam({
      handlers: {
        [`DELETE /api/v1/users/${ada.id}`]: () => {
          state.members = state.members.filter((m) => m.id !== ada.id);
          return new Response(null, { status: 204 });
        },
      },
    });
    renderTeamAdmin();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Cancel Invite to ada@example.com' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel Invite' });
    expect(
      within(dialog).getByText('Cancel the invitation of ada@example.com? Its link stops working.'),
    ).toBeVisible();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel Invite' }));
    expect(await screen.findByText('Invitation cancelled.')).toBeVisible();
    expect(screen.queryByText('User has been removed')).toBeNull();
    await waitFor(() => expect(screen.queryByText('ada@example.com')).toBeNull());
  });

  it('says "There was an error deleting the user" with the reason when the server refuses', async () => {
    serveTeam({
      handlers: {
        [`DELETE /api/v1/users/${sampleTeam()[1]!.id}`]: () =>
          jsonResponse(409, { title: 'The organisation must keep at least one organisation admin.' }),
      },
    });
    renderTeamAdmin();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Remove grace@example.com' }));
    await user.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Remove Member' }),
    );
    expect(await screen.findByText('There was an error deleting the user')).toBeVisible();
    expect(screen.getByText('The organisation must keep at least one organisation admin.')).toBeVisible();
    expect(screen.getByText('grace@example.com')).toBeVisible();
  });

  it('does not let users remove themselves, and says why', async () => {
    serveTeam();
    renderTeamAdmin();
    const remove = await screen.findByRole('button', { name: 'Remove admin@example.com' });
    expect(remove.hasAttribute('disabled')).toBe(true);
    expect(screen.getByLabelText('You cannot remove yourself from the organisation.')).toBeVisible();
  });

  it('resends a pending invitation', async () => {
    const { calls } = serveTeam({
      handlers: {
        'POST /api/v1/invites': () =>
          jsonResponse(201, {
            mail: 'sent',
            message: 'Invitations sent.',
            invitations: [
              {
                id: sampleTeam()[2]!.id,
                email: 'ada@example.com',
                resent: true,
                mail: 'sent',
                link: null,
                expiresDate: '2026-01-08T00:00:00.000Z',
              },
            ],
          }),
      },
    });
    renderTeamAdmin();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Resend Invite to ada@example.com' }));
    expect(await screen.findByText('Invitation sent again to ada@example.com.')).toBeVisible();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual([
      { email: 'ada@example.com', firstName: '', lastName: '' },
    ]);
  });

  it('opens Update User for an active member', async () => {
    serveTeam();
    renderTeamAdmin();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Edit Member grace@example.com' }));
    const dialog = await screen.findByRole('dialog', { name: 'Update User' });
    expect((within(dialog).getByRole('textbox', { name: /^Email/ }) as HTMLInputElement).value).toBe(
      'grace@example.com',
    );
  });

  it('says when the team could not be loaded, with Retry', async () => {
    serveTeam({ handlers: { 'GET /api/v1/users': () => jsonResponse(500, { title: 'Boom' }) } });
    renderTeamAdmin();
    expect(await screen.findByText('We could not load the team.')).toBeVisible();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeVisible();
  });

  it('tells a user who is not an organisation admin that the team is for admins', async () => {
    const payload = initialPayload();
    payload.principalUser.authorities = ['ROLE_ORGANISATION_EDITOR'];
    const { calls } = serveTeam({ payload });
    renderTeamAdmin();
    expect(await screen.findByText('Only organisation admins may manage the team.')).toBeVisible();
    expect(calls.some((c) => c.path.startsWith('/api/v1/users'))).toBe(false);
  });

  it('shows each member as a card on a phone', async () => {
    vi.spyOn(window, 'matchMedia').mockImplementation(
      (query: string) =>
        ({
          matches: query.includes('max-width'),
          media: query,
          onchange: null,
          addListener: () => undefined,
          removeListener: () => undefined,
          addEventListener: () => undefined,
          removeEventListener: () => undefined,
          dispatchEvent: () => false,
        }) as MediaQueryList,
    );
    serveTeam();
    renderTeamAdmin();
    const list = await screen.findByRole('list', { name: 'Members' });
    expect(screen.queryByRole('table')).toBeNull();
    const cards = within(list).getAllByRole('listitem');
    expect(cards).toHaveLength(3);
    expect(within(cards[2]!).getByText('Invitation Pending')).toBeVisible();
    expect(within(cards[2]!).getByRole('button', { name: 'Cancel Invite to ada@example.com' })).toBeVisible();
    vi.restoreAllMocks();
  });
});
