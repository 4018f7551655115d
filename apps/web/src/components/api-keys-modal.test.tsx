import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MASKED_SERVER_SDK_KEY } from '@vexil/core';
import { ApiError } from '../lib/api-client';
import { closeAllModals } from '../lib/modals';
import { renderWithModals } from '../testing/test-utils';
import { HIDDEN_SERVER_KEY_MESSAGE, openApiKeysModal, type ApiKeysModalProps } from './api-keys-modal';
import { COPY_TOOLTIP_CLOSE_DELAY_MS, COPY_TOOLTIP_OPEN_DELAY_MS } from './copy-tooltip';

const production = {
  name: 'Production',
  apiKey: `sdk-srv-env-${'1'.repeat(32)}`,
  jsApiKey: `sdk-js-env-${'2'.repeat(32)}`,
};
const rotated = { ...production, apiKey: `sdk-srv-env-${'3'.repeat(32)}` };

async function open(props: Partial<ApiKeysModalProps> = {}) {
  renderWithModals(<span />);
  const user = userEvent.setup();
  act(() => {
    openApiKeysModal({ environment: production, ...props });
  });
  const dialog = await screen.findByRole('dialog', { name: 'Api keys · Production' });
  const input = (label: string) => within(dialog).getByRole('textbox', { name: label }) as HTMLInputElement;
  return { user, dialog, input };
}

describe('Api keys modal', () => {
  afterEach(() => {
    act(() => closeAllModals());
    vi.restoreAllMocks();
  });

  it('shows the JS client key and the server key read-only, and which is secret', async () => {
    const { dialog, input } = await open();
    expect(input('JS Client Key').value).toBe(production.jsApiKey);
    expect(input('JS Client Key').readOnly).toBe(true);
    expect(input('Server Key').value).toBe(production.apiKey);
    expect(input('Server Key').readOnly).toBe(true);
    expect(within(dialog).getByText(/Public: browser and mobile SDKs/)).toBeVisible();
    expect(within(dialog).getByText(/Secret: server SDKs/)).toBeVisible();
    // Without onRotate (not an admin) there is nothing to rotate.
    expect(within(dialog).queryByRole('button', { name: /Rotate/ })).toBeNull();
  });

  it('copies a key and says "Copied to clipboard"', async () => {
    const { user, dialog } = await open();
    const writeText = vi.fn(() => Promise.resolve());
    // After userEvent.setup(), which installs its own clipboard.
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    await user.click(within(dialog).getByRole('button', { name: 'Copy Server Key' }));
    expect(writeText).toHaveBeenCalledWith(production.apiKey);
    expect(await screen.findByText('Copied to clipboard')).toBeVisible();
    expect(within(dialog).getByRole('button', { name: 'Copied to clipboard' })).toBeVisible();
  });

  it('shows a server key the server masked as hidden, with nothing to copy, and the JS key as usual', async () => {
    const { user, dialog, input } = await open({
      environment: { ...production, apiKey: MASKED_SERVER_SDK_KEY },
    });
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    expect(input('Server Key').value).toBe(MASKED_SERVER_SDK_KEY);
    expect(within(dialog).getByText(HIDDEN_SERVER_KEY_MESSAGE)).toBeVisible();
    expect(within(dialog).queryByText(/Secret: server SDKs/)).toBeNull();
    const copyServer = within(dialog).getByRole('button', { name: 'Copy Server Key' }) as HTMLButtonElement;
    expect(copyServer.disabled).toBe(true);
    await user.click(within(dialog).getByRole('button', { name: 'Copy JS Client Key' }));
    expect(writeText).toHaveBeenCalledWith(production.jsApiKey);
    expect(writeText).toHaveBeenCalledTimes(1);
  });

  it('uses the copy tooltip delays of docs/product.md §9', () => {
    expect([COPY_TOOLTIP_OPEN_DELAY_MS, COPY_TOOLTIP_CLOSE_DELAY_MS]).toEqual([300, 150]);
  });

  it('rotates a key after a warning and shows the new key', async () => {
    const onRotate = vi.fn(() => Promise.resolve(rotated));
    const { user, dialog, input } = await open({ onRotate });
    await user.click(within(dialog).getByRole('button', { name: 'Rotate Server Key' }));
    expect(
      within(dialog).getByText(
        'Rotate the server key of Production? Applications using the old key stop receiving flags at once.',
      ),
    ).toBeVisible();
    await user.click(within(dialog).getByRole('button', { name: 'Rotate key' }));

    expect(onRotate).toHaveBeenCalledWith('server');
    expect(await within(dialog).findByDisplayValue(rotated.apiKey)).toBeVisible();
    expect(input('JS Client Key').value).toBe(production.jsApiKey);
    expect(within(dialog).queryByRole('button', { name: 'Rotate key' })).toBeNull();
  });

  it('rotates nothing when the warning is cancelled', async () => {
    const onRotate = vi.fn(() => Promise.resolve(rotated));
    const { user, dialog, input } = await open({ onRotate });
    await user.click(within(dialog).getByRole('button', { name: 'Rotate JS Client Key' }));
    expect(within(dialog).getByText(/Rotate the JS client key of Production\?/)).toBeVisible();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(onRotate).not.toHaveBeenCalled();
    expect(input('JS Client Key').value).toBe(production.jsApiKey);
  });

  it("shows the server's reason when a rotation fails", async () => {
    const onRotate = vi.fn(() =>
      Promise.reject(new ApiError({ status: 403, title: 'Only organisation admins may manage projects.' })),
    );
    const { user, dialog, input } = await open({ onRotate });
    await user.click(within(dialog).getByRole('button', { name: 'Rotate Server Key' }));
    await user.click(within(dialog).getByRole('button', { name: 'Rotate key' }));
    expect((await within(dialog).findByRole('alert')).textContent).toContain(
      'Only organisation admins may manage projects.',
    );
    expect(input('Server Key').value).toBe(production.apiKey);
  });
});
