import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import { controlFixture, featureFixture, resetOverlays } from '../../../testing/test-fixtures';
import {
  addRuleButton,
  conditionRow,
  renderTargeting,
  ruleCard,
  valueInput,
} from '../../../testing/targeting-test-utils';

/** Dev: on, "email ends with @example.com" gets Off, everyone else On. */
function targetedFeature(enabled = true) {
  const feature = featureFixture();
  const dev = controlFixture('dev', {
    enabled,
    rules: [
      {
        defaultRule: false,
        audience: { conditions: [{ target: 'email', operator: 'endsWith', values: ['@example.com'] }] },
        variantSplits: [{ variantKey: 'off', split: 100 }],
      },
      { defaultRule: true, audience: null, variantSplits: [{ variantKey: 'on', split: 100 }] },
    ],
  });
  return featureFixture({ controls: { ...feature.controls, dev } });
}

const preview = () => screen.getByRole('status', { name: 'Preview result' });
const tryAUser = () => screen.getByRole('region', { name: 'Try a user' });

describe('Try a user', { timeout: 20_000 }, () => {
  afterEach(() => {
    resetOverlays();
    vi.unstubAllGlobals();
  });

  it('shows the variant and the rule for a typed user, and follows unsaved rule changes', async () => {
    const { user } = await renderTargeting(undefined, { feature: targetedFeature() });
    await addRuleButton();
    expect(preview().textContent).toBe('Serves On — no rule matched, everyone else');

    await user.type(within(tryAUser()).getByRole('textbox', { name: 'User id' }), 'user-42');
    await user.type(within(tryAUser()).getByRole('textbox', { name: 'Email' }), 'ada@example.com');
    expect(preview().textContent).toBe('Serves Off — rule 1 matched');

    // The rule changes on screen, unsaved: the preview follows.
    const rule = conditionRow(ruleCard('Rule 1'), 1);
    await user.clear(valueInput(rule));
    await user.type(valueInput(rule), '@other.com');
    expect(preview().textContent).toBe('Serves On — no rule matched, everyone else');

    await user.click(screen.getByRole('switch', { name: 'Targeting enabled' }));
    expect(preview().textContent).toBe('Serves Off — targeting is off');
  });

  it('names the rule and the split when a split decides', async () => {
    const { user } = await renderTargeting(undefined, { feature: targetedFeature() });
    await user.click(await addRuleButton());
    const second = ruleCard('Rule 2');
    await user.click(within(second).getByRole('combobox', { name: 'Target' }));
    await user.click(await screen.findByRole('option', { name: /^User id/ }));
    await user.type(valueInput(conditionRow(second, 1)), 'user-42');
    await user.click(within(second).getByRole('switch', { name: 'Split' }));
    await user.type(within(tryAUser()).getByRole('textbox', { name: 'User id' }), 'user-42');
    expect(preview().textContent).toMatch(/^Serves (On|Off) — rule 2 matched \(split\)$/);
  });
});
