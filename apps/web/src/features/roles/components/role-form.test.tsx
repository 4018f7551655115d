import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { RoleInput } from '@vexil/core';
import {
  MOBILE_ID,
  WEB_ID,
  renderRolesAdmin,
  resetOverlays,
  roleFixture,
  serveRoles,
} from '../../../testing/roles-test-server';

const SLOW = { timeout: 5000 };

async function openNewRole(user: ReturnType<typeof userEvent.setup>) {
  await user.click((await screen.findAllByRole('button', { name: 'New Role' }, SLOW))[0]!);
  return screen.findByRole('dialog', { name: 'New Role' });
}

function grant(dialog: HTMLElement, n: number) {
  return within(within(dialog).getByRole('group', { name: `Grant ${n}` }));
}

async function choose(user: ReturnType<typeof userEvent.setup>, input: HTMLElement, option: string) {
  // A multi-select stays open after a choice.
  if (input.getAttribute('aria-expanded') !== 'true') await user.click(input);
  await user.click(await screen.findByRole('option', { name: option }, SLOW));
}

describe('the Update Role modal', () => {
  afterEach(() => {
    resetOverlays();
    vi.unstubAllGlobals();
  });

  it('creates a role from a name, a description and grants added and removed', async () => {
    const { calls } = serveRoles();
    const user = userEvent.setup();
    renderRolesAdmin();
    const dialog = await openNewRole(user);

    // A new role starts with one grant: switching features outside production, in every project.
    const first = grant(dialog, 1);
    expect((first.getByRole('checkbox', { name: 'Update' }) as HTMLInputElement).checked).toBe(true);
    expect(
      first.getByRole('option', { name: 'Feature controls', selected: true, hidden: true }),
    ).toBeInTheDocument();
    expect((first.getByRole('radio', { name: 'All projects' }) as HTMLInputElement).checked).toBe(true);
    expect((first.getByRole('combobox', { name: 'Environments' }) as HTMLInputElement).value).toBe(
      'Non-production only',
    );

    await user.click(within(dialog).getByRole('button', { name: 'Create Role' }));
    expect(await within(dialog).findByText('Name is required', {}, SLOW)).toBeVisible();

    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Release managers');
    await user.type(within(dialog).getByRole('textbox', { name: 'Description' }), 'Ship outside production');
    // Limit the first grant to one project.
    await user.click(first.getByRole('radio', { name: 'Chosen projects' }));
    await choose(user, first.getByRole('combobox', { name: 'Projects of grant 1' }), 'Web shop');

    // A second grant: create and delete segments in environments tagged EU West.
    await user.click(within(dialog).getByRole('button', { name: 'Add grant' }));
    const second = grant(dialog, 2);
    await user.click(second.getByRole('checkbox', { name: 'Update' }));
    await user.click(second.getByRole('checkbox', { name: 'Create' }));
    await user.click(second.getByRole('checkbox', { name: 'Delete' }));
    await choose(user, second.getByRole('combobox', { name: 'Resources' }), 'Segments');
    await choose(user, second.getByRole('combobox', { name: 'Resources' }), 'Feature controls');
    await choose(user, second.getByRole('combobox', { name: 'Environments' }), 'With tags…');
    await user.type(second.getByRole('combobox', { name: 'Tags of grant 2' }), 'EU West{Enter}');

    // A third, removed again.
    await user.click(within(dialog).getByRole('button', { name: 'Add grant' }));
    expect(within(dialog).getByRole('group', { name: 'Grant 3' })).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Remove grant 3' }));
    expect(within(dialog).queryByRole('group', { name: 'Grant 3' })).toBeNull();

    await user.click(within(dialog).getByRole('button', { name: 'Create Role' }));
    expect(await screen.findByText('Release managers saved.', {}, SLOW)).toBeInTheDocument();
    const put = calls.find((c) => c.method === 'PUT' && c.path === '/api/v1/roles');
    expect(put?.body).toEqual({
      name: 'Release managers',
      description: 'Ship outside production',
      grants: [
        {
          actions: ['update'],
          resources: ['featureControl'],
          projects: [WEB_ID],
          environments: { kind: 'nonProduction' },
        },
        {
          actions: ['create', 'delete'],
          resources: ['segment'],
          projects: null,
          environments: { kind: 'tagged', tags: ['eu-west'] },
        },
      ],
    } satisfies RoleInput);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'New Role' })).toBeNull(), SLOW);
    expect(
      await screen.findByText(
        'Create and Delete segments in all projects, environments tagged eu-west',
        {},
        SLOW,
      ),
    ).toBeInTheDocument();
  }, 20_000);

  it('says what a grant lacks under the field', async () => {
    serveRoles();
    const user = userEvent.setup();
    renderRolesAdmin();
    const dialog = await openNewRole(user);
    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'QA');
    const first = grant(dialog, 1);
    await user.click(first.getByRole('checkbox', { name: 'Update' }));
    await user.click(first.getByRole('radio', { name: 'Chosen projects' }));
    await choose(user, first.getByRole('combobox', { name: 'Environments' }), 'With tags…');
    await user.click(within(dialog).getByRole('button', { name: 'Create Role' }));
    expect(await first.findByText('Choose at least one action.', {}, SLOW)).toBeVisible();
    expect(first.getByText('Choose at least one project, or all projects.')).toBeVisible();
    expect(first.getByText('Name at least one tag.')).toBeVisible();
  });

  it('updates a role with its values filled in, and shows a name already taken on the field', async () => {
    const role = roleFixture(1, {
      name: 'Mobile testers',
      description: 'Test the app',
      grants: [
        {
          actions: ['update'],
          resources: ['feature', 'featureControl'],
          projects: [MOBILE_ID],
          environments: { kind: 'all' },
        },
      ],
    });
    const { calls } = serveRoles({ roles: [role, roleFixture(2, { name: 'Auditors' })] });
    const user = userEvent.setup();
    renderRolesAdmin();
    await user.click(await screen.findByRole('button', { name: 'Edit Mobile testers' }, SLOW));
    const dialog = await screen.findByRole('dialog', { name: 'Update Role' });
    const name = within(dialog).getByRole('textbox', { name: 'Name' }) as HTMLInputElement;
    expect(name.value).toBe('Mobile testers');
    const first = grant(dialog, 1);
    expect(
      first.getByRole('option', { name: 'Mobile app', selected: true, hidden: true }),
    ).toBeInTheDocument();
    expect((first.getByRole('combobox', { name: 'Environments' }) as HTMLInputElement).value).toBe(
      'All environments',
    );

    await user.clear(name);
    await user.type(name, 'auditors');
    await user.click(within(dialog).getByRole('button', { name: 'Update Role' }));
    expect(
      await within(dialog).findAllByText('A role named "auditors" already exists.', {}, SLOW),
    ).not.toHaveLength(0);

    await user.clear(name);
    await user.type(name, 'App testers');
    await user.click(within(dialog).getByRole('button', { name: 'Update Role' }));
    expect(await screen.findByText('App testers saved.', {}, SLOW)).toBeVisible();
    const last = calls.filter((c) => c.method === 'PUT' && c.path === '/api/v1/roles').at(-1);
    expect(last?.body).toMatchObject({ id: role.id, name: 'App testers', grants: role.grants });
  });
});
