import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { DEFAULT_APPROVAL_SETTINGS, type ApprovalSettings } from '@vexil/core';
import { initialPayload, jsonResponse } from '../../../testing/test-utils';
import { resetOverlays, serveProjects } from '../../../testing/projects-test-server';
import {
  renderChangeRequests,
  renderProjectAdminPage,
  serveChangeRequests,
} from '../../../testing/change-requests-test-server';

const SETTINGS = '/api/v1/projects/web/environments/production/approval-settings';

function renderAdmin() {
  const stored: Record<string, ApprovalSettings> = {};
  const { calls } = serveProjects({
    handlers: {
      [`GET ${SETTINGS}`]: () => jsonResponse(200, stored.production ?? DEFAULT_APPROVAL_SETTINGS),
      'GET /api/v1/projects/web/environments/dev/approval-settings': () =>
        jsonResponse(200, DEFAULT_APPROVAL_SETTINGS),
      [`PUT ${SETTINGS}`]: ({ body }) => {
        stored.production = body as ApprovalSettings;
        return jsonResponse(200, body);
      },
    },
  });
  renderProjectAdminPage('/admin/projects/web');
  return { calls, user: userEvent.setup() };
}

describe('Approval settings', () => {
  afterEach(() => {
    resetOverlays();
    vi.unstubAllGlobals();
  });

  it('validates and saves an environment’s settings from Admin › Projects', async () => {
    const { calls, user } = renderAdmin();
    const section = await screen.findByRole('region', { name: 'Change requests' });
    const production = within(section).getByText('Production').closest('li')!;
    expect(await within(production).findByText('Direct changes')).toBeVisible();

    await user.click(within(production).getByRole('button', { name: 'Approval settings of Production' }));
    const dialog = await screen.findByRole('dialog', { name: 'Approval settings of Production' });
    const save = await within(dialog).findByRole('button', { name: 'Save approval settings' });
    expect(save).toBeDisabled();

    await user.click(within(dialog).getByRole('switch', { name: /Require change requests/ }));
    expect(save).toBeEnabled();
    const minimum = within(dialog).getByRole('textbox', { name: /Minimum approvals/ });
    await user.clear(minimum);
    await user.type(minimum, '7');
    await user.click(save);
    expect(await within(dialog).findByText('At most 5 approvals may be asked for.')).toBeVisible();
    await user.clear(minimum);
    expect(await within(dialog).findByText('Enter a number of approvals from 1 to 5.')).toBeVisible();
    expect(calls.filter((call) => call.method === 'PUT')).toEqual([]);

    await user.type(minimum, '2');
    await user.click(
      within(dialog).getByRole('switch', { name: /Apply automatically on the last approval/ }),
    );
    await user.click(save);

    expect(await screen.findByText('Approval settings saved.')).toBeVisible();
    expect(calls.find((call) => call.method === 'PUT')).toMatchObject({
      path: SETTINGS,
      body: {
        required: true,
        minApprovals: 2,
        allowSelfApproval: false,
        resetApprovalsOnChange: true,
        autoApply: true,
      },
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await within(production).findByText('Change requests required')).toBeVisible();
    expect(within(production).getByText('2 approvals')).toBeVisible();
  });

  it('shows production editors the settings without letting them change them', async () => {
    const payload = initialPayload();
    payload.principalUser.authorities = ['ROLE_ORGANISATION_PROD_EDITOR'];
    const { calls } = serveChangeRequests({
      payload,
      settings: { production: { ...DEFAULT_APPROVAL_SETTINGS, required: true, minApprovals: 3 } },
    });
    renderChangeRequests('/projects/web/environments/production/change-requests', payload);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Approval settings' }));

    const dialog = await screen.findByRole('dialog', { name: 'Approval settings of Production' });
    expect(
      await within(dialog).findByText('Only organisation admins can change approval settings.'),
    ).toBeVisible();
    expect(within(dialog).getByRole('switch', { name: /Require change requests/ })).toBeChecked();
    expect(within(dialog).getByRole('switch', { name: /Require change requests/ })).toBeDisabled();
    expect(within(dialog).getByRole('textbox', { name: /Minimum approvals/ })).toHaveValue('3');
    expect(within(dialog).queryByRole('button', { name: 'Save approval settings' })).toBeNull();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.filter((call) => call.method === 'PUT')).toEqual([]);
  });
});
