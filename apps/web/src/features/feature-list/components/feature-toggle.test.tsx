import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { initialPayload, jsonResponse } from '../../../testing/test-utils';
import {
  featureFixture,
  renderFeatureList,
  resetOverlays,
  SAVED_DATE,
  serveFeatures,
} from '../../../testing/feature-list-test-server';

const checkout = () =>
  featureFixture(1, { name: 'Checkout', key: 'checkout' }, { production: { enabled: false } });
const switchPath = (id: string) => `/api/v1/feature-controls/${id}/enabled`;

async function openList(environmentKey: 'dev' | 'production') {
  renderFeatureList(`/projects/web/environments/${environmentKey}/features`);
  const user = userEvent.setup();
  const environmentName = environmentKey === 'dev' ? 'Development' : 'Production';
  const toggle = (await screen.findByRole('switch', {
    name: `Checkout on in ${environmentName}`,
  })) as HTMLInputElement;
  return { user, toggle };
}

/** Every control write: the switch's own call, and any whole-control save (which a toggle must not send). */
const saves = (calls: { method: string; path: string; body: unknown }[]) =>
  calls.filter((call) => call.method === 'PUT' && call.path.startsWith('/api/v1/feature-controls/'));

describe('Feature list on/off toggle', () => {
  afterEach(() => {
    resetOverlays();
    vi.unstubAllGlobals();
  });

  it('saves at once outside production and says "Feature saved."', async () => {
    const feature = checkout();
    const dev = feature.controls.dev!;
    const { calls } = serveFeatures({ features: [feature] });
    const { user, toggle } = await openList('dev');
    expect(toggle.checked).toBe(false);

    await user.click(toggle);

    expect(await screen.findByText('Feature saved.')).toBeVisible();
    expect(toggle.checked).toBe(true);
    expect(screen.queryByRole('dialog')).toBeNull();
    // Only the switch and the version the list showed: the targeting stays as stored.
    expect(saves(calls).map(({ path, body }) => ({ path, body }))).toEqual([
      { path: switchPath(dev.id), body: { enabled: true, lastModifiedDate: dev.lastModifiedDate } },
    ]);
    // The row shows what the server now serves.
    expect(await screen.findByText('Everyone gets On.')).toBeVisible();
  });

  it('sends the version of the last answer when switched again', async () => {
    const feature = checkout();
    const dev = feature.controls.dev!;
    const { calls } = serveFeatures({ features: [feature] });
    const { user, toggle } = await openList('dev');

    await user.click(toggle);
    expect(await screen.findByText('Feature saved.')).toBeVisible();
    await user.click(toggle);

    await waitFor(() => expect(saves(calls)).toHaveLength(2));
    expect(saves(calls)[1]!.body).toEqual({ enabled: false, lastModifiedDate: SAVED_DATE });
    expect(saves(calls)[1]!.path).toBe(switchPath(dev.id));
  });

  it('asks for confirmation in production, and sends nothing when cancelled', async () => {
    const { calls } = serveFeatures({ features: [checkout()] });
    const { user, toggle } = await openList('production');

    await user.click(toggle);

    const dialog = await screen.findByRole('dialog', { name: 'Production environment' });
    expect(
      within(dialog).getByText(
        'Warning, this is a production environment. Are you sure you wish to update Checkout in Production?',
      ),
    ).toBeVisible();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(toggle.checked).toBe(false);
    expect(saves(calls)).toEqual([]);
  });

  it('saves in production once confirmed', async () => {
    const feature = checkout();
    const production = feature.controls.production!;
    const { calls } = serveFeatures({ features: [feature] });
    const { user, toggle } = await openList('production');

    await user.click(toggle);
    const dialog = await screen.findByRole('dialog', { name: 'Production environment' });
    await user.click(within(dialog).getByRole('button', { name: 'Turn on' }));

    expect(await screen.findByText('Feature saved.')).toBeVisible();
    expect(toggle.checked).toBe(true);
    expect(saves(calls).map(({ path, body }) => ({ path, body }))).toEqual([
      {
        path: switchPath(production.id),
        body: { enabled: true, lastModifiedDate: production.lastModifiedDate },
      },
    ]);
  });

  it("moves back and shows the server's reason when the save fails", async () => {
    const title = 'Only a production editor can change a feature in a production environment.';
    let answer: (response: Response) => void = () => undefined;
    const feature = checkout();
    serveFeatures({
      features: [feature],
      handlers: {
        [`PUT ${switchPath(feature.controls.dev!.id)}`]: () =>
          new Promise<Response>((resolve) => (answer = resolve)),
      },
    });
    const { user, toggle } = await openList('dev');

    await user.click(toggle);
    // Optimistic: on before the server answers.
    await waitFor(() => expect(toggle.checked).toBe(true));
    answer(jsonResponse(403, { title, code: 'production_rights_required' }));

    expect(
      await screen.findByText(`We encountered an error, the feature was not saved. ${title}`),
    ).toBeVisible();
    await waitFor(() => expect(toggle.checked).toBe(false));
    // The failure is worded once: no generic toast with the bare title.
    expect(screen.queryByText(title)).toBeNull();
  });

  it('shows what is stored, with who changed it, when the control changed since the list loaded', async () => {
    const title =
      'Test User changed this targeting after you opened it. Reload to see the changes, then make yours again.';
    const feature = checkout();
    const dev = feature.controls.dev!;
    const { state, calls } = serveFeatures({
      features: [feature],
      handlers: { [`PUT ${switchPath(dev.id)}`]: () => jsonResponse(409, { title, code: 'stale_write' }) },
    });
    const { user, toggle } = await openList('dev');
    expect(screen.getByText('Off: everyone gets Off.')).toBeVisible();
    // Meanwhile someone turned the feature on and now serves everyone Off.
    const theirs = {
      ...dev,
      enabled: true,
      rules: [{ defaultRule: true, audience: null, variantSplits: [{ variantKey: 'off', split: 100 }] }],
      rulesDescription: 'Everyone gets Off.',
      lastModifiedDate: SAVED_DATE,
    };
    state.features = [{ ...feature, controls: { ...feature.controls, dev: theirs } }];
    const listCalls = calls.filter((call) => call.method === 'GET').length;

    await user.click(toggle);

    expect(await screen.findByText(title)).toBeVisible();
    expect(screen.queryByText(/We encountered an error/)).toBeNull();
    // The list loads again and shows what is stored: on, serving Off.
    expect(await screen.findByText('Everyone gets Off.')).toBeVisible();
    expect(toggle.checked).toBe(true);
    expect(calls.filter((call) => call.method === 'GET').length).toBeGreaterThan(listCalls);
    expect(saves(calls).map((call) => call.body)).toEqual([
      { enabled: true, lastModifiedDate: dev.lastModifiedDate },
    ]);
  });

  it('is disabled, with the reason, for read-only users', async () => {
    const payload = initialPayload();
    payload.principalUser.authorities = ['ROLE_ORGANISATION_READONLY_USER'];
    serveFeatures({ payload, features: [checkout()] });
    const { toggle } = await openList('dev');
    expect(toggle.disabled).toBe(true);
    expect(toggle).toHaveAccessibleDescription();
    expect(document.getElementById(toggle.getAttribute('aria-describedby')!)?.textContent).toBe(
      'You do not have permission to change this feature.',
    );
  });

  it('is disabled in production for editors who are not production editors', async () => {
    const payload = initialPayload();
    payload.principalUser.authorities = ['ROLE_ORGANISATION_EDITOR'];
    serveFeatures({ payload, features: [checkout()] });
    const { toggle } = await openList('production');
    expect(toggle.disabled).toBe(true);
    expect(document.getElementById(toggle.getAttribute('aria-describedby')!)?.textContent).toBe(
      'Only a production editor can change a feature in a production environment.',
    );
  });

  it('is enabled outside production for editors', async () => {
    const payload = initialPayload();
    payload.principalUser.authorities = ['ROLE_ORGANISATION_EDITOR'];
    serveFeatures({ payload, features: [checkout()] });
    const { toggle } = await openList('dev');
    expect(toggle.disabled).toBe(false);
  });
});
