import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { jsonResponse } from '../../../testing/test-utils';
import { controlFixture, featureFixture, payloadFor, resetOverlays } from '../../../testing/test-fixtures';
import { NO_EFFECT_WARNING } from './rule-card';
import {
  addRuleButton,
  choose,
  conditionRow,
  DEV_TARGETING,
  fillCondition,
  lastPut,
  PRODUCTION_TARGETING,
  renderTargeting,
  ruleCard,
  STALE_TITLE,
  valueInput,
} from '../../../testing/targeting-test-utils';

const saveButton = () => screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement;
const puts = (calls: { method: string }[]) => calls.filter((call) => call.method === 'PUT');

describe('Saving targeting', { timeout: 20_000 }, () => {
  afterEach(() => {
    resetOverlays();
    vi.unstubAllGlobals();
  });

  it('marks a new rule only once its fields are touched, then keeps Save disabled until the value is given', async () => {
    const { user } = await renderTargeting();
    await user.click(await addRuleButton());
    const rule = ruleCard('Rule 1');
    // Nothing typed yet is nothing wrong yet.
    expect(within(rule).queryByText('Required')).toBeNull();
    expect(screen.queryByText('Fix the highlighted fields to save.')).toBeNull();
    expect(screen.getByText('You have unsaved changes.')).toBeVisible();

    await fillCondition(user, rule, 1, { target: /^Email/, operator: 'equals' });
    expect(within(rule).queryByText('Value is required')).toBeNull();
    await user.click(valueInput(conditionRow(rule, 1)));
    await user.tab();
    expect(within(conditionRow(rule, 1)).getByText('Value is required')).toBeVisible();
    expect(saveButton().disabled).toBe(true);
    expect(screen.getByText('Fix the highlighted fields to save.')).toBeVisible();

    await user.type(valueInput(conditionRow(rule, 1)), 'ada@example.com');
    expect(within(rule).queryByText('Value is required')).toBeNull();
    expect(saveButton().disabled).toBe(false);
  });

  it('shows the errors of untouched new fields on Save, focuses the first and sends nothing', async () => {
    const { user, calls } = await renderTargeting();
    await user.click(await addRuleButton());
    const rule = ruleCard('Rule 1');
    const target = within(conditionRow(rule, 1)).getByRole('combobox', { name: 'Target' });
    // The new rule's first field has the focus; leaving it untouched marks nothing.
    await waitFor(() => expect(document.activeElement).toBe(target));
    await user.click(
      screen.getByText('Rules are checked top to bottom; the first rule whose conditions all match decides.'),
    );
    expect(within(rule).queryByText('Required')).toBeNull();

    await user.click(saveButton());
    expect(within(conditionRow(rule, 1)).getByText('Required')).toBeVisible();
    expect(screen.getByText('Fix the highlighted fields to save.')).toBeVisible();
    await waitFor(() => expect(document.activeElement).toBe(target));
    expect(puts(calls)).toEqual([]);
  });

  it('does not mark a condition added to a rule before it is touched', async () => {
    const { user } = await renderTargeting();
    await user.click(await addRuleButton());
    const rule = ruleCard('Rule 1');
    await fillCondition(user, rule, 1, { target: /^Email/, operator: 'equals', value: 'ada@example.com' });
    await user.click(within(rule).getByRole('button', { name: 'Add condition' }));
    expect(within(conditionRow(rule, 2)).queryByText('Required')).toBeNull();
    expect(saveButton().disabled).toBe(false);
    await choose(user, within(conditionRow(rule, 2)).getByRole('combobox', { name: 'Target' }), /^Age/);
    await user.click(valueInput(conditionRow(rule, 2)));
    await user.tab();
    expect(within(conditionRow(rule, 2)).getByText('Value is required')).toBeInTheDocument();
  });

  it('checks values as the server does: a pattern must be a valid regular expression', async () => {
    const { user } = await renderTargeting();
    await user.click(await addRuleButton());
    const rule = ruleCard('Rule 1');
    await fillCondition(user, rule, 1, {
      target: /^Email/,
      operator: 'matches the pattern',
      value: '(unclosed',
    });
    expect(within(rule).getByText('Must be a valid pattern')).toBeInTheDocument();
    expect(saveButton().disabled).toBe(true);
  });

  it('warns, non-blocking, when a rule serves the same as everyone else', async () => {
    const { user } = await renderTargeting();
    await user.click(await addRuleButton());
    const rule = ruleCard('Rule 1');
    await fillCondition(user, rule, 1, { target: /^Email/, operator: 'equals', value: 'ada@example.com' });
    expect(within(rule).queryByText(NO_EFFECT_WARNING)).toBeNull();
    await choose(user, within(rule).getByRole('combobox', { name: 'Variant' }), 'On');
    expect(within(rule).getByText(NO_EFFECT_WARNING)).toBeInTheDocument();
    expect(saveButton().disabled).toBe(false);
  });

  it('puts a server field error on the condition value and lists it at the top', async () => {
    const title = 'There is no segment "gone" in this environment.';
    const { user } = await renderTargeting(DEV_TARGETING, {
      handlers: () => ({
        'PUT /api/v1/feature-controls/': () =>
          jsonResponse(400, {
            title,
            errors: [{ field: 'rules.0.audience.conditions.1.values.0', message: title }],
          }),
      }),
    });
    await user.click(await addRuleButton());
    const rule = ruleCard('Rule 1');
    await fillCondition(user, rule, 1, { target: /^Email/, operator: 'equals', value: 'ada@example.com' });
    await user.click(within(rule).getByRole('button', { name: 'Add condition' }));
    await fillCondition(user, rule, 2, { target: /^Age/, operator: 'is at least', value: '18' });
    await user.click(saveButton());

    const alert = (await screen.findByText('The targeting was not saved')).closest<HTMLElement>(
      '[role="alert"]',
    )!;
    expect(within(alert).getByText(`Rule 1, condition 2: ${title}`)).toBeInTheDocument();
    expect(within(conditionRow(rule, 2)).getByText(title)).toBeInTheDocument();
    expect(within(conditionRow(rule, 1)).queryByText(title)).toBeNull();
    // The warning toast carries the server's title (the toasts' host loads on the first one: wait for it).
    await waitFor(() => expect(screen.getAllByText(title).length).toBeGreaterThanOrEqual(3));

    // Editing that condition takes its error away; Reset goes back to what is saved.
    await user.type(valueInput(conditionRow(rule, 2)), '1');
    expect(within(conditionRow(rule, 2)).queryByText(title)).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Reset' }));
    expect(screen.queryByRole('group', { name: 'Rule 1' })).toBeNull();
    expect(screen.queryByText('The targeting was not saved')).toBeNull();
  });

  it('sends the version the edit started from, and then the version it saved', async () => {
    const { user, calls } = await renderTargeting();
    await user.click(await addRuleButton());
    await fillCondition(user, ruleCard('Rule 1'), 1, {
      target: /^Email/,
      operator: 'equals',
      value: 'ada@example.com',
    });
    await user.click(saveButton());
    expect(await screen.findByText('New checkout targeting for Development saved.')).toBeInTheDocument();
    expect(lastPut(calls)?.lastModifiedDate).toBe(controlFixture('dev').lastModifiedDate);
    const firstVersion = lastPut(calls)?.lastModifiedDate;

    await user.click(screen.getByRole('switch', { name: 'Targeting enabled' }));
    await user.click(saveButton());
    await waitFor(() => expect(puts(calls)).toHaveLength(2));
    expect(lastPut(calls)?.lastModifiedDate).not.toBe(firstVersion);
    expect(screen.queryByText(STALE_TITLE)).toBeNull();
  });

  it('sends the comment typed beside Save with the save, and starts the next edit without it', async () => {
    const { user, calls } = await renderTargeting();
    // Nothing to save, nothing to comment on.
    expect(screen.queryByRole('textbox', { name: 'Comment' })).toBeNull();
    await user.click(await screen.findByRole('switch', { name: 'Targeting enabled' }));
    await user.type(screen.getByRole('textbox', { name: 'Comment' }), 'Ready for the beta');
    await user.click(saveButton());
    expect(await screen.findByText('New checkout targeting for Development saved.')).toBeInTheDocument();
    expect(lastPut(calls)).toMatchObject({ comment: 'Ready for the beta' });
    expect(screen.queryByRole('textbox', { name: 'Comment' })).toBeNull();

    await user.click(screen.getByRole('switch', { name: 'Targeting enabled' }));
    expect(screen.getByRole('textbox', { name: 'Comment' })).toHaveValue('');
    await user.click(saveButton());
    await waitFor(() => expect(puts(calls)).toHaveLength(2));
    expect(lastPut(calls)).not.toHaveProperty('comment');
  });

  it('stays saved when the feature gains a variant while the editor is open', async () => {
    const { calls, queryClient, server, user } = await renderTargeting();
    await addRuleButton();
    expect(screen.getByText('Everything is saved.')).toBeVisible();
    // Saved from the Settings tab: the targeting itself is the same.
    const gold = { key: 'gold', name: 'Gold', description: '' };
    server.feature = { ...server.feature, variants: [...server.feature.variants, gold] };
    const gets = calls.filter((call) => call.method === 'GET').length;
    await queryClient.invalidateQueries({ queryKey: ['features'] });
    await waitFor(() => expect(calls.filter((call) => call.method === 'GET').length).toBeGreaterThan(gets));

    const otherwise = ruleCard('Otherwise (everyone else)');
    await user.click(within(otherwise).getByRole('switch', { name: 'Split' }));
    expect(within(otherwise).getByRole('textbox', { name: 'Gold' })).toBeVisible();
    await user.click(within(otherwise).getByRole('switch', { name: 'Split' }));
    expect(screen.getByText('Everything is saved.')).toBeVisible();
  });

  it('asks to confirm in production, and Cancel sends nothing', async () => {
    const { user, calls } = await renderTargeting(PRODUCTION_TARGETING);
    await addRuleButton();
    await user.click(screen.getByRole('switch', { name: 'Targeting enabled' }));
    await user.click(saveButton());

    const dialog = await screen.findByRole('dialog', { name: 'Production environment' });
    expect(
      within(dialog).getByText(
        'Warning, this is a production environment. Are you sure you wish to update New checkout in Production?',
      ),
    ).toBeVisible();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(puts(calls)).toHaveLength(0);

    await user.click(saveButton());
    const again = await screen.findByRole('dialog', { name: 'Production environment' });
    await user.click(within(again).getByRole('button', { name: 'Save targeting' }));
    expect(await screen.findByText('New checkout targeting for Production saved.')).toBeVisible();
    expect(lastPut(calls)).toMatchObject({ id: controlFixture('production').id, enabled: true });
    await waitFor(() => expect(saveButton().disabled).toBe(true));
    expect(screen.getByText('Everything is saved.')).toBeVisible();
  });

  it('shows a read-only user the rules as text, with no inputs', async () => {
    const feature = featureFixture();
    const rules = [
      {
        defaultRule: false,
        audience: { conditions: [{ target: 'age', operator: 'greaterThanOrEqual' as const, values: [18] }] },
        variantSplits: [{ variantKey: 'off', split: 100 }],
      },
      ...feature.controls.dev!.rules,
    ];
    await renderTargeting(DEV_TARGETING, {
      payload: payloadFor('ROLE_ORGANISATION_READONLY_USER'),
      feature: featureFixture({ controls: { ...feature.controls, dev: controlFixture('dev', { rules }) } }),
    });
    expect(
      await screen.findByText(
        'You do not have permission to change this feature. You can view this targeting.',
      ),
    ).toBeVisible();
    const panel = screen.getByRole('region', { name: 'Targeting' });
    expect(within(panel).getByRole('listitem', { name: 'Rule 1' }).textContent).toContain(
      'Age is at least 18',
    );
    for (const role of ['textbox', 'combobox', 'switch', 'spinbutton'] as const) {
      expect(within(panel).queryAllByRole(role)).toHaveLength(0);
    }
    expect(within(panel).queryByRole('button', { name: 'Save' })).toBeNull();
  });

  it('tells a non-production editor why production is read-only', async () => {
    await renderTargeting(PRODUCTION_TARGETING, { payload: payloadFor('ROLE_ORGANISATION_EDITOR') });
    expect(
      await screen.findByText(
        'Only a production editor can change a feature in a production environment. You can view this targeting.',
      ),
    ).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Add rule' })).toBeNull();
  });
});
