import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import dayjs from 'dayjs';
import type { FeatureControl, Rule } from '@vexil/core';
import { resetOverlays } from '../../../testing/test-fixtures';
import {
  addRuleButton,
  conditionRow,
  fillCondition,
  lastPut,
  renderTargeting,
  ruleCard,
  savedControl,
  STALE_BY,
  valueInput,
  type TargetingServer,
} from '../../../testing/targeting-test-utils';

/*
 * Targeting saved elsewhere while the form holds an edit (docs/adr/0013-concurrent-edits.md): the form
 * takes what was saved into the parts the edit left alone, keeps the edit, and lets the user keep theirs
 * or take the other's where both changed the same part.
 */

const saveButton = () => screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement;
const enabledSwitch = () => screen.getByRole('switch', { name: 'Targeting enabled' }) as HTMLInputElement;

const theirRule: Rule = {
  defaultRule: false,
  audience: { conditions: [{ target: 'age', operator: 'greaterThanOrEqual', values: [18] }] },
  variantSplits: [{ variantKey: 'off', split: 100 }],
};

/** Someone else saves the development targeting: `changes` on what is stored. */
function savedElsewhere(
  server: TargetingServer,
  changes: Partial<Pick<FeatureControl, 'enabled' | 'offVariantKey' | 'rules'>>,
) {
  const before = server.feature.controls.dev!;
  const after = savedControl(before, { ...before, ...changes });
  server.feature = { ...server.feature, controls: { ...server.feature.controls, dev: after } };
  return after;
}

/** The user's own edit: a rule for ada@example.com. */
async function startEdit(user: Awaited<ReturnType<typeof renderTargeting>>['user']) {
  await user.click(await addRuleButton());
  await fillCondition(user, ruleCard('Rule 1'), 1, {
    target: /^Email/,
    operator: 'equals',
    value: 'ada@example.com',
  });
}

describe('Targeting saved elsewhere during an edit', { timeout: 30_000 }, () => {
  afterEach(() => {
    resetOverlays();
    vi.unstubAllGlobals();
  });

  it('follows a switch saved meanwhile (the header’s) and saves the rules on top of it, with no conflict', async () => {
    const { user, calls, server, queryClient } = await renderTargeting();
    await startEdit(user);
    expect(enabledSwitch().checked).toBe(false);
    const switched = savedElsewhere(server, { enabled: true });
    await queryClient.invalidateQueries({ queryKey: ['features'] });

    await waitFor(() => expect(enabledSwitch().checked).toBe(true));
    expect(valueInput(conditionRow(ruleCard('Rule 1'), 1))).toHaveProperty('value', 'ada@example.com');
    expect(screen.queryByRole('status', { name: /changed this targeting at/ })).toBeNull();
    await user.click(saveButton());

    expect(await screen.findByText('New checkout targeting for Development saved.')).toBeVisible();
    expect(lastPut(calls)).toMatchObject({ enabled: true, lastModifiedDate: switched.lastModifiedDate });
    expect(screen.queryByText(/changed this targeting/)).toBeNull();
  });

  it.each(['Keep mine', 'Take theirs'] as const)(
    'shows both sides of rules both changed, and saves as chosen: %s',
    async (side) => {
      const { user, calls, server, queryClient } = await renderTargeting();
      await startEdit(user);
      const theirs = savedElsewhere(server, {
        enabled: true,
        rules: [theirRule, ...server.feature.controls.dev!.rules],
      });
      await queryClient.invalidateQueries({ queryKey: ['features'] });

      const notice = await screen.findByRole('status', { name: /changed this targeting at/ });
      expect(within(notice).getByText(/^Someone changed this targeting at \d\d:\d\d\.$/)).toBeVisible();
      const rules = within(notice).getByRole('group', { name: 'Rules' });
      expect(within(rules).getByText(/1 rule: email equals ada@example\.com → /)).toBeVisible();
      expect(within(rules).getByText(/1 rule: age is at least 18 → Off/)).toBeVisible();
      // Their switch, which the edit left alone, is already in the form; the rules are still mine.
      expect(enabledSwitch().checked).toBe(true);
      expect(valueInput(conditionRow(ruleCard('Rule 1'), 1))).toHaveProperty('value', 'ada@example.com');
      expect(saveButton().disabled).toBe(true);
      expect(screen.getByText('Keep yours or take theirs for each change above to save.')).toBeVisible();

      await user.click(within(rules).getByRole('button', { name: side }));
      expect(screen.queryByRole('status', { name: /changed this targeting at/ })).toBeNull();
      if (side === 'Take theirs') {
        // Theirs in every part: the form shows what is stored, with nothing left to save.
        expect(valueInput(conditionRow(ruleCard('Rule 1'), 1))).toHaveProperty('value', '18');
        expect(screen.getByText('Everything is saved.')).toBeVisible();
        expect(lastPut(calls)).toBeUndefined();
        return;
      }
      await user.click(saveButton());
      expect(await screen.findByText('New checkout targeting for Development saved.')).toBeVisible();
      expect(lastPut(calls)).toMatchObject({ enabled: true, lastModifiedDate: theirs.lastModifiedDate });
      expect((lastPut(calls)!.rules[0] as Rule).audience!.conditions[0]!.target).toBe('email');
    },
  );

  it('answers a refused save (409) by loading what was saved beside the edit, naming who saved it and when', async () => {
    const { user, calls, server } = await renderTargeting();
    await startEdit(user);
    // Saved elsewhere, and the page has not heard of it yet.
    const theirs = savedElsewhere(server, { offVariantKey: 'on' });

    await user.click(saveButton());
    const notice = await screen.findByRole('status', { name: /changed this targeting at/ });
    const time = dayjs(theirs.lastModifiedDate).format('HH:mm');
    expect(within(notice).getByText(`${STALE_BY} changed this targeting at ${time}.`)).toBeInTheDocument();
    await within(notice).findByText('Their changes are in the form with yours: save to keep both.');
    expect(screen.queryByText('The targeting was not saved')).toBeNull();
    // Nothing of the edit is lost, and their off variant is in the form.
    expect(valueInput(conditionRow(ruleCard('Rule 1'), 1))).toHaveProperty('value', 'ada@example.com');
    expect(screen.getByLabelText('Off variant', { selector: 'input' })).toHaveProperty('value', 'On');

    await user.click(saveButton());
    expect(await screen.findByText('New checkout targeting for Development saved.')).toBeVisible();
    expect(lastPut(calls)).toMatchObject({ offVariantKey: 'on', lastModifiedDate: theirs.lastModifiedDate });
    expect((lastPut(calls)!.rules[0] as Rule).audience!.conditions[0]!.target).toBe('email');
  });
});
