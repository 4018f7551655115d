import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { FREE_PLAN_LIMITS } from '@vexil/core';
import { initialPayload, jsonResponse, trialSubscription } from '../../../testing/test-utils';
import { invitesResult, renderTeamAdmin, resetOverlays, serveTeam } from '../../../testing/team-test-server';

async function openInvite() {
  const user = userEvent.setup();
  await user.click(await screen.findByRole('button', { name: 'Invite Users' }));
  const dialog = await screen.findByRole('dialog', { name: 'Invite Users' });
  return { user, dialog };
}

const field = (dialog: HTMLElement, name: string) =>
  within(dialog).getByRole('textbox', { name: new RegExp(`^${name}`) }) as HTMLInputElement;

describe('Invite Users', () => {
  afterEach(() => {
    resetOverlays();
    vi.unstubAllGlobals();
  });

  it('adds and removes rows, and keeps at least one', async () => {
    serveTeam();
    renderTeamAdmin();
    const { user, dialog } = await openInvite();
    expect(within(dialog).getByRole('button', { name: 'Remove invitation 1' }).hasAttribute('disabled')).toBe(
      true,
    );
    await user.click(within(dialog).getByRole('button', { name: 'Add another' }));
    await user.click(within(dialog).getByRole('button', { name: 'Add another' }));
    expect(within(dialog).getAllByRole('textbox', { name: /^Email \d/ })).toHaveLength(3);
    await user.type(field(dialog, 'Email 2'), 'second@example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Remove invitation 1' }));
    await user.click(within(dialog).getByRole('button', { name: 'Remove invitation 1' }));
    const remaining = within(dialog).getAllByRole('textbox', { name: /^Email/ }) as HTMLInputElement[];
    expect(remaining.map((input) => input.value)).toEqual(['']);
    expect(within(dialog).getByRole('button', { name: 'Remove invitation 1' }).hasAttribute('disabled')).toBe(
      true,
    );
  });

  it('requires a valid e-mail on each row ("Required", "Email must be valid"); names are optional', async () => {
    const { calls } = serveTeam();
    renderTeamAdmin();
    const { user, dialog } = await openInvite();
    await user.click(within(dialog).getByRole('button', { name: 'Add another' }));
    await user.type(field(dialog, 'Email 2'), 'not-an-email');
    await user.click(within(dialog).getByRole('button', { name: 'Send Invitations' }));
    expect(await within(dialog).findByText('Required')).toBeVisible();
    expect(within(dialog).getByText('Email must be valid')).toBeVisible();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('sends the rows and says "Invitations sent." when every e-mail went out', async () => {
    const { calls, state } = serveTeam({
      handlers: {
        'POST /api/v1/invites': () =>
          jsonResponse(
            201,
            invitesResult(['ada@example.com', 'bob@example.com'], 'sent', 'Invitations sent.'),
          ),
      },
    });
    state.members = state.members.slice(0, 2);
    renderTeamAdmin();
    const { user, dialog } = await openInvite();
    await user.type(field(dialog, 'Email'), 'ada@example.com');
    await user.type(field(dialog, 'First name'), 'Ada');
    await user.type(field(dialog, 'Last name'), 'Lovelace');
    await user.click(within(dialog).getByRole('button', { name: 'Add another' }));
    await user.type(field(dialog, 'Email 2'), 'bob@example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Send Invitations' }));
    expect(await screen.findByText('Invitations sent.')).toBeVisible();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual([
      { email: 'ada@example.com', firstName: 'Ada', lastName: 'Lovelace' },
      { email: 'bob@example.com', firstName: '', lastName: '' },
    ]);
    // The list is loaded again.
    expect(calls.filter((c) => c.method === 'GET' && c.path === '/api/v1/users').length).toBeGreaterThan(1);
  });

  it('shows the links to copy, with the notice, when mail is not configured', async () => {
    const message = 'Mail is not configured on this server (SMTP_URL), so no invitation was e-mailed.';
    serveTeam({
      handlers: {
        'POST /api/v1/invites': () =>
          jsonResponse(201, invitesResult(['ada@example.com'], 'not_configured', message)),
      },
    });
    renderTeamAdmin();
    const { user, dialog } = await openInvite();
    await user.type(field(dialog, 'Email'), 'ada@example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Send Invitations' }));
    expect(await within(dialog).findByText(message)).toBeVisible();
    expect(within(dialog).getByText('Mail is not configured')).toBeVisible();
    const link = within(dialog).getByRole('textbox', {
      name: 'Invitation link for ada@example.com',
    }) as HTMLInputElement;
    expect(link.value).toBe('http://localhost:3000/invited/vxi_key0');
    expect(link.readOnly).toBe(true);
    expect(within(dialog).getByRole('button', { name: 'Copy link for ada@example.com' })).toBeVisible();
    expect(screen.queryByText('Invitations sent.')).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('says which e-mails failed, with their links', async () => {
    const message = '1 of 1 invitation e-mail(s) could not be sent: the mail server could not be reached.';
    serveTeam({
      handlers: {
        'POST /api/v1/invites': () =>
          jsonResponse(201, invitesResult(['ada@example.com'], 'failed', message)),
      },
    });
    renderTeamAdmin();
    const { user, dialog } = await openInvite();
    await user.type(field(dialog, 'Email'), 'ada@example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Send Invitations' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert.textContent).toContain(message);
    expect(
      within(dialog).getByRole('textbox', { name: 'Invitation link for ada@example.com' }),
    ).toBeVisible();
  });

  it("shows a refusal the row's e-mail says once, under that e-mail", async () => {
    const title = 'grace@example.com is already a member of this organisation.';
    serveTeam({
      handlers: {
        'POST /api/v1/invites': () =>
          jsonResponse(409, { title, errors: [{ field: '1.email', message: title }], code: 'conflict' }),
      },
    });
    renderTeamAdmin();
    const { user, dialog } = await openInvite();
    await user.type(field(dialog, 'Email'), 'new@example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Add another' }));
    await user.type(field(dialog, 'Email 2'), 'grace@example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Send Invitations' }));
    const email2 = field(dialog, 'Email 2');
    await waitFor(() => expect(email2.getAttribute('aria-invalid')).toBe('true'));
    expect(within(dialog).getAllByText(title)).toHaveLength(1);
    expect(within(dialog).queryByRole('alert')).toBeNull();
    expect(screen.getByRole('dialog', { name: 'Invite Users' })).toBeVisible();
  });

  it('adds no more rows than the seats left', async () => {
    serveTeam({
      payload: initialPayload({
        subscription: {
          ...trialSubscription(0, false),
          limits: { ...FREE_PLAN_LIMITS, maxOrganisationUsers: 5 },
        },
      }),
    });
    renderTeamAdmin();
    const { user, dialog } = await openInvite();
    const add = within(dialog).getByRole('button', { name: 'Add another' });
    await user.click(add);
    expect(add.hasAttribute('disabled')).toBe(true);
    expect(within(dialog).getByText('2 seats are left.')).toBeVisible();
  });
});
