import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { jsonResponse } from '../../../testing/test-utils';
import {
  LIST_PATH,
  masked,
  renderAccessTokens,
  resetOverlays,
  serveTokens,
  tokenFixture,
} from '../../../testing/tokens-test-server';

async function openNewToken() {
  const rendered = renderAccessTokens();
  await screen.findByText('You have no access tokens yet.');
  await rendered.user.click(screen.getAllByRole('button', { name: 'New Token' })[0]!);
  const dialog = await screen.findByRole('dialog', { name: 'New Token' });
  return { ...rendered, dialog, within: within(dialog) };
}

const createButton = (dialog: HTMLElement) =>
  within(dialog).getByRole('button', { name: 'Create token' }) as HTMLButtonElement;

describe('New Token modal', () => {
  afterEach(() => {
    resetOverlays();
    vi.unstubAllGlobals();
  });

  it('blocks Create while the name is empty or blank', async () => {
    const { calls } = serveTokens();
    const { user, dialog, within: modal } = await openNewToken();

    expect(createButton(dialog).disabled).toBe(true);
    await user.type(modal.getByRole('textbox', { name: 'Name' }), '   ');
    expect(createButton(dialog).disabled).toBe(true);
    await user.type(modal.getByRole('textbox', { name: 'Name' }), 'CI');
    expect(createButton(dialog).disabled).toBe(false);
    await user.clear(modal.getByRole('textbox', { name: 'Name' }));
    expect(createButton(dialog).disabled).toBe(true);
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('creates a token expiring in 90 days by default, shows it once with a copy button, and lists it masked', async () => {
    const { calls, created } = serveTokens();
    const { user, dialog, within: modal } = await openNewToken();

    expect((modal.getByRole('combobox', { name: 'Expiration' }) as HTMLInputElement).value).toBe('90 days');
    await user.type(modal.getByRole('textbox', { name: 'Name' }), '  Deploy script ');
    await user.click(createButton(dialog));

    expect(await screen.findByText('Deploy script has been created')).toBeVisible();
    expect(calls.find((c) => c.method === 'POST')!.body).toEqual({
      name: 'Deploy script',
      expiresInDays: 90,
    });
    const token = created[0]!;
    const shown = await modal.findByRole('textbox', { name: 'Deploy script' });
    expect((shown as HTMLInputElement).value).toBe(token.key);
    expect(modal.getByText('Copy your token now')).toBeVisible();
    expect(dialog.textContent).toContain('You won’t be able to see it again.');

    const writeText = vi.fn(() => Promise.resolve());
    // After userEvent.setup(), which installs its own clipboard.
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    await user.click(modal.getByRole('button', { name: 'Copy token' }));
    expect(writeText).toHaveBeenCalledWith(token.key);
    expect(await modal.findByRole('button', { name: 'Copied to clipboard' })).toBeVisible();

    await user.click(modal.getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const row = (await screen.findByText('Deploy script')).closest('tr')!;
    expect(within(row).getByText(masked(token.key))).toBeVisible();
    // Once closed, the whole token is nowhere on the page.
    expect(document.body.textContent).not.toContain(token.key);
  });

  it('creates a token that never expires when asked', async () => {
    const { calls } = serveTokens();
    const { user, dialog, within: modal } = await openNewToken();

    await user.type(modal.getByRole('textbox', { name: 'Name' }), 'Forever');
    await user.click(modal.getByRole('combobox', { name: 'Expiration' }));
    await user.click(await screen.findByRole('option', { name: 'Never' }));
    await user.click(createButton(dialog));

    expect(await screen.findByText('Forever has been created')).toBeVisible();
    expect(calls.find((c) => c.method === 'POST')!.body).toEqual({ name: 'Forever' });
  });

  it('says "There was an error creating the token", keeps the form, and shows the server’s reason', async () => {
    serveTokens({
      tokens: [],
      handlers: {
        [`POST ${LIST_PATH}`]: () =>
          jsonResponse(400, {
            title: 'You can hold at most 50 access tokens. Delete one you no longer use first.',
          }),
      },
    });
    const { user, dialog, within: modal } = await openNewToken();

    await user.type(modal.getByRole('textbox', { name: 'Name' }), 'One too many');
    await user.click(createButton(dialog));

    expect(await screen.findByText('There was an error creating the token')).toBeVisible();
    expect((await modal.findByRole('alert')).textContent).toContain(
      'You can hold at most 50 access tokens. Delete one you no longer use first.',
    );
    expect((modal.getByRole('textbox', { name: 'Name' }) as HTMLInputElement).value).toBe('One too many');
    expect(screen.queryByText('One too many has been created')).toBeNull();
  });

  it('shows the server’s message for a refused name under the field', async () => {
    serveTokens({
      handlers: {
        [`POST ${LIST_PATH}`]: () =>
          jsonResponse(400, {
            title: 'Must be at most 255 characters.',
            errors: [{ field: 'name', message: 'Must be at most 255 characters.' }],
          }),
      },
    });
    const { user, dialog, within: modal } = await openNewToken();

    await user.type(modal.getByRole('textbox', { name: 'Name' }), 'x');
    await user.click(createButton(dialog));

    expect(await screen.findByText('There was an error creating the token')).toBeVisible();
    const name = modal.getByRole('textbox', { name: 'Name' });
    await waitFor(() => expect(name.getAttribute('aria-invalid')).toBe('true'));
  });

  it('is not closed by a click beside it, so the new token is not lost by accident', async () => {
    serveTokens({ tokens: [tokenFixture('Existing')] });
    const { user } = renderAccessTokens();
    await screen.findByText('Existing');
    await user.click(screen.getByRole('button', { name: 'New Token' }));
    const dialog = await screen.findByRole('dialog', { name: 'New Token' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'CI');
    await user.click(createButton(dialog));
    await within(dialog).findByText('Copy your token now');

    const overlay = document.querySelector<HTMLElement>('.mantine-Modal-overlay');
    expect(overlay).toBeVisible();
    await user.click(overlay!);
    expect(screen.getByRole('dialog', { name: 'New Token' })).toBeVisible();
  });
});
