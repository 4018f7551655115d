import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { DETAIL, FEATURE_ID, resetOverlays } from '../../../testing/test-fixtures';
import { renderFeatureDetail } from '../../../testing/feature-detail-test-utils';

const SETTINGS = `${DETAIL}/settings`;
const FEATURE_LIST = '/projects/web/environments/production/features';
const QUESTION = 'Your changes to the settings are not saved. If you leave this page, they are lost.';

async function openSettings(options: Parameters<typeof renderFeatureDetail>[1] = {}) {
  const rendered = renderFeatureDetail(SETTINGS, options);
  const form = await screen.findByRole('form', { name: 'Feature Settings' });
  return { ...rendered, form, user: userEvent.setup() };
}

/** The feature's description, above those of its variants. */
const description = (form: HTMLElement) =>
  within(form).getAllByRole('textbox', { name: 'Description' })[0] as HTMLTextAreaElement;

/** Whether the browser would ask before the page is reloaded or closed. */
function asksBeforeUnload(): boolean {
  const event = new Event('beforeunload', { cancelable: true });
  window.dispatchEvent(event);
  return event.defaultPrevented;
}

describe('Unsaved edits on the feature page', { timeout: 20_000 }, () => {
  afterEach(() => {
    resetOverlays();
    vi.unstubAllGlobals();
  });

  it('keeps a settings edit while another tab shows', async () => {
    const { form, user, pathname } = await openSettings();
    await user.clear(description(form));
    await user.type(description(form), 'Not saved yet');

    await user.click(screen.getByRole('tab', { name: 'Audit' }));
    expect(await screen.findByText('Nothing has been recorded for this feature yet.')).toBeVisible();
    expect(pathname()).toBe(`${DETAIL}/audit`);
    expect(screen.queryByRole('dialog')).toBeNull();

    await user.click(screen.getByRole('tab', { name: 'Settings' }));
    const again = await screen.findByRole('form', { name: 'Feature Settings' });
    expect(description(again).value).toBe('Not saved yet');
    expect(
      (within(again).getByRole('button', { name: 'Update feature' }) as HTMLButtonElement).disabled,
    ).toBe(false);
  });

  it('asks before leaving with a settings edit: Keep editing stays, Leave without saving goes', async () => {
    const { form, user, pathname } = await openSettings();
    await user.type(description(form), ' More.');

    await user.click(screen.getByRole('link', { name: 'Features' }));
    let dialog = await screen.findByRole('dialog', { name: 'Unsaved changes' });
    expect(within(dialog).getByText(QUESTION)).toBeVisible();
    await user.click(within(dialog).getByRole('button', { name: 'Keep editing' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Unsaved changes' })).toBeNull());
    expect(pathname()).toBe(SETTINGS);
    expect(description(form).value).toBe('The one-page checkout. More.');

    await user.click(screen.getByRole('link', { name: 'Features' }));
    dialog = await screen.findByRole('dialog', { name: 'Unsaved changes' });
    await user.click(within(dialog).getByRole('button', { name: 'Leave without saving' }));
    expect(await screen.findByRole('heading', { name: 'Feature list' })).toBeVisible();
    expect(pathname()).toBe(FEATURE_LIST);
  });

  it('lets the page be left without a question when nothing is edited', async () => {
    const { form, user, pathname } = await openSettings();
    await user.type(description(form), ' More.');
    await user.click(within(form).getByRole('button', { name: 'Cancel' }));

    await user.click(screen.getByRole('link', { name: 'Features' }));
    expect(await screen.findByRole('heading', { name: 'Feature list' })).toBeVisible();
    expect(pathname()).toBe(FEATURE_LIST);
    expect(screen.queryByRole('dialog', { name: 'Unsaved changes' })).toBeNull();
  });

  it('has the browser ask before a reload or closing the tab only while there are edits', async () => {
    const { form, user } = await openSettings();
    expect(asksBeforeUnload()).toBe(false);
    await user.type(description(form), ' More.');
    expect(asksBeforeUnload()).toBe(true);
    await user.click(screen.getByRole('tab', { name: 'Overview' }));
    expect(asksBeforeUnload()).toBe(true);
    await user.click(screen.getByRole('tab', { name: 'Settings' }));
    await user.click(within(form).getByRole('button', { name: 'Cancel' }));
    expect(asksBeforeUnload()).toBe(false);
  });

  it('does not ask about the edits of a feature just deleted', async () => {
    const { form, user, pathname } = await openSettings({
      handlers: {
        [`DELETE /api/v1/project/web/features/${FEATURE_ID}/`]: () => new Response(null, { status: 204 }),
      },
    });
    await user.type(description(form), ' More.');
    await user.click(screen.getByRole('button', { name: 'Delete feature' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete feature' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete feature' }));

    expect(await screen.findByRole('heading', { name: 'Feature list' })).toBeVisible();
    expect(pathname()).toBe(FEATURE_LIST);
    expect(screen.queryByRole('dialog', { name: 'Unsaved changes' })).toBeNull();
  });
});
