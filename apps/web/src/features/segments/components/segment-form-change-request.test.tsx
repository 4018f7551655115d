import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { jsonResponse } from '../../../testing/test-utils';
import {
  renderSegmentsPage,
  resetOverlays,
  segmentFixture,
  serveSegments,
  type ApiHandler,
} from '../../../testing/segments-test-server';
import { changeRequestFixture } from '../../../testing/change-requests-test-server';

const REFUSAL = 'Changes to Development go through change requests: add this change to one.';
const DRAFTS = '/api/v1/projects/web/change-requests';
const POLICY = 'GET /api/v1/projects/web/environments/dev/change-request-policy';

const betaTesters = segmentFixture('Beta testers', { description: 'People who opted in' });

/** A request in Development, as the server answers once the change is in it. */
const requestIn = (n: number, title: string) =>
  changeRequestFixture(n, { state: 'draft', environmentKey: 'dev', environmentName: 'Development', title });

type Calls = { method: string; path: string; body: unknown }[];
const writes = (calls: Calls) =>
  calls.filter((call) => call.method !== 'GET').map(({ method, path, body }) => ({ method, path, body }));

/** What the update sends, and so what goes into the request: the segment renamed "Beta users". */
const renamed = {
  projectKey: 'web',
  environmentKey: 'dev',
  name: 'Beta users',
  description: 'People who opted in',
  id: betaTesters.id,
  key: betaTesters.key,
  lastModifiedDate: betaTesters.lastModifiedDate,
};

/** Opens Edit Segment on Beta testers and renames it. */
async function editAndRename(handlers: Record<string, ApiHandler>) {
  const { calls } = serveSegments({ segments: [betaTesters], handlers });
  const { user } = renderSegmentsPage();
  await user.click(await screen.findByRole('button', { name: 'Edit Beta testers' }));
  const dialog = await screen.findByRole('dialog', { name: 'Edit Segment' });
  const name = within(dialog).getByRole('textbox', { name: /^Name/ }) as HTMLInputElement;
  await user.clear(name);
  await user.type(name, 'Beta users');
  return { calls, user, dialog, name };
}

describe('Edit Segment in an environment that asks for change requests', { timeout: 20_000 }, () => {
  afterEach(() => {
    resetOverlays();
    vi.unstubAllGlobals();
  });

  it('labels Save "Add to change request" where the policy says so, and adds the edit where it points', async () => {
    const mine = requestIn(7, 'Spring launch');
    const { calls, user, dialog } = await editAndRename({
      [POLICY]: ({ url }) =>
        jsonResponse(200, {
          required: true,
          mayBypass: false,
          changeRequestId: url.searchParams.get('segmentId') === betaTesters.id ? mine.id : null,
        }),
      [`POST ${DRAFTS}/${mine.id}/changes`]: () => jsonResponse(200, mine),
    });

    const add = await within(dialog).findByRole('button', { name: 'Add to change request' });
    expect(within(dialog).queryByRole('button', { name: 'Save segment' })).toBeNull();
    await user.click(add);

    expect(await screen.findByText('Added to the change request “Spring launch”.')).toBeVisible();
    expect(screen.getByRole('link', { name: 'Open the change request' })).toHaveAttribute(
      'href',
      `/projects/web/environments/dev/change-requests/${mine.id}`,
    );
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Edit Segment' })).toBeNull());
    // The policy was asked where this segment's change goes; nothing was written live.
    expect(
      calls.some((call) => call.path.endsWith(`change-request-policy?segmentId=${betaTesters.id}`)),
    ).toBe(true);
    expect(writes(calls)).toEqual([
      { method: 'POST', path: `${DRAFTS}/${mine.id}/changes`, body: { kind: 'segment', ...renamed } },
    ]);
    // The list still shows what is live.
    expect(screen.getByText('Beta testers')).toBeVisible();
  });

  it('still creates segments directly in a protected environment', async () => {
    serveSegments({
      segments: [betaTesters],
      handlers: {
        [POLICY]: () => jsonResponse(200, { required: true, mayBypass: false, changeRequestId: null }),
      },
    });
    const { user } = renderSegmentsPage();
    await screen.findByText('Beta testers');
    await user.click(screen.getByRole('button', { name: 'New Segment' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create Segment' });
    expect(within(dialog).getByRole('button', { name: 'Save segment' })).toBeVisible();
    expect(within(dialog).queryByRole('button', { name: 'Add to change request' })).toBeNull();
  });

  it('keeps the edit when the update is refused, and adds it to a new draft on request', async () => {
    const created = requestIn(8, 'Change segment Beta testers');
    const { calls, user, dialog, name } = await editAndRename({
      'PUT /api/v2/segments/': () =>
        jsonResponse(409, { title: REFUSAL, code: 'change_request_required', environmentKey: 'dev' }),
      [`POST ${DRAFTS}`]: () => jsonResponse(201, { ...created, changes: [] }),
      [`POST ${DRAFTS}/${created.id}/changes`]: () => jsonResponse(200, created),
    });
    await user.click(within(dialog).getByRole('button', { name: 'Save segment' }));

    expect(
      await within(dialog).findByText(
        `${REFUSAL} Your edit is kept: choose “Add to change request” below to have it reviewed.`,
      ),
    ).toBeVisible();
    expect(name.value).toBe('Beta users');
    expect(within(dialog).queryByRole('alert')).toBeNull();

    await user.click(within(dialog).getByRole('button', { name: 'Add to change request' }));

    expect(
      await screen.findByText('Added to the change request “Change segment Beta testers”.'),
    ).toBeVisible();
    expect(writes(calls)).toEqual([
      { method: 'PUT', path: '/api/v2/segments/', body: renamed },
      {
        method: 'POST',
        path: DRAFTS,
        body: { environmentKey: 'dev', title: 'Change segment Beta testers', description: '' },
      },
      { method: 'POST', path: `${DRAFTS}/${created.id}/changes`, body: { kind: 'segment', ...renamed } },
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Edit Segment' })).toBeNull());
  });
});
