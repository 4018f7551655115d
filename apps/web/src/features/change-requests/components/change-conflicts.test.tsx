import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { CHANGE_REQUEST_REFUSALS, unchosenConflictMessage, type ChangeRequest } from '@vexil/core';
import { jsonResponse } from '../../../testing/test-utils';
import { resetOverlays } from '../../../testing/test-fixtures';
import {
  actionsOf,
  changeFixture,
  changeRequestFixture,
  renderChangeRequests,
  serveChangeRequests,
  type ServeChangeRequestsOptions,
} from '../../../testing/change-requests-test-server';

const pageOf = (request: ChangeRequest) =>
  `/projects/web/environments/production/change-requests/${request.id}`;
const rebaseApi = (request: ChangeRequest) =>
  `/api/v1/projects/web/change-requests/${request.id}/changes/${request.changes[0]!.id}/rebase`;
const posts = (calls: { method: string; path: string; body: unknown }[]) =>
  calls.filter((call) => call.method === 'POST').map(({ path, body }) => ({ path, body }));

/** Checkout's targeting, drafted on version 3 while version 4 is live, with two rules in conflict. */
const conflicting = changeFixture(1, {
  changes: ['Rule 1: serves On to everyone in Austria'],
  baseVersion: 3,
  liveVersion: 4,
  conflicts: [
    { part: 'rules/0', label: 'Rule 1', base: 'DE', live: 'FR', proposed: 'AT' },
    { part: 'rules/1', label: 'Rule 2', base: 10, live: 20, proposed: 30 },
  ],
});
const suspended = changeRequestFixture(1, {
  state: 'suspended',
  suspendedReason: 'Rule 1 and Rule 2 were changed by Rita Reviewer since.',
  approvals: 1,
  changes: [conflicting],
});
/** What the server answers once Rule 1 keeps what is live and Rule 2 the author's. */
const upToDate = changeRequestFixture(1, {
  state: 'in-review',
  approvals: 0,
  changes: [
    changeFixture(1, {
      changes: ['Rule 2: rolls out to 30%'],
      baseVersion: 4,
      liveVersion: 4,
      conflicts: [],
    }),
  ],
});

async function open(request: ChangeRequest, handlers: ServeChangeRequestsOptions['handlers'] = {}) {
  const served = serveChangeRequests({ requests: [request], handlers });
  renderChangeRequests(pageOf(request));
  await screen.findByRole('heading', { name: request.title, level: 1 });
  return { ...served, user: userEvent.setup() };
}

describe('Bringing a change up to date', () => {
  afterEach(() => {
    resetOverlays();
    vi.unstubAllGlobals();
  });

  it('lets the author keep a side of each conflict, then sends the choices and shows the answer', async () => {
    const { calls, user } = await open(suspended, {
      [`POST ${rebaseApi(suspended)}`]: () => jsonResponse(200, upToDate),
    });

    const card = screen.getByRole('listitem', { name: 'Targeting: Checkout' });
    const bring = within(card).getByRole('button', { name: 'Bring up to date' });
    expect(bring).toBeDisabled();
    // Why it is disabled, named for keyboard and screen reader users: the first part still to decide.
    expect(within(card).getByLabelText(unchosenConflictMessage('Rule 1'))).toContainElement(bring);

    const rule1 = within(card).getByRole('radiogroup', { name: 'Rule 1' });
    const rule2 = within(card).getByRole('radiogroup', { name: 'Rule 2' });
    // The choice sits with the values it chooses between.
    const conflict = within(card).getByRole('group', { name: 'Rule 1' });
    expect(within(conflict).getByText('Live now').nextElementSibling).toHaveTextContent('"FR"');
    expect(within(conflict).getByText('Proposed').nextElementSibling).toHaveTextContent('"AT"');
    expect(conflict).toContainElement(rule1);

    await user.click(within(rule1).getByRole('radio', { name: 'Keep live' }));
    expect(within(rule1).getByRole('radio', { name: 'Keep live' })).toBeChecked();
    expect(bring).toBeDisabled();
    expect(within(card).getByLabelText(unchosenConflictMessage('Rule 2'))).toContainElement(bring);

    await user.click(within(rule2).getByRole('radio', { name: 'Keep mine' }));
    // Enabled, and no longer wrapped in a reason (so found again).
    const enabled = within(card).getByRole('button', { name: 'Bring up to date' });
    expect(enabled).toBeEnabled();
    expect(posts(calls)).toEqual([]);

    await user.click(enabled);

    expect(await screen.findByText('Brought up to date: the request is back in review.')).toBeVisible();
    expect(posts(calls)).toEqual([
      { path: rebaseApi(suspended), body: { keep: { 'rules/0': 'live', 'rules/1': 'proposed' } } },
    ]);
    // The page shows the answer: back in review, the merged change, no conflicts left to decide.
    expect(screen.getByText('In review', { selector: '.mantine-Badge-label' })).toBeVisible();
    expect(within(card).getByText('Rule 2: rolls out to 30%')).toBeVisible();
    expect(within(card).queryByRole('radiogroup')).toBeNull();
    expect(within(card).queryByRole('group', { name: 'Conflicts with what is live' })).toBeNull();
    expect(within(card).queryByText(/is live now/)).toBeNull();
    expect(within(card).queryByRole('button', { name: 'Bring up to date' })).toBeNull();
  });

  it('takes what merges for a change without conflicts, and says so when the state stays', async () => {
    const moved = changeRequestFixture(1, {
      changes: [changeFixture(1, { baseVersion: 3, liveVersion: 5 })],
    });
    const rebased = changeRequestFixture(1, {
      changes: [changeFixture(1, { baseVersion: 5, liveVersion: 5 })],
    });
    const { calls, user } = await open(moved, {
      [`POST ${rebaseApi(moved)}`]: () => jsonResponse(200, rebased),
    });

    const card = screen.getByRole('listitem', { name: 'Targeting: Checkout' });
    expect(within(card).getByText('Drafted on version 3; version 5 is live now.')).toBeVisible();
    expect(within(card).queryByRole('radiogroup')).toBeNull();
    await user.click(within(card).getByRole('button', { name: 'Bring up to date' }));

    expect(await screen.findByText('Brought up to date.')).toBeVisible();
    expect(posts(calls)).toEqual([{ path: rebaseApi(moved), body: { keep: {} } }]);
    expect(within(card).queryByText(/is live now/)).toBeNull();
    expect(within(card).queryByRole('button', { name: 'Bring up to date' })).toBeNull();
  });

  it('shows a reviewer the conflicts but no choices', async () => {
    const reviewed = changeRequestFixture(1, {
      ...suspended,
      changes: [conflicting, changeFixture(2, { resourceName: 'Search', baseVersion: 1, liveVersion: 2 })],
      actions: actionsOf({ edit: { allowed: false, reason: CHANGE_REQUEST_REFUSALS.notAuthor } }),
    });
    await open(reviewed);

    const card = screen.getByRole('listitem', { name: 'Targeting: Checkout' });
    expect(within(card).getByText(/The author must decide these parts/)).toBeVisible();
    const conflict = within(card).getByRole('group', { name: 'Rule 2' });
    expect(within(conflict).getByText('Live now').nextElementSibling).toHaveTextContent('20');
    expect(within(card).queryByRole('radiogroup')).toBeNull();
    expect(within(card).queryByRole('radio')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Bring up to date' })).toBeNull();
    // Nor for a change that merges: only its author brings it up to date.
    const search = screen.getByRole('listitem', { name: 'Targeting: Search' });
    expect(within(search).getByText('Drafted on version 1; version 2 is live now.')).toBeVisible();
  });

  it('keeps the choices and shows the server’s reason when it refuses', async () => {
    const refusal = unchosenConflictMessage('Rule 3');
    const { calls, user } = await open(suspended, {
      [`POST ${rebaseApi(suspended)}`]: () =>
        jsonResponse(400, { title: refusal, errors: [{ field: 'keep', message: refusal }] }),
    });

    const card = screen.getByRole('listitem', { name: 'Targeting: Checkout' });
    const rule1 = within(card).getByRole('radiogroup', { name: 'Rule 1' });
    const rule2 = within(card).getByRole('radiogroup', { name: 'Rule 2' });
    await user.click(within(rule1).getByRole('radio', { name: 'Keep mine' }));
    await user.click(within(rule2).getByRole('radio', { name: 'Keep live' }));
    await user.click(within(card).getByRole('button', { name: 'Bring up to date' }));

    expect(await screen.findByText(refusal)).toBeVisible();
    expect(posts(calls)).toEqual([
      { path: rebaseApi(suspended), body: { keep: { 'rules/0': 'proposed', 'rules/1': 'live' } } },
    ]);
    // The page is asked again (something changed under it), and the choices stay as they were.
    await waitFor(() =>
      expect(
        calls.filter((call) => call.path === `/api/v1/projects/web/change-requests/${suspended.id}`),
      ).toHaveLength(2),
    );
    expect(within(rule1).getByRole('radio', { name: 'Keep mine' })).toBeChecked();
    expect(within(rule2).getByRole('radio', { name: 'Keep live' })).toBeChecked();
    expect(within(card).getByRole('button', { name: 'Bring up to date' })).toBeEnabled();
    expect(screen.getByText('Suspended', { selector: '.mantine-Badge-label' })).toBeVisible();
  });
});
