import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { screenshot, signIn, useFreshPage } from './support/browser';

const t = useFreshPage();

const FEATURE_NAME = 'Targeting demo';
const SEGMENT = { key: 'targeting-beta', name: 'Targeting beta' };

type Rule = {
  defaultRule: boolean;
  audience: { conditions: { target: string; operator: string; values: unknown[] }[] } | null;
  variantSplits: { variantKey: string; split: number }[];
};

/** Our own feature (the shared server's features belong to other specs too); the server may change its key. */
async function createFeature(page: Page): Promise<string> {
  // The server takes a write with the session cookie only from its own origin.
  const origin = new URL(page.url()).origin;
  const response = await page.request.post(`${origin}/api/v1/projects/sp/features`, {
    data: { name: FEATURE_NAME, key: 'targeting-demo' },
    headers: { Origin: origin },
  });
  expect(response.status()).toBe(201);
  return ((await response.json()) as { key: string }).key;
}

async function savedRules(page: Page, featureKey: string, environmentKey: string): Promise<Rule[]> {
  const response = await page.request.get(`/api/v1/projects/sp/features/${featureKey}`);
  const feature = (await response.json()) as { controls: Record<string, { rules: Rule[] }> };
  return feature.controls[environmentKey]!.rules;
}

async function targetKeys(page: Page): Promise<string[]> {
  const response = await page.request.get('/api/v1/projects/sp/targets');
  return ((await response.json()) as { key: string }[]).map((target) => target.key);
}

const rule = (page: Page, name: string) => page.getByRole('group', { name, exact: true });
const condition = (card: Locator, n: number) => card.getByRole('group', { name: `Condition ${n}` });

async function choose(page: Page, field: Locator, option: string | RegExp): Promise<void> {
  await field.click();
  await page.getByRole('option', { name: option }).first().click();
}

/** Picks the target `name`, creating it (with `type`) from the picker when the project lacks `key`. */
async function pickTarget(page: Page, row: Locator, target: { name: string; key: string; type: string }) {
  const picker = row.getByRole('combobox', { name: 'Target' });
  if ((await targetKeys(page)).includes(target.key)) {
    await choose(page, picker, new RegExp(`^${target.name}`));
    return;
  }
  await picker.click();
  await picker.fill(target.name);
  await page.getByRole('option', { name: 'Create a new target…' }).click();
  const dialog = page.getByRole('dialog', { name: 'New target' });
  expect(await dialog.getByLabel('Name').inputValue()).toBe(target.name);
  expect(await dialog.getByLabel('Key').inputValue()).toBe(target.key);
  await choose(page, dialog.getByRole('combobox', { name: 'Type' }), target.type);
  await dialog.getByRole('button', { name: 'Create target' }).click();
  await dialog.waitFor({ state: 'detached' });
  expect(await picker.inputValue()).toBe(target.name);
}

/**
 * A screenshot of the whole editor at `width`: the viewport is made as tall as the page first, so the
 * sticky navigation and save bar sit where a reader expects them rather than mid-picture.
 */
async function editorScreenshot(page: Page, name: string, width: number): Promise<void> {
  await page.setViewportSize({ width, height: 800 });
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  await page.setViewportSize({ width, height });
  await screenshot(page, name);
  await page.setViewportSize({ width: 1280, height: 800 });
}

async function save(page: Page, environmentName: string): Promise<void> {
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await page.getByText(`${FEATURE_NAME} targeting for ${environmentName} saved.`).last().waitFor();
}

describe('targeting rules editor', () => {
  it(
    'builds, reorders and saves rules in development and production, with a segment rule',
    { timeout: 180_000 },
    async () => {
      const { page } = t;
      await signIn(page);
      await page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();
      const featureKey = await createFeature(page);
      const targeting = (environment: string) =>
        `/projects/sp/environments/${environment}/features/${featureKey}/targeting`;

      await page.goto(targeting('development'));
      await page.getByRole('heading', { name: 'Targeting for Development' }).waitFor();
      await page.getByRole('switch', { name: 'Targeting enabled' }).check({ force: true });

      // Rule 1: email ends with @example.com AND age is at least 18, split 50/50.
      await page.getByRole('button', { name: 'Add rule' }).click();
      const first = rule(page, 'Rule 1');
      await pickTarget(page, condition(first, 1), { name: 'Email', key: 'email', type: 'Text' });
      await choose(page, condition(first, 1).getByRole('combobox', { name: 'Operator' }), 'ends with');
      await condition(first, 1).getByLabel('Value', { exact: true }).fill('@example.com');
      await first.getByRole('button', { name: 'Add condition' }).click();
      await pickTarget(page, condition(first, 2), { name: 'Age', key: 'age', type: 'Number' });
      await choose(page, condition(first, 2).getByRole('combobox', { name: 'Operator' }), 'is at least');
      await condition(first, 2).getByLabel('Value', { exact: true }).fill('18');
      await first.getByRole('switch', { name: 'Split' }).check({ force: true });
      await first.getByText('Total: 100 %').waitFor();

      // Rule 2: email is one of three addresses.
      await page.getByRole('button', { name: 'Add rule' }).click();
      const second = rule(page, 'Rule 2');
      await choose(page, condition(second, 1).getByRole('combobox', { name: 'Target' }), /^Email/);
      await choose(page, condition(second, 1).getByRole('combobox', { name: 'Operator' }), 'is one of');
      const values = condition(second, 1).getByLabel('Values', { exact: true });
      for (const address of ['ada@example.com', 'bob@example.com', 'cy@example.com']) {
        await values.fill(address);
        await values.press('Enter');
      }
      await page.keyboard.press('Escape');

      // Reorder with the keyboard: rule 2 becomes rule 1.
      await second.getByRole('button', { name: 'Move Rule 2 up' }).focus();
      await page.keyboard.press('Enter');
      expect(
        await condition(rule(page, 'Rule 1'), 1).getByRole('combobox', { name: 'Operator' }).inputValue(),
      ).toBe('is one of');

      // The preview follows the unsaved rules.
      const preview = page.getByRole('region', { name: 'Try a user' });
      await preview.getByLabel('User id').fill('user-42');
      await preview.getByLabel('Email', { exact: true }).fill('bob@example.com');
      await page
        .getByRole('status', { name: 'Preview result' })
        .getByText('Serves Off — rule 1 matched')
        .waitFor();
      await editorScreenshot(page, 'targeting-editor', 1280);

      await save(page, 'Development');
      const saved = await savedRules(page, featureKey, 'development');
      expect(saved).toEqual([
        {
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
        },
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
        { defaultRule: true, audience: null, variantSplits: [{ variantKey: 'on', split: 100 }] },
      ]);

      await editorScreenshot(page, 'targeting-editor-mobile', 390);

      // Production asks first.
      await page.goto(targeting('production'));
      await page.getByRole('heading', { name: 'Targeting for Production' }).waitFor();
      await page.getByRole('switch', { name: 'Targeting enabled' }).check({ force: true });
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      const confirmation = page.getByRole('dialog', { name: 'Production environment' });
      await confirmation
        .getByText(
          `Warning, this is a production environment. Are you sure you wish to update ${FEATURE_NAME} in Production?`,
        )
        .waitFor();
      await confirmation.getByRole('button', { name: 'Save targeting' }).click();
      await page.getByText(`${FEATURE_NAME} targeting for Production saved.`).waitFor();

      // A segment, used by a rule of a segment target.
      await page.goto('/projects/sp/environments/development/segments');
      await page.getByRole('button', { name: 'New Segment' }).first().click();
      const segmentForm = page.getByRole('dialog', { name: 'Create Segment' });
      await segmentForm.getByLabel('Name').fill(SEGMENT.name);
      await segmentForm.getByLabel('Key').fill(SEGMENT.key);
      await segmentForm.getByLabel('Description').fill('People trying the targeting editor');
      await segmentForm.getByRole('button', { name: 'Save segment' }).click();
      await page.getByText('Segment saved.').waitFor();

      await page.goto(targeting('development'));
      await page.getByRole('button', { name: 'Add rule' }).click();
      const third = rule(page, 'Rule 3');
      await pickTarget(page, condition(third, 1), { name: 'Segments', key: 'segments', type: 'Segment' });
      await choose(page, condition(third, 1).getByLabel('Segments', { exact: true }), SEGMENT.name);
      await page.keyboard.press('Escape');
      await editorScreenshot(page, 'targeting-segment-rule', 1280);
      await save(page, 'Development');
      expect((await savedRules(page, featureKey, 'development'))[2]?.audience?.conditions).toEqual([
        { target: 'segments', operator: 'in', values: [SEGMENT.key] },
      ]);

      // The server keeps a segment that a rule uses.
      await page.goto('/projects/sp/environments/development/segments');
      await page.getByRole('button', { name: `Delete ${SEGMENT.name}` }).click();
      await page
        .getByRole('dialog', { name: 'Delete Segment' })
        .getByRole('button', { name: 'Delete segment' })
        .click();
      await page
        .getByText(
          `The segment "${SEGMENT.name}" is used by the targeting of "${FEATURE_NAME}". Remove it from those rules first.`,
        )
        .waitFor();

      // Take it out of the rule, then edit and delete it.
      await page.goto(targeting('development'));
      await rule(page, 'Rule 3').getByRole('button', { name: 'Remove Rule 3' }).click();
      await save(page, 'Development');
      await page.goto('/projects/sp/environments/development/segments');
      await page.getByRole('button', { name: `Edit ${SEGMENT.name}` }).click();
      const editForm = page.getByRole('dialog', { name: 'Edit Segment' });
      await editForm.getByLabel('Description').fill('Renamed while trying the editor');
      await editForm.getByRole('button', { name: 'Save segment' }).click();
      await page.getByText('Renamed while trying the editor').waitFor();
      await page.getByRole('button', { name: `Delete ${SEGMENT.name}` }).click();
      await page
        .getByRole('dialog', { name: 'Delete Segment' })
        .getByRole('button', { name: 'Delete segment' })
        .click();
      await page.getByText('Segment deleted.').waitFor();
      await page.getByRole('button', { name: `Delete ${SEGMENT.name}` }).waitFor({ state: 'detached' });
    },
  );
});
