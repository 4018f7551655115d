import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { jsonResponse } from '../../../testing/test-utils';
import { resetOverlays } from '../../../testing/test-fixtures';
import {
  addRuleButton,
  choose,
  conditionRow,
  DEV_TARGETING,
  lastPut,
  renderTargeting,
  ruleCard,
  valueInput,
} from '../../../testing/targeting-test-utils';

describe('Target and segment pickers', { timeout: 20_000 }, () => {
  afterEach(() => {
    resetOverlays();
    vi.unstubAllGlobals();
  });

  it('creates a target from the picker and selects it', async () => {
    const { user, calls } = await renderTargeting();
    await user.click(await addRuleButton());
    const row = conditionRow(ruleCard('Rule 1'), 1);
    const target = within(row).getByRole('combobox', { name: 'Target' });
    await user.click(target);
    await user.type(target, 'Basket total');
    await user.click(await screen.findByRole('option', { name: 'Create a new target…' }));

    const dialog = await screen.findByRole('dialog', { name: 'New target' });
    // The target list closed when the modal opened; it must not stay over the modal or the fields.
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(within(dialog).getByRole('textbox', { name: /^Name/ })).toHaveProperty('value', 'Basket total');
    expect(within(dialog).getByRole('textbox', { name: /^Key/ })).toHaveProperty('value', 'basketTotal');
    await choose(user, within(dialog).getByRole('combobox', { name: /^Type/ }), 'Number');
    await user.click(within(dialog).getByRole('button', { name: 'Create target' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
      key: 'basketTotal',
      name: 'Basket total',
      type: 'number',
    });
    expect(within(row).getByRole('combobox', { name: 'Target' })).toHaveProperty('value', 'Basket total');
    await user.click(within(row).getByRole('combobox', { name: 'Operator' }));
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toContain('is at least');
  });

  it('shows the server refusing a taken key on the Key field', async () => {
    const { user } = await renderTargeting(DEV_TARGETING, {
      handlers: () => ({
        'POST /api/v1/projects/web/targets': () =>
          jsonResponse(400, {
            title: 'A target with the key "email" already exists in this project.',
            errors: [
              { field: 'key', message: 'A target with the key "email" already exists in this project.' },
            ],
          }),
      }),
    });
    await user.click(await addRuleButton());
    const row = conditionRow(ruleCard('Rule 1'), 1);
    await choose(user, within(row).getByRole('combobox', { name: 'Target' }), 'Create a new target…');
    const dialog = await screen.findByRole('dialog', { name: 'New target' });
    await user.type(within(dialog).getByRole('textbox', { name: /^Name/ }), 'Email');
    await user.click(within(dialog).getByRole('button', { name: 'Create target' }));
    expect(
      await within(dialog).findByText('A target with the key "email" already exists in this project.'),
    ).toBeVisible();
  });

  it('lists the environment’s segments for a segment target', async () => {
    const { user, calls } = await renderTargeting();
    await user.click(await addRuleButton());
    const row = conditionRow(ruleCard('Rule 1'), 1);
    await choose(user, within(row).getByRole('combobox', { name: 'Target' }), /^Segments/);
    expect(within(row).getByRole('combobox', { name: 'Operator' })).toHaveProperty('value', 'is in');
    await user.click(valueInput(row));
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['Beta testers', 'Staff']);
    await user.click(screen.getByRole('option', { name: 'Beta testers' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(lastPut(calls)).toBeDefined());
    expect(lastPut(calls)!.rules[0]).toMatchObject({
      audience: { conditions: [{ target: 'segments', operator: 'in', values: ['beta-testers'] }] },
    });
  });

  it('suggests values used before for an "is one of" condition', async () => {
    const { user } = await renderTargeting();
    await user.click(await addRuleButton());
    const row = conditionRow(ruleCard('Rule 1'), 1);
    await choose(user, within(row).getByRole('combobox', { name: 'Target' }), /^Email/);
    await choose(user, within(row).getByRole('combobox', { name: 'Operator' }), 'is one of');
    await user.click(valueInput(row));
    expect(await screen.findByRole('option', { name: 'ada@example.com' })).toBeVisible();
  });
});
