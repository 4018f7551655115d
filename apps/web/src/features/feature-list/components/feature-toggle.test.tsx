import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { initialPayload, jsonResponse } from '../../../test-utils';
import { featureFixture, renderFeatureList, resetOverlays, serveFeatures } from './feature-list-test-server';

const checkout = () =>
  featureFixture(1, { name: 'Checkout', key: 'checkout' }, { production: { enabled: false } });

async function openList(environmentKey: 'dev' | 'production') {
  renderFeatureList(`/projects/web/environments/${environmentKey}/features`);
  const user = userEvent.setup();
  const environmentName = environmentKey === 'dev' ? 'Development' : 'Production';
  const toggle = (await screen.findByRole('switch', {
    name: `Checkout on in ${environmentName}`,
  })) as HTMLInputElement;
  return { user, toggle };
}

const saves = (calls: { method: string; path: string; body: unknown }[]) =>
  calls.filter((call) => call.method === 'PUT' && call.path === '/api/v1/feature-controls/');

describe('Feature list on/off toggle', () => {
  afterEach(() => {
    resetOverlays();
    vi.unstubAllGlobals();
  });

  it('saves at once outside production and says "Feature saved."', async () => {
    const feature = checkout();
    const { calls } = serveFeatures({ features: [feature] });
    const { user, toggle } = await openList('dev');
    expect(toggle.checked).toBe(false);

    await user.click(toggle);

    expect(await screen.findByText('Feature saved.')).toBeTruthy();
    expect(toggle.checked).toBe(true);
    expect(screen.queryByRole('dialog')).toBeNull();
    const dev = feature.controls.dev!;
    expect(saves(calls).map((call) => call.body)).toEqual([
      { id: dev.id, enabled: true, offVariantKey: 'off', rules: dev.rules },
    ]);
    // The row shows what the server now serves.
    expect(await screen.findByText('Everyone gets On.')).toBeTruthy();
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
    ).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(toggle.checked).toBe(false);
    expect(saves(calls)).toEqual([]);
  });

  it('saves in production once confirmed', async () => {
    const feature = checkout();
    const { calls } = serveFeatures({ features: [feature] });
    const { user, toggle } = await openList('production');

    await user.click(toggle);
    const dialog = await screen.findByRole('dialog', { name: 'Production environment' });
    await user.click(within(dialog).getByRole('button', { name: 'Turn on' }));

    expect(await screen.findByText('Feature saved.')).toBeTruthy();
    expect(toggle.checked).toBe(true);
    expect(saves(calls).map((call) => call.body)).toEqual([
      expect.objectContaining({ id: feature.controls.production!.id, enabled: true }),
    ]);
  });

  it("moves back and shows the server's reason when the save fails", async () => {
    const title = 'Only a production editor can change a feature in a production environment.';
    let answer: (response: Response) => void = () => undefined;
    serveFeatures({
      features: [checkout()],
      handlers: {
        'PUT /api/v1/feature-controls/': () => new Promise<Response>((resolve) => (answer = resolve)),
      },
    });
    const { user, toggle } = await openList('dev');

    await user.click(toggle);
    // Optimistic: on before the server answers.
    await waitFor(() => expect(toggle.checked).toBe(true));
    answer(jsonResponse(403, { title }));

    expect(
      await screen.findByText(`We encountered an error, the feature was not saved. ${title}`),
    ).toBeTruthy();
    await waitFor(() => expect(toggle.checked).toBe(false));
    // The failure is worded once: no generic toast with the bare title.
    expect(screen.queryByText(title)).toBeNull();
  });

  it('is disabled, with the reason, for read-only users', async () => {
    const payload = initialPayload();
    payload.principalUser.authorities = ['ROLE_ORGANISATION_READONLY_USER'];
    serveFeatures({ payload, features: [checkout()] });
    const { toggle } = await openList('dev');
    expect(toggle.disabled).toBe(true);
    expect(toggle.getAttribute('aria-describedby')).toBeTruthy();
    expect(document.getElementById(toggle.getAttribute('aria-describedby')!)?.textContent).toBe(
      'You do not have permission to change features.',
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
