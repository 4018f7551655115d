import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { jsonResponse } from '../../../testing/test-utils';
import { FEATURE_ID, featureFixture, resetOverlays } from '../../../testing/test-fixtures';
import { renderFeatureDetail, type RenderOptions } from '../../../testing/feature-detail-test-utils';
import { changeRequestFixture } from '../../../testing/change-requests-test-server';

const REFUSAL = 'Changes to Production go through change requests: add this change to one.';
const DRAFTS = '/api/v1/projects/web/change-requests';
/** The settings are edited from Development; the project's protected environment is Production. */
const DEV_SETTINGS = '/projects/web/environments/dev/features/checkout/settings';

/** A request in Production, as the server answers once the change is in it. */
const requestIn = (n: number, title: string) =>
  changeRequestFixture(n, { state: 'draft', environmentKey: 'production', title });

const refusal = (changeRequestId?: string) => () =>
  jsonResponse(409, {
    title: REFUSAL,
    code: 'change_request_required',
    environmentKey: 'production',
    ...(changeRequestId ? { changeRequestId } : {}),
  });

type Calls = { method: string; path: string; body: unknown }[];
const writes = (calls: Calls) =>
  calls.filter((call) => call.method !== 'GET').map(({ method, path, body }) => ({ method, path, body }));

/** Opens the Settings tab, renames the feature and asks to update it (confirmed). */
async function renameAndUpdate(handlers: RenderOptions['handlers']) {
  const rendered = renderFeatureDetail(DEV_SETTINGS, { handlers });
  const user = userEvent.setup();
  const form = await screen.findByRole('form', { name: 'Feature Settings' });
  const name = within(form).getAllByRole('textbox', { name: /^Name/ })[0] as HTMLInputElement;
  await user.clear(name);
  await user.type(name, 'Faster checkout');
  await user.type(within(form).getByRole('textbox', { name: /^Comment/ }), 'Speed');
  await user.click(within(form).getByRole('button', { name: 'Update feature' }));
  const dialog = await screen.findByRole('dialog', { name: 'Update feature settings' });
  await user.click(within(dialog).getByRole('button', { name: 'Update feature' }));
  return { ...rendered, user, form, name };
}

describe('Feature Settings in a project that asks for change requests', { timeout: 20_000 }, () => {
  afterEach(() => {
    resetOverlays();
    vi.unstubAllGlobals();
  });

  it('keeps the edit when the save is refused, and adds it to the request the refusal names', async () => {
    const mine = requestIn(4, 'Spring launch');
    const { calls, user, form, name } = await renameAndUpdate({
      'PUT /api/v1/projects/web/features': refusal(mine.id),
      [`POST ${DRAFTS}/${mine.id}/changes`]: () => jsonResponse(200, mine),
    });

    expect(
      await within(form).findByText(
        `${REFUSAL} Your edit is kept: choose “Add to change request” below to have it reviewed.`,
      ),
    ).toBeVisible();
    expect(name.value).toBe('Faster checkout');
    // Refused, not failed: no failure toast or alert.
    expect(screen.queryByText(/was not saved/)).toBeNull();
    const add = within(form).getByRole('button', { name: 'Add to change request' });
    expect(within(form).queryByRole('button', { name: 'Update feature' })).toBeNull();

    await user.click(add);

    expect(await screen.findByText('Added to the change request “Spring launch”.')).toBeVisible();
    expect(screen.getByRole('link', { name: 'Open the change request' })).toHaveAttribute(
      'href',
      `/projects/web/environments/production/change-requests/${mine.id}`,
    );
    const [save, added] = writes(calls);
    expect(save?.path).toBe('/api/v1/projects/web/features');
    // The change is the body the save sent, with the feature's id; nothing else was written.
    expect(writes(calls)).toHaveLength(2);
    expect(added).toEqual({
      method: 'POST',
      path: `${DRAFTS}/${mine.id}/changes`,
      body: { kind: 'feature', ...(save!.body as object), id: FEATURE_ID },
    });
    expect(added?.body).toMatchObject({
      name: 'Faster checkout',
      comment: 'Speed',
      lastModifiedDate: featureFixture().lastModifiedDate,
    });
    // The form still holds the edit, and says where it is.
    expect(name.value).toBe('Faster checkout');
    expect(
      within(form).getByText('Your edit is in a change request: it goes live once the request is applied.'),
    ).toBeVisible();
  });

  it("creates a draft in the refusal's environment when it names no request, without losing the edit", async () => {
    const created = requestIn(5, 'Change New checkout settings');
    const { calls, user, form, name } = await renameAndUpdate({
      'PUT /api/v1/projects/web/features': refusal(),
      [`POST ${DRAFTS}`]: () => jsonResponse(201, { ...created, changes: [] }),
      [`POST ${DRAFTS}/${created.id}/changes`]: () => jsonResponse(200, created),
    });

    await user.click(await within(form).findByRole('button', { name: 'Add to change request' }));

    expect(
      await screen.findByText('Added to the change request “Change New checkout settings”.'),
    ).toBeVisible();
    expect(screen.getByRole('link', { name: 'Open the change request' })).toHaveAttribute(
      'href',
      `/projects/web/environments/production/change-requests/${created.id}`,
    );
    const [, draft, added] = writes(calls);
    // In Production, where the refusal said the change goes, not in the page's Development.
    expect(draft).toEqual({
      method: 'POST',
      path: DRAFTS,
      body: { environmentKey: 'production', title: 'Change New checkout settings', description: '' },
    });
    expect(added?.path).toBe(`${DRAFTS}/${created.id}/changes`);
    expect(added?.body).toMatchObject({ kind: 'feature', id: FEATURE_ID, name: 'Faster checkout' });
    expect(name.value).toBe('Faster checkout');
  });

  it('keeps the edit and says why when the change cannot be added', async () => {
    const mine = requestIn(6, 'Spring launch');
    const { user, form, name } = await renameAndUpdate({
      'PUT /api/v1/projects/web/features': refusal(mine.id),
      [`POST ${DRAFTS}/${mine.id}/changes`]: () =>
        jsonResponse(409, { title: 'This request is closed.', code: 'conflict' }),
    });

    await user.click(await within(form).findByRole('button', { name: 'Add to change request' }));

    expect(
      await screen.findByText('The settings were not added to a change request. This request is closed.'),
    ).toBeVisible();
    const alert = await within(form).findByRole('alert');
    expect(alert).toHaveTextContent('Faster checkout was not added to a change request');
    expect(alert).toHaveTextContent('This request is closed.');
    await waitFor(() => expect(name.value).toBe('Faster checkout'));
  });
});
