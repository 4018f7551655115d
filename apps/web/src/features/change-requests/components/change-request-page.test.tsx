import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { CHANGE_REQUEST_REFUSALS, type ChangeRequest } from '@vexil/core';
import { jsonResponse } from '../../../testing/test-utils';
import { resetOverlays } from '../../../testing/feature-list-test-server';
import {
  actionsOf,
  changeFixture,
  changeRequestFixture,
  entryFixture,
  renderChangeRequests,
  REVIEWER,
  serveChangeRequests,
  type ServeChangeRequestsOptions,
} from '../../../testing/change-requests-test-server';

const pageOf = (request: ChangeRequest) =>
  `/projects/web/environments/production/change-requests/${request.id}`;
const api = (request: ChangeRequest, action: string) =>
  `/api/v1/projects/web/change-requests/${request.id}/${action}`;
const posts = (calls: { method: string; path: string; body: unknown }[]) =>
  calls.filter((call) => call.method === 'POST').map(({ path, body }) => ({ path, body }));

async function open(request: ChangeRequest, handlers: ServeChangeRequestsOptions['handlers'] = {}) {
  const served = serveChangeRequests({ requests: [request], handlers });
  renderChangeRequests(pageOf(request));
  await screen.findByRole('heading', { name: request.title, level: 1 });
  return { ...served, user: userEvent.setup() };
}

describe('Change request page', () => {
  afterEach(() => {
    resetOverlays();
    vi.unstubAllGlobals();
  });

  it('shows the request, its changes with their conflicts, and who asked for changes', async () => {
    const request = changeRequestFixture(1, {
      state: 'suspended',
      suspendedReason: 'Rule 1 was changed by Rita Reviewer since.',
      approvals: 1,
      minApprovals: 2,
      changesRequestedBy: ['Rita Reviewer'],
      changes: [
        changeFixture(1, {
          changes: ['Turned on', 'Rule 1: serves On to everyone in Germany'],
          baseVersion: 3,
          liveVersion: 4,
          conflicts: [{ part: 'rules/0', label: 'Rule 1', base: 'DE', live: 'FR', proposed: 'AT' }],
        }),
        changeFixture(2, {
          kind: 'restore',
          resourceName: 'Search',
          featureKey: 'search',
          restoredFrom: 3,
          changes: [],
        }),
      ],
    });
    await open(request);

    expect(screen.getByText('Suspended')).toBeVisible();
    expect(screen.getByText('Rule 1 was changed by Rita Reviewer since.')).toBeVisible();
    expect(screen.getByText('1 of 2 approvals')).toBeVisible();
    expect(screen.getByText('Changes requested by Rita Reviewer.')).toBeVisible();

    const checkout = screen.getByRole('listitem', { name: 'Targeting: Checkout' });
    expect(within(checkout).getByText('Rule 1: serves On to everyone in Germany')).toBeVisible();
    expect(within(checkout).getByText('Drafted on version 3; version 4 is live now.')).toBeVisible();
    const conflict = within(checkout).getByRole('group', { name: 'Rule 1' });
    expect(within(conflict).getByText('When drafted').nextElementSibling).toHaveTextContent('"DE"');
    expect(within(conflict).getByText('Live now').nextElementSibling).toHaveTextContent('"FR"');
    expect(within(conflict).getByText('Proposed').nextElementSibling).toHaveTextContent('"AT"');

    const search = screen.getByRole('listitem', { name: 'Restore: Search' });
    expect(within(search).getByText('Restores version 3')).toBeVisible();
  });

  it('disables each button the server does not allow, with its reason', async () => {
    const request = changeRequestFixture(1, {
      actions: actionsOf({
        submit: { allowed: false, reason: CHANGE_REQUEST_REFUSALS.notInReview },
        approve: { allowed: false, reason: CHANGE_REQUEST_REFUSALS.selfApproval },
        apply: { allowed: false, reason: CHANGE_REQUEST_REFUSALS.notApproved },
      }),
    });
    const { user } = await open(request);

    const approve = screen.getByRole('button', { name: 'Approve' });
    expect(approve).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Apply' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Reject' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Cancel request' })).toBeEnabled();

    await user.hover(approve.parentElement!);
    expect(await screen.findByRole('tooltip')).toHaveTextContent(
      'You cannot approve your own change request.',
    );
    // The reason is the name of what keyboard users reach in the button's place.
    expect(screen.getByLabelText(CHANGE_REQUEST_REFUSALS.notApproved)).toContainElement(
      screen.getByRole('button', { name: 'Apply' }),
    );
  });

  it('approves through the reviews route and shows the answer', async () => {
    const request = changeRequestFixture(1);
    const approved = changeRequestFixture(1, {
      state: 'approved',
      approvals: 1,
      timeline: [...request.timeline, entryFixture(3, { kind: 'review', decision: 'approve', by: REVIEWER })],
    });
    const { calls, user } = await open(request, {
      [`POST ${api(request, 'reviews')}`]: () => jsonResponse(200, approved),
    });

    await user.click(screen.getByRole('button', { name: 'Approve' }));

    expect(await screen.findByText('Approved: the change request can be applied.')).toBeVisible();
    expect(posts(calls)).toEqual([
      { path: api(request, 'reviews'), body: { decision: 'approve', comment: '' } },
    ]);
    expect(screen.getByText('Approved', { selector: '.mantine-Badge-label' })).toBeVisible();
    expect(screen.getByText('Rita Reviewer approved')).toBeVisible();
  });

  it('asks for a comment before rejecting, then sends it', async () => {
    const request = changeRequestFixture(1);
    const rejected = changeRequestFixture(1, {
      state: 'rejected',
      actions: actionsOf({ apply: { allowed: false, reason: CHANGE_REQUEST_REFUSALS.closed } }),
      timeline: [
        ...request.timeline,
        entryFixture(3, { kind: 'review', decision: 'reject', by: REVIEWER, text: 'Not before the sale.' }),
      ],
    });
    const { calls, user } = await open(request, {
      [`POST ${api(request, 'reviews')}`]: () => jsonResponse(200, rejected),
    });

    await user.click(screen.getByRole('button', { name: 'Reject' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reject change request' });
    await user.click(within(dialog).getByRole('button', { name: 'Reject' }));
    expect(await within(dialog).findByText('Say why, for the author.')).toBeVisible();
    expect(posts(calls)).toEqual([]);

    await user.type(
      within(dialog).getByRole('textbox', { name: /Why is it rejected/ }),
      'Not before the sale.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Reject' }));

    expect(await screen.findByText('Change request rejected.')).toBeVisible();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(posts(calls)).toEqual([
      { path: api(request, 'reviews'), body: { decision: 'reject', comment: 'Not before the sale.' } },
    ]);
    expect(screen.getByText('Rita Reviewer rejected it')).toBeVisible();
    expect(screen.getByText('Not before the sale.')).toBeVisible();
    // Closed: no buttons, the reason instead.
    expect(screen.queryByRole('button', { name: 'Approve' })).toBeNull();
    expect(screen.getByText(CHANGE_REQUEST_REFUSALS.closed)).toBeVisible();
  });

  it('sends a comment with Ctrl+Enter and shows it in the timeline', async () => {
    const request = changeRequestFixture(1);
    const commented = changeRequestFixture(1, {
      timeline: [...request.timeline, entryFixture(3, { kind: 'comment', text: 'Checked on staging.' })],
    });
    const { calls, user } = await open(request, {
      [`POST ${api(request, 'comments')}`]: () => jsonResponse(200, commented),
    });

    const box = screen.getByRole('textbox', { name: 'Comment' });
    await user.click(box);
    await user.keyboard('{Control>}{Enter}{/Control}');
    expect(await screen.findByText('Write a comment first.')).toBeVisible();

    await user.type(box, 'Checked on staging.');
    await user.keyboard('{Control>}{Enter}{/Control}');

    const timeline = screen.getByRole('list', { name: 'Timeline' });
    expect(await within(timeline).findByText('Checked on staging.')).toBeVisible();
    expect(within(timeline).getByText('Demo Admin commented')).toBeVisible();
    expect(posts(calls)).toEqual([{ path: api(request, 'comments'), body: { text: 'Checked on staging.' } }]);
    await waitFor(() => expect(box).toHaveValue(''));
  });

  it('applies through the apply route and says it is applied', async () => {
    const request = changeRequestFixture(1, { state: 'approved', approvals: 1 });
    const applied = changeRequestFixture(1, {
      state: 'applied',
      approvals: 1,
      actions: actionsOf({ apply: { allowed: false, reason: CHANGE_REQUEST_REFUSALS.closed } }),
      timeline: [...request.timeline, entryFixture(3, { kind: 'applied' })],
    });
    const { calls, user } = await open(request, {
      [`POST ${api(request, 'apply')}`]: () => jsonResponse(200, applied),
    });

    await user.click(screen.getByRole('button', { name: 'Apply' }));

    expect(await screen.findByText('Change request applied.')).toBeVisible();
    expect(posts(calls)).toEqual([{ path: api(request, 'apply'), body: undefined }]);
    expect(screen.getByText('Applied', { selector: '.mantine-Badge-label' })).toBeVisible();
    expect(screen.getByText('Demo Admin applied it')).toBeVisible();
  });

  it('shows the refusal of a move the rules no longer allow, and asks again what is allowed', async () => {
    const request = changeRequestFixture(1, { state: 'approved' });
    const { calls, user } = await open(request, {
      [`POST ${api(request, 'apply')}`]: () =>
        jsonResponse(409, { title: CHANGE_REQUEST_REFUSALS.notApproved, code: 'conflict' }),
    });

    await user.click(screen.getByRole('button', { name: 'Apply' }));

    expect(await screen.findByText(CHANGE_REQUEST_REFUSALS.notApproved)).toBeVisible();
    await waitFor(() =>
      expect(
        calls.filter((call) => call.path === `/api/v1/projects/web/change-requests/${request.id}`),
      ).toHaveLength(2),
    );
  });

  it('cancels only once confirmed', async () => {
    const request = changeRequestFixture(1);
    const cancelled = changeRequestFixture(1, { state: 'cancelled' });
    const { calls, user } = await open(request, {
      [`POST ${api(request, 'cancel')}`]: () => jsonResponse(200, cancelled),
    });

    await user.click(screen.getByRole('button', { name: 'Cancel request' }));
    let dialog = await screen.findByRole('dialog', { name: 'Cancel change request' });
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(posts(calls)).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Cancel request' }));
    dialog = await screen.findByRole('dialog', { name: 'Cancel change request' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel request' }));

    expect(await screen.findByText('Change request cancelled.')).toBeVisible();
    expect(posts(calls)).toEqual([{ path: api(request, 'cancel'), body: undefined }]);
  });

  it('previews what a user is served now and after', async () => {
    const request = changeRequestFixture(1);
    const { calls, user } = await open(request, {
      [`POST ${api(request, 'preview')}`]: () =>
        jsonResponse(200, {
          features: [
            {
              featureKey: 'checkout',
              featureName: 'Checkout',
              before: { variantKey: 'off', variantName: 'Off' },
              after: { variantKey: 'on', variantName: 'On' },
            },
          ],
        }),
    });

    await user.type(screen.getByRole('textbox', { name: 'User id' }), 'user-42');
    await user.click(screen.getByRole('button', { name: 'Add attribute' }));
    await user.type(screen.getByRole('textbox', { name: 'Attribute 1' }), 'age');
    await user.type(screen.getByRole('textbox', { name: 'Value 1' }), '42');
    await user.click(screen.getByRole('button', { name: 'Preview' }));

    const table = await screen.findByRole('table', { name: 'What the user is served' });
    const row = within(table).getByText('Checkout').closest('tr')!;
    expect(within(row).getByText('Off')).toBeVisible();
    expect(within(row).getByText('On')).toBeVisible();
    expect(posts(calls)).toEqual([
      { path: api(request, 'preview'), body: { user: { id: 'user-42', attributes: { age: 42 } } } },
    ]);
  });
});
