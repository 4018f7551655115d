import { describe, expect, it } from 'vitest';
import { signIn, useFreshPage, viewShot } from './support/browser';
import { DESKTOP, PHONE } from './support/api';
import { sharedServerURL } from './support/shared-server';

/*
 * Admin › Access Tokens (docs/product.md §2): the demo admin creates a personal access token, copies it
 * from the modal that shows it once, calls the API with it as a script would, sees its last use, and
 * deletes it, after which the same call is refused.
 */

const page$ = useFreshPage();

async function callWith(token: string): Promise<{ status: number; body: string }> {
  const res = await fetch(`${sharedServerURL()}/api/v1/projects`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return { status: res.status, body: await res.text() };
}

describe('access tokens', () => {
  it('creates a token, copies it, uses it against the API, and deletes it', async () => {
    const { page, context } = page$;
    const name = `Deploy script ${Date.now().toString(36)}`;
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.setViewportSize(DESKTOP);
    await signIn(page, { at: '/admin/tokens' });
    await page.getByRole('heading', { name: 'Access Tokens', level: 2 }).waitFor();
    await page.getByRole('tab', { name: 'Access Tokens', selected: true }).waitFor();
    const empty = page.getByText('You have no access tokens yet.');
    await Promise.race([empty.waitFor(), page.getByRole('table', { name: 'Access tokens' }).waitFor()]);
    if (await empty.isVisible()) await viewShot(page, 'access-tokens-empty', DESKTOP.width);

    // New Token: Create stays disabled until the token has a name.
    await page.getByRole('button', { name: 'New Token' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'New Token' });
    const create = dialog.getByRole('button', { name: 'Create token' });
    expect(await create.isDisabled()).toBe(true);
    await dialog.getByRole('textbox', { name: 'Name' }).fill(name);
    await dialog.getByRole('combobox', { name: 'Expiration' }).click();
    await page.getByRole('option', { name: '30 days' }).click();
    expect(await create.isEnabled()).toBe(true);
    await viewShot(page, 'access-tokens-new', DESKTOP.width);
    await create.click();

    // Shown once, with a copy button.
    await page.getByText(`${name} has been created`).waitFor();
    await dialog.getByText('Copy your token now').waitFor();
    const shown = await dialog.getByRole('textbox', { name }).inputValue();
    expect(shown).toMatch(/^vxp_[0-9A-Za-z]{43}$/);
    await dialog.getByRole('button', { name: 'Copy token' }).click();
    await dialog.getByRole('button', { name: 'Copied to clipboard' }).waitFor();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toBe(shown);
    await viewShot(page, 'access-tokens-created', DESKTOP.width);
    await dialog.getByRole('button', { name: 'Done' }).click();
    await dialog.waitFor({ state: 'detached' });

    // Listed masked, never used yet, expiring in 30 days.
    const row = page.getByRole('row').filter({ hasText: name });
    await row.getByText(`vxp_…${copied.slice(-4)}`).waitFor();
    expect(await row.getByRole('cell').nth(4).textContent()).toBe('Never');
    expect(await page.content()).not.toContain(copied);

    // The token works as a script would use it: a bearer token on the API.
    const used = await callWith(copied);
    expect(used.status).toBe(200);
    expect(used.body).toContain('Sample Project');

    // Its last use shows after a reload.
    await page.reload();
    await row.getByText('a few seconds ago').waitFor();
    await viewShot(page, 'access-tokens-list', DESKTOP.width);
    await page.setViewportSize(PHONE);
    const card = page.getByRole('listitem', { name });
    await card.getByText('a few seconds ago').waitFor();
    await viewShot(page, 'access-tokens-list-phone', PHONE.width);
    await page.setViewportSize(DESKTOP);

    // Deleted after a confirmation: the next call with it is refused.
    await row.getByRole('button', { name: `Delete ${name}` }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete Token' });
    await confirm.getByText(`Delete the token "${name}"?`).waitFor();
    await confirm.getByRole('button', { name: 'Delete token' }).click();
    await page.getByText('Token has been deleted').waitFor();
    await row.waitFor({ state: 'detached' });
    expect((await callWith(copied)).status).toBe(401);
  });

  it('shows the New Token modal and the created token on a phone', async () => {
    const { page } = page$;
    await page.setViewportSize(PHONE);
    await signIn(page, { at: '/admin/tokens' });
    await page.getByRole('heading', { name: 'Access Tokens', level: 2 }).waitFor();
    await page.getByRole('button', { name: 'New Token' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'New Token' });
    await dialog.getByRole('textbox', { name: 'Name' }).fill('Phone check');
    await viewShot(page, 'access-tokens-new-phone', PHONE.width);
    await dialog.getByRole('button', { name: 'Create token' }).click();
    await dialog.getByText('Copy your token now').waitFor();
    await viewShot(page, 'access-tokens-created-phone', PHONE.width);
    const token = await dialog.getByRole('textbox', { name: 'Phone check' }).inputValue();
    await dialog.getByRole('button', { name: 'Done' }).click();

    // Cleaned up through the API with the token itself.
    const list = await fetch(`${sharedServerURL()}/api/internal/v1/tokens`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const mine = ((await list.json()) as { id: string; name: string }[]).find(
      (t) => t.name === 'Phone check',
    );
    const removed = await fetch(`${sharedServerURL()}/api/internal/v1/tokens/${mine!.id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(removed.status).toBe(204);
  });
});
