import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { jsonResponse } from '../../../testing/test-utils';
import { payloadFor } from '../../../testing/test-fixtures';
import {
  ALAN,
  GRACE,
  MOBILE_ID,
  WEB_ID,
  renderRolesAdmin,
  resetOverlays,
  roleFixture,
  serveRoles,
} from '../../../testing/roles-test-server';

const SLOW = { timeout: 5000 };

const releaseManagers = roleFixture(1, {
  name: 'Release managers',
  description: 'Switch features outside production',
  grants: [
    {
      actions: ['update'],
      resources: ['featureControl'],
      projects: [WEB_ID],
      environments: { kind: 'nonProduction' },
    },
    {
      actions: ['create', 'delete'],
      resources: ['segment', 'target'],
      projects: null,
      environments: { kind: 'tagged', tags: ['eu', 'us'] },
    },
  ],
  members: [{ id: GRACE.id, name: 'Grace Hopper' }],
});
const auditors = roleFixture(2, { name: 'Auditors' });

const customTable = () => screen.getByRole('table', { name: 'Custom roles' });
const rowOf = (name: string) => within(customTable()).getByText(name).closest('tr')!;

describe('Role Management', () => {
  afterEach(() => {
    resetOverlays();
    vi.unstubAllGlobals();
  });

  it('shows the built-in roles read-only, then each custom role with its grants and members', async () => {
    serveRoles({ roles: [releaseManagers, auditors] });
    renderRolesAdmin();
    expect(await screen.findByRole('heading', { name: 'Role Management' }, SLOW)).toBeVisible();

    const builtIn = await screen.findByRole('table', { name: 'Built-in roles' }, SLOW);
    const builtInRows = within(builtIn).getAllByRole('row').slice(1);
    expect(builtInRows.map((row) => within(row).getAllByRole('cell')[0]!.textContent)).toEqual([
      'Organisation admin',
      'Production editor',
      'Non-Production editor',
      'Read-only user',
    ]);
    expect(builtInRows[3]!.textContent).toContain('changes nothing, unless a custom role grants it');
    expect(within(builtIn).queryByRole('button')).toBeNull();

    await screen.findByText('Release managers', {}, SLOW);
    expect(
      within(customTable())
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Name', 'Grants', 'Members', 'Actions']);
    const release = within(rowOf('Release managers'));
    expect(release.getByText('Switch features outside production')).toBeVisible();
    expect(release.getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'Update feature controls in Web shop, non-production environments',
      'Create and Delete segments and targets in all projects, environments tagged eu or us',
    ]);
    expect(release.getByText('1 member')).toBeVisible();
    expect(release.getByText('Grace Hopper')).toBeVisible();
    const audit = within(rowOf('Auditors'));
    expect(audit.getByText('Grants nothing yet.')).toBeVisible();
    expect(audit.getByText('Nobody holds it yet.')).toBeVisible();
    for (const label of ['Members of Auditors', 'Edit Auditors', 'Delete Auditors'])
      expect(audit.getByRole('button', { name: label })).toBeVisible();
  });

  it('says there are no custom roles yet, with New Role', async () => {
    serveRoles();
    renderRolesAdmin();
    expect(await screen.findByText('No custom roles yet.', {}, SLOW)).toBeVisible();
    expect(screen.getAllByRole('button', { name: 'New Role' })).toHaveLength(2);
  });

  it('tells anyone but an organisation admin that only they manage roles', async () => {
    serveRoles({ payload: payloadFor('ROLE_ORGANISATION_PROD_EDITOR') });
    renderRolesAdmin();
    expect(await screen.findByText('Only organisation admins may manage roles.', {}, SLOW)).toBeVisible();
    expect(screen.queryByRole('button', { name: 'New Role' })).toBeNull();
  });

  it('deletes a role after a confirmation: "Role has been deleted"', async () => {
    const { calls } = serveRoles({ roles: [auditors] });
    const user = userEvent.setup();
    renderRolesAdmin();
    await user.click(await screen.findByRole('button', { name: 'Delete Auditors' }, SLOW));
    const dialog = await screen.findByRole('dialog', { name: 'Delete Role' });
    expect(dialog.textContent).toContain('Delete the role "Auditors"?');
    await user.click(within(dialog).getByRole('button', { name: 'Delete role' }));
    expect(await screen.findByText('Role has been deleted', {}, SLOW)).toBeVisible();
    expect(calls.some((c) => c.method === 'DELETE' && c.path === `/api/v1/roles/${auditors.id}`)).toBe(true);
    expect(await screen.findByText('No custom roles yet.', {}, SLOW)).toBeVisible();
  });

  it('says "There was an error deleting the role" with the members who hold it', async () => {
    serveRoles({ roles: [releaseManagers] });
    const user = userEvent.setup();
    renderRolesAdmin();
    await user.click(await screen.findByRole('button', { name: 'Delete Release managers' }, SLOW));
    const dialog = await screen.findByRole('dialog', { name: 'Delete Role' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete role' }));
    expect(await screen.findByText('There was an error deleting the role', {}, SLOW)).toBeVisible();
    expect(
      screen.getByText(
        'The role "Release managers" is held by Grace Hopper. Take it from them before deleting it.',
      ),
    ).toBeVisible();
    expect(rowOf('Release managers')).toBeVisible();
  });

  it('gives a role to active members, who are the only ones offered', async () => {
    const { calls } = serveRoles({ roles: [releaseManagers] });
    const user = userEvent.setup();
    renderRolesAdmin();
    await user.click(await screen.findByRole('button', { name: 'Members of Release managers' }, SLOW));
    const dialog = await screen.findByRole('dialog', { name: 'Members of Release managers' });
    const select = within(dialog).getByRole('combobox', { name: 'Members' });
    await waitFor(() => expect((select as HTMLInputElement).disabled).toBe(false), SLOW);
    await user.click(select);
    expect(screen.queryByRole('option', { name: /Pending Person/ })).toBeNull();
    await user.click(await screen.findByRole('option', { name: 'Alan Turing (alan@example.com)' }, SLOW));
    await user.click(within(dialog).getByRole('button', { name: 'Save Members' }));

    expect(await screen.findByText('Members of Release managers saved.', {}, SLOW)).toBeVisible();
    const put = calls.find((c) => c.method === 'PUT' && c.path.endsWith('/members'));
    expect(put?.body).toEqual({ userIds: [GRACE.id, ALAN.id] });
    await waitFor(() => expect(within(rowOf('Release managers')).getByText('2 members')).toBeVisible(), SLOW);
  });

  it('shows a failed load in place, with Retry', async () => {
    let fail = true;
    serveRoles({
      handlers: {
        'GET /api/v1/roles': () =>
          fail
            ? jsonResponse(500, { title: 'Something went wrong on our side.' })
            : jsonResponse(200, [auditors]),
      },
    });
    const user = userEvent.setup();
    renderRolesAdmin();
    const alert = (await screen.findByText('We could not load the roles.', {}, SLOW)).closest<HTMLElement>(
      '[role="alert"]',
    )!;
    expect(alert.textContent).toContain('Something went wrong on our side.');
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('Auditors', {}, SLOW)).toBeVisible();
  });

  it('names a project the role lists but the organisation no longer has "a deleted project"', async () => {
    serveRoles({
      roles: [
        roleFixture(3, {
          name: 'Mobile',
          grants: [
            {
              actions: ['update'],
              resources: ['feature'],
              projects: [MOBILE_ID, '00000000-0000-4000-8000-0000000000ff'],
              environments: { kind: 'all' },
            },
          ],
        }),
      ],
    });
    renderRolesAdmin();
    expect(
      await screen.findByText(
        'Update features in Mobile app and a deleted project, all environments',
        {},
        SLOW,
      ),
    ).toBeVisible();
  });
});
