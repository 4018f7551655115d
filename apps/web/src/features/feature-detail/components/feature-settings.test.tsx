import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { DENIAL_MESSAGES } from '@vexil/core';

const FEATURE_SERVED_CHANGE_NEEDS_PRODUCTION_EDITOR = DENIAL_MESSAGES.featureVariantsProduction;
import { jsonResponse } from '../../../testing/test-utils';
import {
  DETAIL,
  FEATURE_ID,
  featureFixture,
  payloadFor,
  resetOverlays,
} from '../../../testing/test-fixtures';
import { renderFeatureDetail, STALE_FEATURE_TITLE } from '../../../testing/feature-detail-test-utils';

const SETTINGS = `${DETAIL}/settings`;

async function openSettings(options: Parameters<typeof renderFeatureDetail>[1] = {}) {
  const rendered = renderFeatureDetail(SETTINGS, options);
  const form = await screen.findByRole('form', { name: 'Feature Settings' });
  return { ...rendered, form, user: userEvent.setup() };
}

/** The feature's name: the first Name field, before the variants' own. */
const nameInput = (form: HTMLElement) =>
  within(form).getAllByRole('textbox', { name: /^Name/ })[0] as HTMLInputElement;
const variantCards = (form: HTMLElement) => within(form).getAllByRole('group', { name: /^Variant \d+$/ });

describe('Feature Settings', () => {
  afterEach(() => {
    resetOverlays();
    vi.unstubAllGlobals();
  });

  it('loads the feature with the key read-only', async () => {
    const { form } = await openSettings();
    expect(nameInput(form).value).toBe('New checkout');
    const key = within(form).getAllByRole('textbox', { name: /^Key/ })[0] as HTMLInputElement;
    expect(key.value).toBe('checkout');
    expect(key.readOnly).toBe(true);
    expect(variantCards(form)).toHaveLength(2);
  });

  it('asks to confirm, saves and says so', async () => {
    const { form, user, calls } = await openSettings();
    await user.clear(nameInput(form));
    await user.type(nameInput(form), 'Faster checkout');
    await user.click(within(form).getByRole('button', { name: 'Update feature' }));

    const dialog = await screen.findByRole('dialog', { name: 'Update feature settings' });
    expect(within(dialog).getByText('Are you sure you wish to Update Faster checkout?')).toBeVisible();
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toBeVisible();
    await user.click(within(dialog).getByRole('button', { name: 'Update feature' }));

    expect(await screen.findByText('Faster checkout settings saved.')).toBeVisible();
    const put = calls.find((c) => c.method === 'PUT');
    expect(put?.path).toBe('/api/v1/projects/web/features');
    expect(put?.body).toMatchObject({
      id: FEATURE_ID,
      name: 'Faster checkout',
      key: 'checkout',
      variants: [
        { key: 'on', name: 'On', description: '' },
        { key: 'off', name: 'Off', description: '' },
      ],
      tags: ['payments'],
      jiraIssueKeys: ['SHOP-12'],
      maintainerId: '00000000-0000-4000-8000-000000000001',
      permanent: false,
      // The version the form loaded, so that the server refuses the save when someone saved since.
      lastModifiedDate: featureFixture().lastModifiedDate,
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Faster checkout' })).toBeVisible();
  });

  it('offers to reload when someone saved the settings since the form loaded, and Reload shows theirs', async () => {
    const { form, user, calls, state } = await openSettings();
    await user.clear(nameInput(form));
    await user.type(nameInput(form), 'My checkout');
    // Meanwhile someone else renames the feature.
    const theirs = '2026-05-01T00:00:00.000Z';
    state.feature = { ...state.feature, name: 'Their checkout', lastModifiedDate: theirs };
    const update = () => within(form).getByRole('button', { name: 'Update feature' }) as HTMLButtonElement;
    await user.click(update());
    const dialog = await screen.findByRole('dialog', { name: 'Update feature settings' });
    await user.click(within(dialog).getByRole('button', { name: 'Update feature' }));

    expect(
      await screen.findByText(`We encountered an error, My checkout was not saved. ${STALE_FEATURE_TITLE}`),
    ).toBeVisible();
    const [failure] = await within(form).findAllByRole('alert');
    expect(failure!.textContent).toContain(STALE_FEATURE_TITLE);
    // The edit stays until the user chooses to drop it.
    expect(nameInput(form).value).toBe('My checkout');

    await user.click(within(failure!).getByRole('button', { name: 'Reload' }));

    await waitFor(() => expect(nameInput(form).value).toBe('Their checkout'));
    expect(within(form).queryByRole('alert')).toBeNull();
    // The warning toast, which said to reload, goes too.
    await waitFor(() => expect(screen.queryByText(/My checkout was not saved/)).toBeNull());
    expect(update().disabled).toBe(true);

    // An edit now starts from their version, and saves.
    await user.type(nameInput(form), ' v2');
    await user.click(update());
    const again = await screen.findByRole('dialog', { name: 'Update feature settings' });
    await user.click(within(again).getByRole('button', { name: 'Update feature' }));
    expect(await screen.findByText('Their checkout v2 settings saved.')).toBeVisible();
    expect(calls.filter((c) => c.method === 'PUT').at(-1)?.body).toMatchObject({
      name: 'Their checkout v2',
      lastModifiedDate: theirs,
    });
  });

  it('saves nothing when the confirmation is cancelled', async () => {
    const { form, user, calls } = await openSettings();
    await user.type(nameInput(form), ' v2');
    await user.click(within(form).getByRole('button', { name: 'Update feature' }));
    const dialog = await screen.findByRole('dialog', { name: 'Update feature settings' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);
    expect(nameInput(form).value).toBe('New checkout v2');
  });

  it('warns and marks the form failed when the server refuses', async () => {
    const title = 'A feature with this name already exists.';
    const { form, user } = await openSettings({
      handlers: {
        'PUT /api/v1/projects/web/features': () =>
          jsonResponse(400, {
            title,
            errors: [
              { field: 'name', message: 'This name is taken.' },
              { field: 'variants', message: 'Existing variants cannot be removed or re-keyed: "off".' },
            ],
          }),
      },
    });
    await user.type(nameInput(form), ' v2');
    await user.click(within(form).getByRole('button', { name: 'Update feature' }));
    const dialog = await screen.findByRole('dialog', { name: 'Update feature settings' });
    await user.click(within(dialog).getByRole('button', { name: 'Update feature' }));

    expect(
      await screen.findByText(`We encountered an error, New checkout v2 was not saved. ${title}`),
    ).toBeVisible();
    const [failure] = await within(form).findAllByRole('alert');
    expect(failure!.textContent).toContain(title);
    expect(within(form).getByText('This name is taken.')).toBeVisible();
    expect(within(form).getByText('Existing variants cannot be removed or re-keyed: "off".')).toBeVisible();
  });

  it('puts the form back to the loaded feature on Cancel', async () => {
    const { form, user } = await openSettings();
    await user.clear(nameInput(form));
    await user.type(nameInput(form), 'Something else');
    await user.click(within(form).getByRole('button', { name: 'Add variant' }));
    expect(variantCards(form)).toHaveLength(3);

    await user.click(within(form).getByRole('button', { name: 'Cancel' }));
    expect(nameInput(form).value).toBe('New checkout');
    expect(variantCards(form)).toHaveLength(2);
  });

  it('locks saved variants, and lets new ones be edited and removed', async () => {
    const { form, user } = await openSettings();
    const [on] = variantCards(form);
    expect((within(on!).getByRole('textbox', { name: /^Key/ }) as HTMLInputElement).readOnly).toBe(true);
    expect(within(form).queryByRole('button', { name: /^Remove Variant/ })).toBeNull();

    await user.click(within(form).getByRole('button', { name: 'Add variant' }));
    const added = variantCards(form)[2]!;
    const key = within(added).getByRole('textbox', { name: /^Key/ }) as HTMLInputElement;
    expect(key.readOnly).toBe(false);
    await user.type(key, 'Blue Button');
    await user.tab();
    expect(key.value).toBe('blue-button');

    expect(within(form).getAllByRole('button', { name: /^Remove Variant/ })).toHaveLength(1);
    await user.click(within(form).getByRole('button', { name: 'Remove Variant 3' }));
    expect(variantCards(form)).toHaveLength(2);
  });

  it('requires a valid variant and JSON value before asking to confirm', async () => {
    const { form, user } = await openSettings();
    await user.click(within(form).getByRole('button', { name: 'Add variant' }));
    const added = variantCards(form)[2]!;
    await user.type(within(added).getByRole('textbox', { name: /^Key/ }), 'blue');
    await user.type(within(added).getByRole('textbox', { name: /^Value/ }), '{{not json');
    await user.click(within(form).getByRole('button', { name: 'Update feature' }));

    expect(await within(added).findByText('Name is required')).toBeVisible();
    expect(within(added).getAllByText('Must be valid JSON.').length).toBeGreaterThan(0);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('sends a variant value as JSON', async () => {
    const { form, user, calls } = await openSettings();
    await user.click(within(form).getByRole('button', { name: 'Add variant' }));
    const added = variantCards(form)[2]!;
    await user.type(within(added).getByRole('textbox', { name: /^Key/ }), 'blue');
    await user.type(within(added).getByRole('textbox', { name: /^Name/ }), 'Blue');
    await user.type(within(added).getByRole('textbox', { name: /^Value/ }), '{{"color": "blue"}');
    await user.click(within(form).getByRole('button', { name: 'Update feature' }));
    const dialog = await screen.findByRole('dialog', { name: 'Update feature settings' });
    await user.click(within(dialog).getByRole('button', { name: 'Update feature' }));

    expect(await screen.findByText('New checkout settings saved.')).toBeVisible();
    const body = calls.find((c) => c.method === 'PUT')?.body as { variants: unknown[] };
    expect(body.variants[2]).toEqual({
      key: 'blue',
      name: 'Blue',
      description: '',
      value: { color: 'blue' },
    });
  });

  it('lets a non-production editor change everything but the variants production serves', async () => {
    const { form, user, calls } = await openSettings({ payload: payloadFor('ROLE_ORGANISATION_EDITOR') });
    expect(
      within(form).getByText(
        `${FEATURE_SERVED_CHANGE_NEEDS_PRODUCTION_EDITOR} You can change the other settings.`,
      ),
    ).toBeVisible();
    expect(within(form).queryByRole('button', { name: 'Add variant' })).toBeNull();
    for (const card of variantCards(form)) {
      expect((within(card).getByRole('textbox', { name: /^Name/ }) as HTMLInputElement).disabled).toBe(true);
    }
    await user.type(nameInput(form), ' v2');
    await user.click(within(form).getByRole('button', { name: 'Update feature' }));
    const dialog = await screen.findByRole('dialog', { name: 'Update feature settings' });
    await user.click(within(dialog).getByRole('button', { name: 'Update feature' }));
    expect(await screen.findByText('New checkout v2 settings saved.')).toBeVisible();
    expect(calls.find((c) => c.method === 'PUT')?.body).toMatchObject({
      name: 'New checkout v2',
      variants: [
        { key: 'on', name: 'On' },
        { key: 'off', name: 'Off' },
      ],
    });
  });

  it('lets a non-production editor change the variants of a project without production', async () => {
    const payload = payloadFor('ROLE_ORGANISATION_EDITOR');
    const [web] = payload.projects;
    const withoutProduction = {
      ...payload,
      projects: [{ ...web!, environments: web!.environments.filter((e) => !e.production) }],
    };
    renderFeatureDetail('/projects/web/environments/dev/features/checkout/settings', {
      payload: withoutProduction,
    });
    const form = await screen.findByRole('form', { name: 'Feature Settings' });
    expect(within(form).queryByText(new RegExp(FEATURE_SERVED_CHANGE_NEEDS_PRODUCTION_EDITOR))).toBeNull();
    expect(within(form).getByRole('button', { name: 'Add variant' })).toBeVisible();
  });

  it("shows the server's refusal to change what production serves in the form", async () => {
    const { form, user } = await openSettings({
      handlers: {
        'PUT /api/v1/projects/web/features': () =>
          jsonResponse(403, { title: FEATURE_SERVED_CHANGE_NEEDS_PRODUCTION_EDITOR }),
      },
    });
    const on = variantCards(form)[0]!;
    await user.type(within(on).getByRole('textbox', { name: /^Name/ }), ' now');
    await user.click(within(form).getByRole('button', { name: 'Update feature' }));
    const dialog = await screen.findByRole('dialog', { name: 'Update feature settings' });
    await user.click(within(dialog).getByRole('button', { name: 'Update feature' }));
    const [failure] = await within(form).findAllByRole('alert');
    expect(failure!.textContent).toBe(
      `New checkout was not saved${FEATURE_SERVED_CHANGE_NEEDS_PRODUCTION_EDITOR}`,
    );
  });

  it('is read-only for a read-only user', async () => {
    const { form } = await openSettings({ payload: payloadFor('ROLE_ORGANISATION_READONLY_USER') });
    expect(nameInput(form).disabled).toBe(true);
    expect(within(form).queryByRole('button', { name: 'Update feature' })).toBeNull();
    expect(within(form).queryByRole('button', { name: 'Add variant' })).toBeNull();
    expect(within(form).getByText('You can view these settings; an editor can change them.')).toBeVisible();
  });
});

describe('Delete feature', () => {
  afterEach(() => {
    resetOverlays();
    vi.unstubAllGlobals();
  });

  it('is disabled for a non-production editor, who is told why', async () => {
    await openSettings({ payload: payloadFor('ROLE_ORGANISATION_EDITOR') });
    const button = screen.getByRole('button', { name: 'Delete feature' }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    await userEvent.setup().hover(button.parentElement!);
    expect((await screen.findByRole('tooltip')).textContent).toBe(
      'Only a production editor can delete a feature.',
    );
  });

  it('deletes after confirmation, says so and goes to the feature list', async () => {
    const { user, calls, pathname } = await openSettings({
      handlers: {
        [`DELETE /api/v1/project/web/features/${FEATURE_ID}/`]: () => new Response(null, { status: 204 }),
      },
    });
    await user.click(screen.getByRole('button', { name: 'Delete feature' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete feature' });
    // The key as well as the name: two features may share a name.
    expect(dialog.textContent).toContain('Are you sure you wish to delete New checkout (checkout)?');
    await user.click(within(dialog).getByRole('button', { name: 'Delete feature' }));

    expect(await screen.findByText('New checkout has been deleted')).toBeVisible();
    expect(await screen.findByRole('heading', { name: 'Feature list' })).toBeVisible();
    expect(pathname()).toBe('/projects/web/environments/production/features');
    expect(
      calls.some((c) => c.method === 'DELETE' && c.path === `/api/v1/project/web/features/${FEATURE_ID}/`),
    ).toBe(true);
  });
});
