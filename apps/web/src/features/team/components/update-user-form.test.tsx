import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { TeamMember } from '@vexil/core';
import { jsonResponse } from '../../../testing/test-utils';
import { renderTeamAdmin, resetOverlays, sampleTeam, serveTeam } from '../../../testing/team-test-server';

const grace = sampleTeam()[1]!;

async function openUpdate(email: string) {
  const user = userEvent.setup();
  await user.click(await screen.findByRole('button', { name: `Edit Member ${email}` }));
  const dialog = await screen.findByRole('dialog', { name: 'Update User' });
  const text = (name: string) =>
    within(dialog).getByRole('textbox', { name: new RegExp(`^${name}`) }) as HTMLInputElement;
  return { user, dialog, text };
}

describe('Update User', () => {
  afterEach(() => {
    resetOverlays();
    vi.unstubAllGlobals();
  });

  it('shows the e-mail read-only, the names and the role', async () => {
    serveTeam();
    renderTeamAdmin();
    const { dialog, text } = await openUpdate('grace@example.com');
    expect(text('Email').readOnly).toBe(true);
    expect(text('Email').value).toBe('grace@example.com');
    expect(text('First name').value).toBe('Grace');
    expect(text('Last name').value).toBe('Hopper');
    const role = within(dialog).getByRole('combobox', { name: /^Role/ }) as HTMLInputElement;
    expect(role.value).toBe('Non-Production editor');
    expect(role.disabled).toBe(false);
  });

  it('requires the first and last names ("First name is required", "Last name is required")', async () => {
    const { calls } = serveTeam();
    renderTeamAdmin();
    const { user, dialog, text } = await openUpdate('grace@example.com');
    await user.clear(text('First name'));
    await user.clear(text('Last name'));
    await user.click(within(dialog).getByRole('button', { name: 'Update User' }));
    expect(await within(dialog).findByText('First name is required')).toBeVisible();
    expect(within(dialog).getByText('Last name is required')).toBeVisible();
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);
  });

  it('saves the names and the chosen role, never the e-mail', async () => {
    const { calls, state } = serveTeam({
      handlers: {
        'PUT /api/v1/users': ({ body }) => {
          const input = body as {
            id: string;
            firstName: string;
            lastName: string;
            authority: TeamMember['authority'];
          };
          const updated = {
            ...grace,
            ...input,
            fullName: `${input.firstName} ${input.lastName}`,
            authorities: [input.authority!],
          };
          state.members = state.members.map((m) => (m.id === updated.id ? updated : m));
          return jsonResponse(200, updated);
        },
      },
    });
    renderTeamAdmin();
    const { user, dialog, text } = await openUpdate('grace@example.com');
    await user.clear(text('First name'));
    await user.type(text('First name'), 'Amazing Grace');
    await user.click(within(dialog).getByRole('combobox', { name: /^Role/ }));
    await user.click(await screen.findByRole('option', { name: 'Production editor' }));
    await user.click(within(dialog).getByRole('button', { name: 'Update User' }));
    expect(await screen.findByText('Amazing Grace Hopper saved.')).toBeVisible();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({
      id: grace.id,
      firstName: 'Amazing Grace',
      lastName: 'Hopper',
      authority: 'ROLE_ORGANISATION_PROD_EDITOR',
    });
    expect(await screen.findByText('Production editor')).toBeVisible();
  });

  it('does not let users change their own role, and says so', async () => {
    serveTeam();
    renderTeamAdmin();
    const { dialog } = await openUpdate('admin@example.com');
    const role = within(dialog).getByRole('combobox', { name: /^Role/ }) as HTMLInputElement;
    expect(role.disabled).toBe(true);
    expect(role.value).toBe('Organisation admin');
    expect(within(dialog).getByText('You cannot change your own role.')).toBeVisible();
  });

  it('shows a refusal on the form', async () => {
    serveTeam({
      handlers: {
        'PUT /api/v1/users': () =>
          jsonResponse(409, {
            title: 'The organisation must keep at least one organisation admin.',
            code: 'conflict',
          }),
      },
    });
    renderTeamAdmin();
    const { user, dialog } = await openUpdate('grace@example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Update User' }));
    expect((await within(dialog).findByRole('alert')).textContent).toContain(
      'The organisation must keep at least one organisation admin.',
    );
    expect(screen.getByRole('dialog', { name: 'Update User' })).toBeVisible();
  });
});
