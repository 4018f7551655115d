import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { jsonResponse } from '../../../testing/test-utils';
import {
  featureFixture,
  renderFeatureList,
  resetOverlays,
  serveFeatures,
  type ApiHandler,
} from '../../../testing/feature-list-test-server';
import { changeRequestFixture } from '../../../testing/change-requests-test-server';

const REFUSAL = 'Changes to Development go through change requests.';
const DRAFTS = '/api/v1/projects/web/change-requests';

const checkout = () => featureFixture(1, { name: 'Checkout', key: 'checkout' }, { dev: { enabled: false } });

/** A draft in Development, as the server answers once the change is in it. */
const draft = (n: number, title = `Draft ${n}`) =>
  changeRequestFixture(n, { state: 'draft', environmentKey: 'dev', environmentName: 'Development', title });

function serve(feature: ReturnType<typeof checkout>, handlers: Record<string, ApiHandler>) {
  const dev = feature.controls.dev!;
  return serveFeatures({
    features: [feature],
    handlers: {
      [`PUT /api/v1/feature-controls/${dev.id}/enabled`]: () =>
        jsonResponse(409, { title: REFUSAL, code: 'change_request_required' }),
      ...handlers,
    },
  });
}

async function flip() {
  renderFeatureList('/projects/web/environments/dev/features');
  const user = userEvent.setup();
  const toggle = (await screen.findByRole('switch', {
    name: 'Checkout on in Development',
  })) as HTMLInputElement;
  await user.click(toggle);
  const dialog = await screen.findByRole('dialog', { name: 'Change request needed' });
  return { user, toggle, dialog };
}

const writes = (calls: { method: string; path: string; body: unknown }[]) =>
  calls.filter((call) => call.method !== 'GET').map(({ method, path, body }) => ({ method, path, body }));

describe('Feature toggle in an environment that asks for change requests', () => {
  afterEach(() => {
    resetOverlays();
    vi.unstubAllGlobals();
  });

  it('adds the switch to the draft the refusal names, keeping the edit until then', async () => {
    const feature = checkout();
    const dev = feature.controls.dev!;
    const mine = draft(3, 'Spring launch');
    const { calls } = serve(feature, {
      [`PUT /api/v1/feature-controls/${dev.id}/enabled`]: () =>
        jsonResponse(409, { title: REFUSAL, code: 'change_request_required', changeRequestId: mine.id }),
      [`POST ${DRAFTS}/${mine.id}/changes`]: () => jsonResponse(200, mine),
    });
    const { user, toggle, dialog } = await flip();

    // The edit is held by the dialog; the switch shows what is live.
    expect(dialog).toHaveTextContent(`${REFUSAL} Add “Turn on Checkout” to a change request?`);
    await waitFor(() => expect(toggle.checked).toBe(false));
    await user.click(within(dialog).getByRole('button', { name: 'Add to change request' }));

    expect(await screen.findByText('Added to the change request “Spring launch”.')).toBeVisible();
    expect(screen.getByRole('link', { name: 'Open the change request' })).toHaveAttribute(
      'href',
      `/projects/web/environments/dev/change-requests/${mine.id}`,
    );
    expect(writes(calls).slice(1)).toEqual([
      {
        method: 'POST',
        path: `${DRAFTS}/${mine.id}/changes`,
        body: {
          kind: 'control',
          id: dev.id,
          enabled: true,
          offVariantKey: dev.offVariantKey,
          rules: dev.rules,
          lastModifiedDate: dev.lastModifiedDate,
        },
      },
    ]);
    expect(toggle.checked).toBe(false);
  });

  it('creates a draft named after the feature when the user has none', async () => {
    const feature = checkout();
    const created = draft(4, 'Change Checkout in Development');
    const { calls } = serve(feature, {
      [`POST ${DRAFTS}`]: () => jsonResponse(201, { ...created, changes: [], changeCount: 0 }),
      [`POST ${DRAFTS}/${created.id}/changes`]: () => jsonResponse(200, created),
    });
    const { user, dialog } = await flip();
    await user.click(within(dialog).getByRole('button', { name: 'Add to change request' }));

    expect(
      await screen.findByText('Added to the change request “Change Checkout in Development”.'),
    ).toBeVisible();
    const [, create, add] = writes(calls);
    expect(create).toEqual({
      method: 'POST',
      path: DRAFTS,
      body: { environmentKey: 'dev', title: 'Change Checkout in Development', description: '' },
    });
    expect(add).toMatchObject({
      path: `${DRAFTS}/${created.id}/changes`,
      body: { kind: 'control', enabled: true },
    });
  });

  it('sends nothing when the offer is declined', async () => {
    const { calls } = serve(checkout(), {});
    const { user, dialog } = await flip();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(writes(calls).map((call) => call.path)).toEqual([
      `/api/v1/feature-controls/${checkout().controls.dev!.id}/enabled`,
    ]);
  });

  it('goes straight to the user’s request when the policy says the environment is protected', async () => {
    const feature = checkout();
    const mine = draft(5);
    const { calls } = serve(feature, {
      // The policy names the user's request that already changes this control (or their draft).
      'GET /api/v1/projects/web/environments/dev/change-request-policy': ({ url }) =>
        jsonResponse(200, {
          required: true,
          mayBypass: false,
          changeRequestId: url.searchParams.get('featureControlId') ? mine.id : null,
        }),
      [`POST ${DRAFTS}/${mine.id}/changes`]: () => jsonResponse(200, mine),
    });
    // The banner says so above the list.
    renderFeatureList('/projects/web/environments/dev/features');
    expect(await screen.findByRole('status', { name: REFUSAL })).toBeVisible();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('switch', { name: 'Checkout on in Development' }));
    const dialog = await screen.findByRole('dialog', { name: 'Change request needed' });
    await user.click(within(dialog).getByRole('button', { name: 'Add to change request' }));

    expect(await screen.findByText('Added to the change request “Draft 5”.')).toBeVisible();
    // No direct write was tried; the policy was asked where this control's change goes.
    expect(writes(calls).map((call) => call.path)).toEqual([`${DRAFTS}/${mine.id}/changes`]);
    const lookup = calls.find((call) => call.path.includes('featureControlId='))!;
    expect(new URL(lookup.path, 'http://localhost').searchParams.get('featureControlId')).toBe(
      feature.controls.dev!.id,
    );
  });
});
