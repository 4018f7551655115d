import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { jsonResponse } from '../../../testing/test-utils';
import {
  LIST_PATH,
  renderAccessTokens,
  resetOverlays,
  serveTokens,
  tokenFixture,
} from '../../../testing/tokens-test-server';

const DAY_MS = 24 * 60 * 60 * 1000;

// Local times, so that the dates read the same in any time zone.
const deploy = tokenFixture('Deploy script', {
  createdDate: new Date(2026, 2, 3, 16, 5).toISOString(),
  expiresDate: new Date(Date.now() + 30 * DAY_MS).toISOString(),
  lastUsedDate: new Date(Date.now() - 3 * 60 * 1000).toISOString(),
});
const ci = tokenFixture('CI', { createdDate: '2026-02-01T09:00:00.000Z' });
const old = tokenFixture('Old laptop', { expiresDate: new Date(2026, 0, 1, 0, 0).toISOString() });

const table = () => screen.getByRole('table', { name: 'Access tokens' });
const rows = () => within(table()).getAllByRole('row').slice(1);

describe('Access Tokens tab', () => {
  afterEach(() => {
    resetOverlays();
    vi.unstubAllGlobals();
  });

  it('lists each token with its name, masked token, created, expires and last used dates', async () => {
    serveTokens({ tokens: [deploy, ci, old] });
    renderAccessTokens();

    expect(screen.getByRole('heading', { name: 'Access Tokens' })).toBeVisible();
    await screen.findByText('Deploy script');
    expect(
      within(table())
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Name', 'Token', 'Created', 'Expires', 'Last used', 'Actions']);
    const [first, second, third] = rows().map((row) => within(row));
    expect(first!.getByText(deploy.key)).toBeVisible();
    expect(deploy.key).toMatch(/^vxp_….{4}$/);
    expect(first!.getByText('3rd Mar 2026, 4:05pm')).toBeVisible();
    expect(first!.getByText('3 minutes ago')).toBeVisible();
    expect(first!.getByRole('button', { name: 'Delete Deploy script' })).toBeVisible();
    // Never used, never expires.
    expect(second!.getAllByText('Never')).toHaveLength(2);
    // Expired: says so, with the date it did.
    expect(third!.getByText('Expired')).toBeVisible();
    expect(third!.getByText('1st Jan 2026, 12:00am')).toBeVisible();
  });

  it('says there are none yet, with New Token', async () => {
    serveTokens();
    renderAccessTokens();

    expect(await screen.findByText('You have no access tokens yet.')).toBeVisible();
    expect(screen.getAllByRole('button', { name: 'New Token' })).toHaveLength(2);
  });

  it('shows skeleton rows while loading and Retry when loading fails', async () => {
    let fail = true;
    serveTokens({
      handlers: {
        [`GET ${LIST_PATH}`]: () =>
          fail ? jsonResponse(500, { title: 'Something went wrong on our side.' }) : jsonResponse(200, [ci]),
      },
    });
    const { user } = renderAccessTokens();
    expect(screen.getAllByTestId('token-skeleton-row').length).toBeGreaterThan(0);

    const alert = (await screen.findByText('We could not load your access tokens.')).closest<HTMLElement>(
      '[role="alert"]',
    )!;
    expect(alert.textContent).toContain('Something went wrong on our side.');
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('CI')).toBeVisible();
  });

  it('deletes a token after a confirmation and says "Token has been deleted"', async () => {
    const { calls } = serveTokens({ tokens: [deploy, ci] });
    const { user } = renderAccessTokens();
    await screen.findByText('CI');

    await user.click(screen.getByRole('button', { name: 'Delete CI' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete Token' });
    expect(dialog.textContent).toContain(
      'Delete the token "CI"? Scripts and tools using it stop working at once.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Delete token' }));

    expect(await screen.findByText('Token has been deleted')).toBeVisible();
    await waitFor(() => expect(screen.queryByText('CI')).toBeNull());
    expect(rows()).toHaveLength(1);
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual([`${LIST_PATH}/${ci.id}`]);
  });

  it('keeps the token when the confirmation is cancelled', async () => {
    const { calls } = serveTokens({ tokens: [ci] });
    const { user } = renderAccessTokens();
    await screen.findByText('CI');

    await user.click(screen.getByRole('button', { name: 'Delete CI' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete Token' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    expect(screen.getByText('CI')).toBeVisible();
  });

  it('says "There was an error deleting the token" when the server refuses', async () => {
    serveTokens({
      tokens: [ci],
      handlers: {
        [`DELETE ${LIST_PATH}/${ci.id}`]: () =>
          jsonResponse(500, { title: 'Something went wrong on our side.' }),
      },
    });
    const { user } = renderAccessTokens();
    await screen.findByText('CI');

    await user.click(screen.getByRole('button', { name: 'Delete CI' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Delete Token' })).getByRole('button', {
        name: 'Delete token',
      }),
    );
    expect(await screen.findByText('There was an error deleting the token')).toBeVisible();
    expect(screen.queryByText('Token has been deleted')).toBeNull();
    expect(screen.getByText('CI')).toBeVisible();
  });

  it('shows each token as a card on a phone', async () => {
    // A window narrower than the `sm` breakpoint: only max-width queries match.
    vi.stubGlobal('matchMedia', (query: string) => ({
      matches: query.includes('max-width'),
      media: query,
      onchange: null,
      addListener: () => undefined,
      removeListener: () => undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    }));
    serveTokens({ tokens: [deploy, ci] });
    renderAccessTokens();

    const list = await screen.findByRole('list', { name: 'Access tokens' });
    expect(screen.queryByRole('table')).toBeNull();
    const [card] = within(list).getAllByRole('listitem');
    const content = within(card!);
    expect(content.getByText('Deploy script')).toBeVisible();
    expect(content.getByText(deploy.key)).toBeVisible();
    expect(content.getByText('Created')).toBeVisible();
    expect(content.getByText('3rd Mar 2026, 4:05pm')).toBeVisible();
    expect(content.getByText('3 minutes ago')).toBeVisible();
    expect(content.getByRole('button', { name: 'Delete Deploy script' })).toBeVisible();
  });
});
