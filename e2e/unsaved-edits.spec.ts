import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { signIn, useFreshPage, viewShot } from './support/browser';

const t = useFreshPage();

type Control = { id: string; enabled: boolean; offVariantKey: string };

/** A feature of our own in project sp; the server may change its key. */
async function createFeature(page: Page, name: string, key: string): Promise<string> {
  // The server takes a write with the session cookie only from its own origin.
  const origin = new URL(page.url()).origin;
  const response = await page.request.post(`${origin}/api/v1/projects/sp/features`, {
    data: { name, key },
    headers: { Origin: origin },
  });
  expect(response.status()).toBe(201);
  return ((await response.json()) as { key: string }).key;
}

/** Saves three rules in development, "email is a@, b@, c@example.com", as another screen would. */
async function saveThreeRules(page: Page, featureKey: string): Promise<void> {
  const origin = new URL(page.url()).origin;
  const feature = await page.request.get(`${origin}/api/v1/projects/sp/features/${featureKey}`);
  const control = ((await feature.json()) as { controls: Record<string, Control> }).controls.development!;
  const rule = (email: string) => ({
    defaultRule: false,
    audience: { conditions: [{ target: 'email', operator: 'equals', values: [email] }] },
    variantSplits: [{ variantKey: 'on', split: 100 }],
  });
  const response = await page.request.put(`${origin}/api/v1/feature-controls/`, {
    data: {
      id: control.id,
      enabled: true,
      offVariantKey: 'off',
      rules: [
        rule('a@example.com'),
        rule('b@example.com'),
        rule('c@example.com'),
        { defaultRule: true, audience: null, variantSplits: [{ variantKey: 'off', split: 100 }] },
      ],
    },
    headers: { Origin: origin },
  });
  expect(response.status()).toBe(200);
}

const rule = (page: Page, name: string) => page.getByRole('group', { name, exact: true });
const valueOf = (card: Locator) =>
  card.getByRole('group', { name: 'Condition 1' }).getByLabel('Value', { exact: true }).inputValue();
const nav = (page: Page) => page.getByRole('navigation', { name: 'Main' });

describe('unsaved edits on the feature page', () => {
  it(
    'keeps moved and removed rules across tabs, and asks before the page is left',
    { timeout: 120_000 },
    async () => {
      const { page } = t;
      await signIn(page);
      await page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();
      const featureKey = await createFeature(page, 'Unsaved rules', 'unsaved-rules');
      await saveThreeRules(page, featureKey);
      const targeting = `/projects/sp/environments/development/features/${featureKey}/targeting`;
      await page.goto(targeting);
      await page.getByRole('heading', { name: 'Targeting for Development' }).waitFor();
      expect(await valueOf(rule(page, 'Rule 1'))).toBe('a@example.com');

      // Rule 2 goes up, the last rule goes: b, a.
      await rule(page, 'Rule 2').getByRole('button', { name: 'Move Rule 2 up' }).click();
      await rule(page, 'Rule 3').getByRole('button', { name: 'Remove Rule 3' }).click();
      await page.getByText('You have unsaved changes.').waitFor();

      await page.getByRole('tab', { name: 'Settings' }).click();
      await page.getByText('Settings apply across all environments').waitFor();
      await page.getByRole('tab', { name: 'Targeting' }).click();
      await page.getByRole('heading', { name: 'Targeting for Development' }).waitFor();
      expect(await valueOf(rule(page, 'Rule 1'))).toBe('b@example.com');
      expect(await valueOf(rule(page, 'Rule 2'))).toBe('a@example.com');
      expect(await rule(page, 'Rule 3').count()).toBe(0);
      await page.getByText('You have unsaved changes.').waitFor();
      expect(await page.getByText('Everything is saved.').isVisible()).toBe(false);

      // Another screen of the app: asked first; Keep editing stays with the edits.
      await nav(page).getByRole('link', { name: 'Features' }).click();
      const dialog = page.getByRole('dialog', { name: 'Unsaved changes' });
      await dialog
        .getByText(
          'Your changes to the targeting for Development are not saved. If you leave this page, they are lost.',
        )
        .waitFor();
      await viewShot(page, 'unsaved-edits-confirm', 1440);
      await dialog.getByRole('button', { name: 'Keep editing' }).click();
      await dialog.waitFor({ state: 'detached' });
      expect(new URL(page.url()).pathname).toBe(targeting);
      expect(await valueOf(rule(page, 'Rule 1'))).toBe('b@example.com');
      await page.getByText('You have unsaved changes.').waitFor();

      // Reloading asks too (the browser's own question); dismissed, the edits stay.
      const question = page.waitForEvent('dialog');
      // Dismissed, the reload never finishes: nothing waits for it.
      void page.reload().catch(() => undefined);
      const asked = await question;
      expect(asked.type()).toBe('beforeunload');
      await asked.dismiss();
      expect(await valueOf(rule(page, 'Rule 1'))).toBe('b@example.com');

      await page.setViewportSize({ width: 390, height: 844 });
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.getByRole('button', { name: 'Open navigation' }).click();
      await nav(page).getByRole('link', { name: 'Features' }).click();
      await dialog.waitFor();
      await viewShot(page, 'unsaved-edits-confirm-mobile', 390);
      await dialog.getByRole('button', { name: 'Leave without saving' }).click();
      await page.waitForURL('**/projects/sp/environments/development/features');
      await dialog.waitFor({ state: 'detached' });
      await page.getByRole('heading', { name: 'Features', level: 1 }).waitFor();
    },
  );

  it('keeps a settings edit across tabs and asks before the page is left', { timeout: 120_000 }, async () => {
    const { page } = t;
    await signIn(page);
    await page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();
    const featureKey = await createFeature(page, 'Unsaved settings', 'unsaved-settings');
    await page.goto(`/projects/sp/environments/development/features/${featureKey}/settings`);
    const form = page.getByRole('form', { name: 'Feature Settings' });
    // The feature's description, above those of its variants.
    const description = form.getByRole('textbox', { name: 'Description' }).first();
    await description.fill('Written, not saved yet');

    await page.getByRole('tab', { name: 'Audit' }).click();
    await page.getByRole('tab', { name: 'Settings' }).click();
    expect(await description.inputValue()).toBe('Written, not saved yet');

    await nav(page).getByRole('link', { name: 'Features' }).click();
    const dialog = page.getByRole('dialog', { name: 'Unsaved changes' });
    await dialog
      .getByText('Your changes to the settings are not saved. If you leave this page, they are lost.')
      .waitFor();
    await dialog.getByRole('button', { name: 'Keep editing' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await description.inputValue()).toBe('Written, not saved yet');

    // Back to the saved settings, nothing is asked.
    await form.getByRole('button', { name: 'Cancel' }).click();
    await nav(page).getByRole('link', { name: 'Features' }).click();
    await page.waitForURL('**/projects/sp/environments/development/features');
    expect(await dialog.count()).toBe(0);
  });

  it('shows in a tab opened before what another tab saved since', { timeout: 120_000 }, async () => {
    const { page } = t;
    await signIn(page);
    await page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();
    const featureKey = await createFeature(page, 'Saved elsewhere', 'saved-elsewhere');
    await page.goto(`/projects/sp/environments/development/features/${featureKey}/targeting`);
    await page.getByText('Everything is saved.').waitFor();

    await page.getByRole('tab', { name: 'Settings' }).click();
    const form = page.getByRole('form', { name: 'Feature Settings' });
    await form.getByRole('button', { name: 'Add variant' }).click();
    const third = form.getByRole('group', { name: 'Variant 3' });
    await third.getByRole('textbox', { name: 'Key', exact: true }).fill('gold');
    await third.getByRole('textbox', { name: 'Name', exact: true }).fill('Gold');
    await form.getByRole('button', { name: 'Update feature' }).click();
    await page
      .getByRole('dialog', { name: 'Update feature settings' })
      .getByRole('button', { name: 'Update feature' })
      .click();
    await page.getByText('Saved elsewhere settings saved.').first().waitFor();

    await page.getByRole('tab', { name: 'Targeting' }).click();
    await page.getByText('Everything is saved.').waitFor();
    const otherwise = page.getByRole('group', { name: 'Otherwise (everyone else)', exact: true });
    await otherwise.getByRole('switch', { name: 'Split' }).check({ force: true });
    await otherwise.getByRole('textbox', { name: 'Gold', exact: true }).waitFor();
    await page.getByText('You have unsaved changes.').waitFor();

    // Back to what is saved, the page is left without a question.
    await page.getByRole('button', { name: 'Reset' }).click();
    await page.getByText('Everything is saved.').waitFor();
    await nav(page).getByRole('link', { name: 'Features' }).click();
    await page.waitForURL('**/projects/sp/environments/development/features');
    expect(await page.getByRole('dialog', { name: 'Unsaved changes' }).count()).toBe(0);
  });
});
