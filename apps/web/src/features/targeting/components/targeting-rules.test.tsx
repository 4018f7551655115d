import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { controlFixture, featureFixture, resetOverlays } from '../../../testing/test-fixtures';
import {
  addRuleButton,
  choose,
  conditionRow,
  fillCondition,
  lastPut,
  renderTargeting,
  ruleCard,
  valueInput,
} from '../../../testing/targeting-test-utils';

const DEFAULT_RULE = { defaultRule: true, audience: null, variantSplits: [{ variantKey: 'on', split: 100 }] };

/** The checkout feature with these targeted rules in dev, everyone else getting On. */
function withRules(...rules: object[]) {
  const feature = featureFixture();
  const dev = controlFixture('dev', { enabled: true, rules: [...rules, DEFAULT_RULE] as never });
  return featureFixture({ controls: { ...feature.controls, dev } });
}

const rule = (target: string, value: string, variantKey = 'off') => ({
  defaultRule: false,
  audience: { conditions: [{ target, operator: 'equals', values: [value] }] },
  variantSplits: [{ variantKey, split: 100 }],
});

const optionNames = () => screen.getAllByRole('option').map((option) => option.textContent);

describe('Targeting rules editor', { timeout: 20_000 }, () => {
  afterEach(() => {
    resetOverlays();
    vi.unstubAllGlobals();
  });

  it('builds "email ends with AND age is at least, split 50/50" and sends it before the default rule', async () => {
    const { user, calls } = await renderTargeting();
    await user.click(await addRuleButton());
    const first = ruleCard('Rule 1');
    await fillCondition(user, first, 1, { target: /^Email/, operator: 'ends with', value: '@example.com' });
    await user.click(within(first).getByRole('button', { name: 'Add condition' }));
    await fillCondition(user, first, 2, { target: /^Age/, operator: 'is at least', value: '18' });
    await user.click(within(first).getByRole('switch', { name: 'Split' }));
    expect(within(first).getByText('Total: 100 %')).toBeInTheDocument();
    expect(screen.getByText('Off: everyone gets Off.')).toBeInTheDocument();
    await user.click(screen.getByRole('switch', { name: 'Targeting enabled' }));
    expect(screen.getByText('1 targeting rule, otherwise On.')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('New checkout targeting for Development saved.');
    expect(lastPut(calls)).toEqual({
      id: controlFixture('dev').id,
      enabled: true,
      offVariantKey: 'off',
      lastModifiedDate: controlFixture('dev').lastModifiedDate,
      rules: [
        {
          defaultRule: false,
          audience: {
            conditions: [
              { target: 'email', operator: 'endsWith', values: ['@example.com'] },
              { target: 'age', operator: 'greaterThanOrEqual', values: [18] },
            ],
          },
          variantSplits: [
            { variantKey: 'on', split: 50 },
            { variantKey: 'off', split: 50 },
          ],
        },
        DEFAULT_RULE,
      ],
    });
  });

  it('sends an "is one of" rule with three values', async () => {
    const { user, calls } = await renderTargeting();
    await user.click(await addRuleButton());
    const first = ruleCard('Rule 1');
    await fillCondition(user, first, 1, { target: /^Email/, operator: 'is one of' });
    const values = valueInput(conditionRow(first, 1));
    await user.type(values, 'ada@example.com{enter}bob@example.com{enter}cy@example.com{enter}');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('New checkout targeting for Development saved.');
    expect(lastPut(calls)?.rules[0]).toEqual({
      defaultRule: false,
      audience: {
        conditions: [
          {
            target: 'email',
            operator: 'in',
            values: ['ada@example.com', 'bob@example.com', 'cy@example.com'],
          },
        ],
      },
      variantSplits: [{ variantKey: 'off', split: 100 }],
    });
  });

  it('moves rules up and down, and saves them in that order', async () => {
    const { user, calls } = await renderTargeting(undefined, {
      feature: withRules(rule('email', 'a@example.com'), rule('email', 'b@example.com')),
    });
    await addRuleButton();
    expect(within(ruleCard('Rule 1')).getByRole('button', { name: 'Move Rule 1 up' })).toHaveProperty(
      'disabled',
      true,
    );
    await user.click(within(ruleCard('Rule 2')).getByRole('button', { name: 'Move Rule 2 up' }));
    expect(within(ruleCard('Rule 1')).getByDisplayValue('b@example.com')).toBeVisible();
    expect(within(ruleCard('Rule 2')).getByDisplayValue('a@example.com')).toBeVisible();
    // At the top, Move up no longer applies: the keyboard stays on the rule, on Move down.
    const down = within(ruleCard('Rule 1')).getByRole('button', { name: 'Move Rule 1 down' });
    await waitFor(() => expect(document.activeElement).toBe(down));

    // Keyboard: Enter on a focused Move button.
    within(ruleCard('Rule 1')).getByRole('button', { name: 'Move Rule 1 down' }).focus();
    await user.keyboard('{Enter}');
    expect(within(ruleCard('Rule 1')).getByDisplayValue('a@example.com')).toBeVisible();
    await user.click(within(ruleCard('Rule 1')).getByRole('button', { name: 'Move Rule 1 down' }));

    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(lastPut(calls)).toBeDefined());
    const values = lastPut(calls)!.rules.map(
      (r) =>
        (r as { audience: { conditions: { values: string[] }[] } | null }).audience?.conditions[0]?.values[0],
    );
    expect(values).toEqual(['b@example.com', 'a@example.com', undefined]);
  });

  it('offers the operators of the target type', async () => {
    const { user } = await renderTargeting();
    await user.click(await addRuleButton());
    const row = conditionRow(ruleCard('Rule 1'), 1);
    expect(within(row).getByRole('combobox', { name: 'Operator' })).toHaveProperty('disabled', true);

    await choose(user, within(row).getByRole('combobox', { name: 'Target' }), /^Email/);
    await user.click(within(row).getByRole('combobox', { name: 'Operator' }));
    expect(optionNames()).toEqual([
      'contains',
      'equals',
      'starts with',
      'ends with',
      'matches the pattern',
      'is one of',
      'is not one of',
    ]);
    await user.keyboard('{Escape}');

    await choose(user, within(row).getByRole('combobox', { name: 'Target' }), /^Age/);
    await user.click(within(row).getByRole('combobox', { name: 'Operator' }));
    expect(optionNames()).toEqual(['equals', 'is more than', 'is at least', 'is less than', 'is at most']);
    await user.keyboard('{Escape}');

    await choose(user, within(row).getByRole('combobox', { name: 'Target' }), /^Signed up/);
    await user.click(within(row).getByRole('combobox', { name: 'Operator' }));
    expect(optionNames()).toEqual(['is before', 'is after']);
    await user.keyboard('{Escape}');
    expect(within(row).getByLabelText('Date')).toBeInTheDocument();

    await choose(user, within(row).getByRole('combobox', { name: 'Target' }), /^Segments/);
    await user.click(within(row).getByRole('combobox', { name: 'Operator' }));
    expect(optionNames()).toEqual(['is in', 'is not in']);
  });

  it('rebalances a split so it always adds up to 100', async () => {
    const { user, calls } = await renderTargeting();
    await addRuleButton();
    const otherwise = ruleCard('Otherwise (everyone else)');
    await user.click(within(otherwise).getByRole('switch', { name: 'Split' }));
    const on = within(otherwise).getByRole('textbox', { name: 'On' });
    const off = within(otherwise).getByRole('textbox', { name: 'Off' });
    expect([(on as HTMLInputElement).value, (off as HTMLInputElement).value]).toEqual(['50 %', '50 %']);

    await user.clear(on);
    await user.type(on, '30');
    expect((off as HTMLInputElement).value).toBe('70 %');
    expect(within(otherwise).getByText('Total: 100 %')).toBeVisible();
    // Out of range is clamped as it is typed, not refused.
    await user.clear(on);
    await user.type(on, '150');
    expect((on as HTMLInputElement).value).toBe('100 %');
    expect((off as HTMLInputElement).value).toBe('0 %');
    await user.clear(on);
    await user.type(on, '-5');
    expect((on as HTMLInputElement).value).toBe('0 %');
    expect((off as HTMLInputElement).value).toBe('100 %');
    await user.clear(on);
    await user.type(on, '25');
    expect((off as HTMLInputElement).value).toBe('75 %');

    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(lastPut(calls)).toBeDefined());
    expect(lastPut(calls)!.rules).toEqual([
      {
        defaultRule: true,
        audience: null,
        variantSplits: [
          { variantKey: 'on', split: 25 },
          { variantKey: 'off', split: 75 },
        ],
      },
    ]);
  });

  it('keeps the shares the user set and rebalances only the others, with three variants', async () => {
    const variants = [
      { key: 'red', name: 'Red', description: '' },
      { key: 'green', name: 'Green', description: '' },
      { key: 'blue', name: 'Blue', description: '' },
    ];
    const { user } = await renderTargeting(undefined, { feature: featureFixture({ variants }) });
    await addRuleButton();
    const otherwise = ruleCard('Otherwise (everyone else)');
    await user.click(within(otherwise).getByRole('switch', { name: 'Split' }));
    const share = (name: string) => within(otherwise).getByRole('textbox', { name }) as HTMLInputElement;
    const shares = () => ['Red', 'Green', 'Blue'].map((name) => share(name).value);
    expect(shares()).toEqual(['34 %', '33 %', '33 %']);

    await user.clear(share('Red'));
    await user.type(share('Red'), '20');
    expect(shares()).toEqual(['20 %', '40 %', '40 %']);
    await user.clear(share('Green'));
    await user.type(share('Green'), '60');
    expect(shares()).toEqual(['20 %', '60 %', '20 %']);
    expect(within(otherwise).getByText('Total: 100 %')).toBeVisible();
  });
});
