import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { jsonResponse } from '../../../testing/test-utils';
import {
  LIST_PATH,
  renderSegmentsPage,
  resetOverlays,
  segmentFixture,
  serveSegments,
} from '../../../testing/segments-test-server';

const betaTesters = segmentFixture('Beta testers', { description: 'People who opted in to previews' });
const staff = segmentFixture('Staff', { key: 'staff' });

const rows = () =>
  within(screen.getByRole('table', { name: 'Segments' }))
    .getAllByRole('row')
    .slice(1);
const listRequests = (calls: { method: string; path: string }[]) =>
  calls.filter((call) => call.method === 'GET' && call.path.startsWith(LIST_PATH));

describe('Segments page', () => {
  afterEach(() => {
    resetOverlays();
    vi.unstubAllGlobals();
  });

  it('names the project and environment under the heading', async () => {
    serveSegments({ segments: [betaTesters] });
    renderSegmentsPage();

    expect(screen.getByRole('heading', { name: 'Segments' })).toBeVisible();
    expect(screen.getByText('Segments for Web shop / Development environment')).toBeVisible();
    await screen.findByText('Beta testers');
  });

  it('lists each segment with its key under the name, its description, Edit and Delete', async () => {
    serveSegments({ segments: [staff, betaTesters] });
    renderSegmentsPage();

    await screen.findByText('Beta testers');
    const [first, second] = rows();
    expect(within(first!).getByText('beta-testers')).toBeVisible();
    expect(within(first!).getByText('People who opted in to previews')).toBeVisible();
    expect(within(first!).getByRole('button', { name: 'Edit Beta testers' })).toBeVisible();
    expect(within(first!).getByRole('button', { name: 'Delete Beta testers' })).toBeVisible();
    expect(within(second!).getByText('Staff')).toBeVisible();
  });

  it('says what segments are for, with New Segment, when the environment has none', async () => {
    serveSegments();
    renderSegmentsPage();

    expect(await screen.findByText('Segments allow you to create defined user cohorts.')).toBeVisible();
    // One in the header, one in the empty state.
    expect(screen.getAllByRole('button', { name: 'New Segment' })).toHaveLength(2);
  });

  it('shows skeleton rows while loading and a retry when loading fails', async () => {
    let fail = true;
    serveSegments({
      handlers: {
        [`GET ${LIST_PATH}`]: () =>
          fail
            ? jsonResponse(500, { title: 'Something went wrong on our side.' })
            : jsonResponse(200, [betaTesters]),
      },
    });
    const { user } = renderSegmentsPage();
    expect(screen.getAllByTestId('segment-skeleton-row').length).toBeGreaterThan(0);

    const alert = (await screen.findByText('We could not load the segments.')).closest<HTMLElement>(
      '[role="alert"]',
    )!;
    expect(alert.textContent).toContain('Something went wrong on our side.');
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('Beta testers')).toBeVisible();
  });

  it('searches through ?query= and offers to clear a search that finds nothing', async () => {
    const { calls } = serveSegments({ segments: [betaTesters, staff] });
    const { user, router } = renderSegmentsPage();
    await screen.findByText('Staff');

    await user.type(screen.getByRole('searchbox', { name: 'Search segments' }), 'opted');
    await waitFor(() => expect(router.state.location.search).toBe('?query=opted'));
    await waitFor(() => expect(screen.queryByText('Staff')).toBeNull());
    expect(rows()).toHaveLength(1);
    expect(new URL(listRequests(calls).at(-1)!.path, 'http://x').searchParams.get('query')).toBe('opted');

    await user.clear(screen.getByRole('searchbox', { name: 'Search segments' }));
    await user.type(screen.getByRole('searchbox', { name: 'Search segments' }), 'nobody');
    expect(await screen.findByText('No segments match “nobody”.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Clear search' }));
    expect(await screen.findByText('Staff')).toBeInTheDocument();
    expect(router.state.location.search).toBe('');
  });

  it('starts from the search in the address', async () => {
    const { calls } = serveSegments({ segments: [betaTesters, staff] });
    renderSegmentsPage({}, '?query=staff');

    expect(await screen.findByText('Staff')).toBeVisible();
    expect((screen.getByRole('searchbox', { name: 'Search segments' }) as HTMLInputElement).value).toBe(
      'staff',
    );
    expect(listRequests(calls)[0]!.path).toBe(`${LIST_PATH}?query=staff`);
  });

  it('creates a segment whose key follows its name, says "Segment saved." and lists it', async () => {
    const { calls } = serveSegments();
    const { user } = renderSegmentsPage();
    await screen.findByText('Segments allow you to create defined user cohorts.');

    await user.click(screen.getAllByRole('button', { name: 'New Segment' })[0]!);
    const dialog = await screen.findByRole('dialog', { name: 'Create Segment' });
    const modal = within(dialog);
    await user.type(modal.getByRole('textbox', { name: 'Name' }), 'Beta Testers');
    expect((modal.getByRole('textbox', { name: 'Key' }) as HTMLInputElement).value).toBe('beta-testers');
    await user.type(modal.getByRole('textbox', { name: 'Description' }), 'Early adopters');
    await user.click(modal.getByRole('button', { name: 'Save segment' }));

    expect(await screen.findByText('Segment saved.')).toBeVisible();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.find((call) => call.method === 'POST')!.body).toEqual({
      projectKey: 'web',
      environmentKey: 'dev',
      key: 'beta-testers',
      name: 'Beta Testers',
      description: 'Early adopters',
    });
    expect(await screen.findByText('Beta Testers')).toBeVisible();
    expect(screen.getByText('beta-testers')).toBeVisible();
  });

  it('keeps a key the user typed, cleaned when leaving the field, whatever the name does next', async () => {
    const { calls } = serveSegments();
    const { user } = renderSegmentsPage();
    await user.click((await screen.findAllByRole('button', { name: 'New Segment' }))[0]!);
    const modal = within(await screen.findByRole('dialog', { name: 'Create Segment' }));

    await user.type(modal.getByRole('textbox', { name: 'Name' }), 'Beta');
    await user.clear(modal.getByRole('textbox', { name: 'Key' }));
    await user.type(modal.getByRole('textbox', { name: 'Key' }), 'Early Birds!');
    await user.type(modal.getByRole('textbox', { name: 'Name' }), ' testers');
    expect((modal.getByRole('textbox', { name: 'Key' }) as HTMLInputElement).value).toBe('early-birds');
    await user.click(modal.getByRole('button', { name: 'Save segment' }));

    await screen.findByText('Segment saved.');
    expect(calls.find((call) => call.method === 'POST')!.body).toMatchObject({
      key: 'early-birds',
      name: 'Beta testers',
    });
  });

  it('requires a name before sending anything', async () => {
    const { calls } = serveSegments();
    const { user } = renderSegmentsPage();
    await user.click((await screen.findAllByRole('button', { name: 'New Segment' }))[0]!);
    const modal = within(await screen.findByRole('dialog', { name: 'Create Segment' }));

    await user.click(modal.getByRole('button', { name: 'Save segment' }));

    expect(await modal.findByText('Name is required')).toBeVisible();
    expect(modal.getByText('Key is required')).toBeVisible();
    expect(calls.some((call) => call.method === 'POST')).toBe(false);
  });

  it("shows the server's refusal in the form, on the field it names, and keeps the modal open", async () => {
    serveSegments({ segments: [betaTesters] });
    const { user } = renderSegmentsPage();
    await user.click(await screen.findByRole('button', { name: 'New Segment' }));
    const modal = within(await screen.findByRole('dialog', { name: 'Create Segment' }));

    await user.type(modal.getByRole('textbox', { name: 'Name' }), 'Beta testers');
    await user.click(modal.getByRole('button', { name: 'Save segment' }));

    const message = 'A segment with the key "beta-testers" already exists in this environment.';
    expect((await modal.findByRole('alert')).textContent).toContain(message);
    const key = modal.getByRole('textbox', { name: 'Key' });
    expect(key.getAttribute('aria-invalid')).toBe('true');
    // Once in the alert, once under the Key field.
    expect(modal.getAllByText(message)).toHaveLength(2);
    expect(screen.queryByText('Segment saved.')).toBeNull();
    expect(screen.getByRole('dialog', { name: 'Create Segment' })).toBeVisible();
  });

  it('shows a forbidden save in the form rather than as a toast', async () => {
    serveSegments({
      handlers: {
        'POST /api/v2/segments/': () =>
          jsonResponse(403, {
            title: 'Only a production editor can create segments in a production environment.',
          }),
      },
    });
    const { user } = renderSegmentsPage();
    await user.click((await screen.findAllByRole('button', { name: 'New Segment' }))[0]!);
    const modal = within(await screen.findByRole('dialog', { name: 'Create Segment' }));
    await user.type(modal.getByRole('textbox', { name: 'Name' }), 'Staff');
    await user.click(modal.getByRole('button', { name: 'Save segment' }));

    expect((await modal.findByRole('alert')).textContent).toBe(
      'Only a production editor can create segments in a production environment.',
    );
    expect(screen.getAllByText(/Only a production editor/)).toHaveLength(1);
  });

  it('edits name and description with the key read-only, and Cancel closes without saving', async () => {
    const { calls } = serveSegments({ segments: [betaTesters] });
    const { user } = renderSegmentsPage();

    await user.click(await screen.findByRole('button', { name: 'Edit Beta testers' }));
    let modal = within(await screen.findByRole('dialog', { name: 'Edit Segment' }));
    await user.click(modal.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.some((call) => call.method === 'PUT')).toBe(false);

    await user.click(screen.getByRole('button', { name: 'Edit Beta testers' }));
    modal = within(await screen.findByRole('dialog', { name: 'Edit Segment' }));
    const key = modal.getByRole('textbox', { name: 'Key' }) as HTMLInputElement;
    expect(key.value).toBe('beta-testers');
    expect(key.readOnly).toBe(true);
    const name = modal.getByRole('textbox', { name: 'Name' });
    await user.clear(name);
    await user.type(name, 'Preview testers');
    expect(key.value).toBe('beta-testers');
    await user.click(modal.getByRole('button', { name: 'Save segment' }));

    expect(await screen.findByText('Segment saved.')).toBeVisible();
    expect(calls.find((call) => call.method === 'PUT')!.body).toEqual({
      id: betaTesters.id,
      projectKey: 'web',
      environmentKey: 'dev',
      key: 'beta-testers',
      name: 'Preview testers',
      description: 'People who opted in to previews',
      // The version the edit started from, so that the server refuses it when someone saved since.
      lastModifiedDate: betaTesters.lastModifiedDate,
    });
    expect(await screen.findByText('Preview testers')).toBeVisible();
  });

  it('offers to reload a segment someone saved since the edit opened, and Reload shows theirs', async () => {
    const title =
      'Test User changed this segment after you opened it. Reload to see the changes, then make yours again.';
    let stored = [betaTesters];
    const { calls } = serveSegments({
      handlers: {
        [`GET ${LIST_PATH}`]: () => jsonResponse(200, stored),
        'PUT /api/v2/segments/': () => jsonResponse(409, { title, code: 'stale_write' }),
      },
    });
    const { user } = renderSegmentsPage();
    await user.click(await screen.findByRole('button', { name: 'Edit Beta testers' }));
    const modal = within(await screen.findByRole('dialog', { name: 'Edit Segment' }));
    const name = modal.getByRole('textbox', { name: 'Name' }) as HTMLInputElement;
    await user.type(name, ' (mine)');
    // Meanwhile someone else renames the segment.
    const theirs = { ...betaTesters, name: 'Preview testers', lastModifiedDate: '2026-04-01T00:00:00.000Z' };
    stored = [theirs];
    await user.click(modal.getByRole('button', { name: 'Save segment' }));

    const alert = await modal.findByRole('alert');
    expect(alert.textContent).toContain(title);
    expect(calls.filter((call) => call.method === 'PUT').at(-1)?.body).toMatchObject({
      lastModifiedDate: betaTesters.lastModifiedDate,
    });
    // The edit stays until the user chooses to drop it.
    expect(name.value).toBe('Beta testers (mine)');

    await user.click(within(alert).getByRole('button', { name: 'Reload' }));

    await waitFor(() => expect(name.value).toBe('Preview testers'));
    expect(modal.queryByRole('alert')).toBeNull();
    await user.click(modal.getByRole('button', { name: 'Save segment' }));
    await waitFor(() =>
      expect(calls.filter((call) => call.method === 'PUT').at(-1)?.body).toMatchObject({
        name: 'Preview testers',
        lastModifiedDate: theirs.lastModifiedDate,
      }),
    );
  });

  it('deletes a segment after confirmation and says "Segment deleted."', async () => {
    const { calls } = serveSegments({ segments: [betaTesters, staff] });
    const { user } = renderSegmentsPage();

    await user.click(await screen.findByRole('button', { name: 'Delete Beta testers' }));
    let dialog = await screen.findByRole('dialog', { name: 'Delete Segment' });
    expect(
      within(dialog).getByText('Delete the segment "Beta testers"? Rules can no longer target it.'),
    ).toBeVisible();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.some((call) => call.method === 'DELETE')).toBe(false);

    await user.click(screen.getByRole('button', { name: 'Delete Beta testers' }));
    dialog = await screen.findByRole('dialog', { name: 'Delete Segment' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete segment' }));

    expect(await screen.findByText('Segment deleted.')).toBeVisible();
    expect(calls.find((call) => call.method === 'DELETE')!.path).toBe(`/api/v2/segments/${betaTesters.id}`);
    await waitFor(() => expect(screen.queryByText('Beta testers')).toBeNull());
    expect(rows()).toHaveLength(1);
  });

  it('shows why the server refuses to delete a segment that rules use, and keeps it', async () => {
    const usedBy =
      'The segment "Beta testers" is used by the targeting of "Checkout". Remove it from those rules first.';
    serveSegments({
      segments: [betaTesters],
      handlers: { [`DELETE /api/v2/segments/${betaTesters.id}`]: () => jsonResponse(400, { title: usedBy }) },
    });
    const { user } = renderSegmentsPage();

    await user.click(await screen.findByRole('button', { name: 'Delete Beta testers' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete Segment' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete segment' }));

    expect(await screen.findByText(usedBy)).toBeVisible();
    expect(screen.getAllByText(usedBy)).toHaveLength(1);
    expect(screen.queryByText('Segment deleted.')).toBeNull();
    expect(screen.getByText('Beta testers')).toBeVisible();
  });
});
