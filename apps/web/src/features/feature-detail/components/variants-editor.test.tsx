import { afterEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MISSING_VARIANT_VALUES_MESSAGE, MIXED_VARIANT_VALUES_MESSAGE } from '@vexil/core';
import { DETAIL, featureFixture, resetOverlays } from '../../../testing/test-fixtures';
import { renderFeatureDetail } from '../../../testing/feature-detail-test-utils';

/** A feature saved before the warning existed: an object for Blue only, none for On and Off. */
const mixed = featureFixture({
  variants: [
    { key: 'on', name: 'On', description: '' },
    { key: 'off', name: 'Off', description: '' },
    { key: 'blue', name: 'Blue', description: '', value: { colour: '#00f' } },
  ],
});

async function openSettings(feature = mixed) {
  const rendered = renderFeatureDetail(`${DETAIL}/settings`, { feature });
  const form = await screen.findByRole('form', { name: 'Feature Settings' });
  return { ...rendered, form, user: userEvent.setup() };
}

const warning = (form: HTMLElement) =>
  within(form).queryByRole('status', { name: 'Variant values of different types' });
const valueOf = (form: HTMLElement, n: number) =>
  within(within(form).getByRole('group', { name: `Variant ${n}` })).getByRole('textbox', { name: /^Value/ });

describe('Feature Settings: variant values of different types', { timeout: 20_000 }, () => {
  afterEach(() => resetOverlays());

  it('loads a feature whose variants answer different types, and says which', async () => {
    const { form } = await openSettings();
    const alert = warning(form)!;
    expect(alert).not.toBeNull();
    expect(within(alert).getByText(MIXED_VARIANT_VALUES_MESSAGE)).toBeVisible();
    expect(within(alert).getByText('On: text, having no value (its key)')).toBeVisible();
    expect(within(alert).getByText('Blue: object')).toBeVisible();
  });

  it('stops warning once every variant has an object, and saves the fix', async () => {
    const { form, user, calls } = await openSettings();
    for (const n of [1, 2]) await user.type(valueOf(form, n), `{{"c": ${n}}`);
    await waitFor(() => expect(warning(form)).toBeNull());
    await user.click(within(form).getByRole('button', { name: 'Update feature' }));
    const dialog = await screen.findByRole('dialog', { name: 'Update feature settings' });
    await user.click(within(dialog).getByRole('button', { name: 'Update feature' }));
    expect(await screen.findByText('New checkout settings saved.')).toBeVisible();
    const body = calls.find((c) => c.method === 'PUT')?.body as { variants: { value?: unknown }[] };
    expect(body.variants.map((v) => v.value)).toEqual([{ c: 1 }, { c: 2 }, { colour: '#00f' }]);
  });

  it('warns as soon as a value of another type is typed, and not for on/off without values', async () => {
    const { form, user } = await openSettings(featureFixture());
    expect(warning(form)).toBeNull();
    await user.type(valueOf(form, 1), '"yes"');
    expect(await within(form).findByText('Off: true/false, having no value (on or off)')).toBeVisible();
  });

  it('says when some variants have a value and others none, though the types agree', async () => {
    const plain = featureFixture({
      variants: [
        { key: 'red', name: 'Red', description: '' },
        { key: 'green', name: 'Green', description: '' },
      ],
    });
    const { form, user } = await openSettings(plain);
    const missing = () => within(form).queryByRole('status', { name: 'Variants without a value' });
    expect(missing()).toBeNull();
    await user.type(valueOf(form, 1), '"crimson"');
    const notice = await waitFor(() => missing()!);
    expect(within(notice).getByText(MISSING_VARIANT_VALUES_MESSAGE)).toBeVisible();
    expect(within(notice).getByText('Without a value: Green')).toBeVisible();
    expect(warning(form)).toBeNull();
    await user.type(valueOf(form, 2), '"lime"');
    await waitFor(() => expect(missing()).toBeNull());
  });
});
