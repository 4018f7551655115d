import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { jsonResponse } from '../../../testing/test-utils';
import { resetOverlays } from '../../../testing/test-fixtures';
import { DEV_TARGETING, lastPut, renderTargeting } from '../../../testing/targeting-test-utils';
import { changeRequestFixture } from '../../../testing/change-requests-test-server';

const REFUSAL = 'Changes to Development go through change requests.';
const DRAFTS = '/api/v1/projects/web/change-requests';
const draft = changeRequestFixture(9, {
  state: 'draft',
  environmentKey: 'dev',
  environmentName: 'Development',
  title: 'Change New checkout in Development',
});
const changesPosted = (calls: { method: string; path: string; body: unknown }[]) =>
  calls.filter((call) => call.method === 'POST' && call.path === `${DRAFTS}/${draft.id}/changes`);

describe('Targeting in an environment that asks for change requests', { timeout: 20_000 }, () => {
  afterEach(() => {
    resetOverlays();
    vi.unstubAllGlobals();
  });

  it('keeps the edit when the save is refused, and adds it to a new draft on request', async () => {
    const { calls, user } = await renderTargeting(DEV_TARGETING, {
      handlers: () => ({
        'PUT /api/v1/feature-controls/': () =>
          jsonResponse(409, { title: REFUSAL, code: 'change_request_required' }),
        [`POST ${DRAFTS}`]: () => jsonResponse(201, { ...draft, changes: [] }),
        [`POST ${DRAFTS}/${draft.id}/changes`]: () => jsonResponse(200, draft),
      }),
    });
    const enabled = await screen.findByRole('switch', { name: 'Targeting enabled' });
    await user.click(enabled);
    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(
      await screen.findByText(
        `${REFUSAL} Your edit is kept: choose “Add to change request” below to have it reviewed.`,
      ),
    ).toBeVisible();
    expect(enabled).toBeChecked();
    expect(screen.getByText('You have unsaved changes.')).toBeVisible();
    // Save now says where the edit goes.
    expect(screen.getByRole('button', { name: 'Add to change request' })).toBeEnabled();

    await user.click(screen.getByRole('button', { name: 'Add to change request' }));

    expect(
      await screen.findByText('Added to the change request “Change New checkout in Development”.'),
    ).toBeVisible();
    const put = lastPut(calls)!;
    expect(calls.find((call) => call.method === 'POST' && call.path === DRAFTS)?.body).toEqual({
      environmentKey: 'dev',
      title: 'Change New checkout in Development',
      description: '',
    });
    expect(changesPosted(calls).map((call) => call.body)).toEqual([
      {
        kind: 'control',
        id: put.id,
        enabled: true,
        offVariantKey: put.offVariantKey,
        rules: put.rules,
        lastModifiedDate: put.lastModifiedDate,
        comment: '',
      },
    ]);
    // The form still holds the edit, and says where it is.
    expect(enabled).toBeChecked();
    expect(
      screen.getByText('Your edit is in a change request: it goes live once the request is applied.'),
    ).toBeVisible();
  });

  it('labels Save "Add to change request" when the settings protect the environment, and writes nothing live', async () => {
    const { calls, user } = await renderTargeting(DEV_TARGETING, {
      handlers: () => ({
        'GET /api/v1/projects/web/environments/dev/change-request-policy': ({ url }) =>
          jsonResponse(200, {
            required: true,
            mayBypass: false,
            changeRequestId: url.searchParams.get('featureControlId') ? draft.id : null,
          }),
        [`POST ${DRAFTS}/${draft.id}/changes`]: () => jsonResponse(200, draft),
      }),
    });
    await user.click(await screen.findByRole('switch', { name: 'Targeting enabled' }));
    const add = await screen.findByRole('button', { name: 'Add to change request' });
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
    await user.click(add);

    await waitFor(() => expect(changesPosted(calls)).toHaveLength(1));
    expect(
      await screen.findByText('Added to the change request “Change New checkout in Development”.'),
    ).toBeVisible();
    expect(lastPut(calls)).toBeUndefined();
  });
});
