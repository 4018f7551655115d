import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { jsonResponse } from '../../../testing/test-utils';
import { resetOverlays } from '../../../testing/feature-list-test-server';
import {
  changeRequestFixture,
  listQueries,
  renderChangeRequests,
  serveChangeRequests,
} from '../../../testing/change-requests-test-server';

const LIST = '/projects/web/environments/dev/change-requests';

describe('Change requests page', () => {
  afterEach(() => {
    resetOverlays();
    vi.unstubAllGlobals();
  });

  it('lists the project’s requests with their environment, state, author and approvals', async () => {
    const request = changeRequestFixture(1, { approvals: 1, minApprovals: 2 });
    serveChangeRequests({ requests: [request] });
    renderChangeRequests(LIST);

    await screen.findByRole('link', { name: 'Open checkout 1' });
    const table = screen.getByRole('table', { name: 'Change requests' });
    const row = within(table).getByRole('link', { name: 'Open checkout 1' }).closest('tr')!;
    expect(within(table).getByRole('link', { name: 'Open checkout 1' })).toHaveAttribute(
      'href',
      `/projects/web/environments/production/change-requests/${request.id}`,
    );
    expect(within(row).getByText('Production')).toBeVisible();
    expect(within(row).getByText('In review')).toBeVisible();
    expect(within(row).getByText('Demo Admin')).toBeVisible();
    expect(within(row).getByLabelText('1 of 2 approvals')).toHaveTextContent('1/2');
  });

  it('sends each filter in the query of the list', async () => {
    const { calls } = serveChangeRequests({ requests: [changeRequestFixture(1)] });
    renderChangeRequests(LIST);
    await screen.findByRole('link', { name: 'Open checkout 1' });
    expect(listQueries(calls).at(-1)).toEqual({ page: '0' });
    const user = userEvent.setup();

    await user.click(screen.getByRole('radio', { name: 'To review' }));
    await waitFor(() => expect(listQueries(calls).at(-1)).toEqual({ reviewer: 'me', page: '0' }));

    await user.click(screen.getByRole('radio', { name: 'Mine' }));
    await waitFor(() => expect(listQueries(calls).at(-1)).toEqual({ author: 'me', page: '0' }));

    await user.click(screen.getByRole('radio', { name: 'Development' }));
    await waitFor(() =>
      expect(listQueries(calls).at(-1)).toEqual({ author: 'me', environmentKey: 'dev', page: '0' }),
    );

    await user.click(screen.getByRole('combobox', { name: 'State' }));
    await user.click(await screen.findByRole('option', { name: 'Approved' }));
    await waitFor(() =>
      expect(listQueries(calls).at(-1)).toEqual({
        author: 'me',
        environmentKey: 'dev',
        state: 'approved',
        page: '0',
      }),
    );
    // Nothing approved in Development: the list says so.
    expect(await screen.findByText('You have no change requests here yet.')).toBeVisible();
  });

  it('opens filtered To review from the navigation’s link', async () => {
    const { calls } = serveChangeRequests();
    renderChangeRequests(`${LIST}?view=to-review`);
    expect(await screen.findByText('No change request is waiting for your review.')).toBeVisible();
    expect(screen.getByRole('radio', { name: 'To review' })).toBeChecked();
    expect(listQueries(calls)).toEqual([{ reviewer: 'me', page: '0' }]);
  });

  it('shows a failed load with Retry, which loads it again', async () => {
    let fail = true;
    serveChangeRequests({
      handlers: {
        'GET /api/v1/projects/web/change-requests': () =>
          fail
            ? jsonResponse(500, { title: 'The database is unavailable, please retry.' })
            : jsonResponse(200, { content: [], totalElements: 0, last: true }),
      },
    });
    renderChangeRequests(LIST);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('We could not load the change requests.');
    expect(alert).toHaveTextContent('The database is unavailable, please retry.');

    fail = false;
    await userEvent.setup().click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText(/^No change requests yet\./)).toBeVisible();
  });

  it('creates a draft in the current environment from New change request and opens it', async () => {
    const created = changeRequestFixture(7, {
      environmentKey: 'dev',
      environmentName: 'Development',
      title: 'Try the new checkout',
      state: 'draft',
      changes: [],
      changeCount: 0,
    });
    const { calls } = serveChangeRequests({
      handlers: {
        'POST /api/v1/projects/web/change-requests': () => jsonResponse(201, created),
        [`GET /api/v1/projects/web/change-requests/${created.id}`]: () => jsonResponse(200, created),
      },
    });
    renderChangeRequests(LIST);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'New change request' }));

    const dialog = await screen.findByRole('dialog', { name: 'New change request' });
    expect(within(dialog).getByRole('combobox', { name: 'Environment' })).toHaveValue('Development');
    await user.click(within(dialog).getByRole('button', { name: 'Create change request' }));
    expect(await within(dialog).findByText('A title is required.')).toBeVisible();

    await user.type(within(dialog).getByRole('textbox', { name: /^Title/ }), 'Try the new checkout');
    await user.click(within(dialog).getByRole('button', { name: 'Create change request' }));

    expect(await screen.findByRole('heading', { name: 'Try the new checkout', level: 1 })).toBeVisible();
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
      environmentKey: 'dev',
      title: 'Try the new checkout',
      description: '',
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});
