import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { Environment, Feature, FeatureControl, Rule } from '@vexil/core';
import { call, DESKTOP, PHONE } from './support/api';
import { launchBrowser, openPage, signIn, viewShot } from './support/browser';
import { addDemoUser, startServer, type RunningServer } from './support/server';

/*
 * History and restore end to end (docs/product.md "History"): the targeting of a feature in
 * Production changes three times (once with a comment), the demo admin compares version 1 with
 * version 3 in the History tab, restores version 1 after the production warning, and the SDK payload
 * serves version 1 again; a read-only teammate's History shows the restore. A server of its own, for
 * the teammate.
 */

const PROJECT = 'sp';
const ENVIRONMENT = 'production';
const FEATURE = 'history-demo';
const HISTORY = `/projects/${PROJECT}/environments/${ENVIRONMENT}/features/${FEATURE}/history`;
const VIEWER = 'viewer@example.com';

let browser: Browser;
let server: RunningServer;

beforeAll(async () => {
  [browser, server] = await Promise.all([
    launchBrowser(),
    startServer({}, { prepare: (db) => addDemoUser(db, VIEWER, 'ROLE_ORGANISATION_READONLY_USER') }),
  ]);
});
afterAll(async () => {
  await Promise.all([browser?.close(), server?.stop()]);
});

const split = (on: number) => [
  { variantKey: 'on', split: on },
  { variantKey: 'off', split: 100 - on },
];
const everyone = (on: number): Rule => ({ defaultRule: true, audience: null, variantSplits: split(on) });
const testers = (on: number): Rule => ({
  defaultRule: false,
  audience: { conditions: [{ target: 'featureflow.user.id', operator: 'in', values: ['alice', 'bob'] }] },
  variantSplits: split(on),
});

/** Saves the production targeting as the Targeting tab does, based on what is stored. */
async function saveTargeting(page: Page, enabled: boolean, rules: Rule[], comment?: string): Promise<void> {
  const feature = await call<Feature>(page, 'GET', `/api/v1/projects/${PROJECT}/features/${FEATURE}`);
  const control = feature.controls[ENVIRONMENT]!;
  await call<FeatureControl>(page, 'PUT', '/api/v1/feature-controls/', {
    id: control.id,
    enabled,
    offVariantKey: control.offVariantKey,
    rules,
    lastModifiedDate: control.lastModifiedDate,
    ...(comment ? { comment } : {}),
  });
}

/** What the production SDK payload serves for the feature. */
async function served(page: Page, apiKey: string): Promise<{ enabled: boolean; rules: Rule[] }> {
  const response = await page.request.get(`${server.url}/api/sdk/v1/features`, {
    headers: { authorization: `Bearer ${apiKey}` },
  });
  expect(response.ok()).toBe(true);
  return ((await response.json()) as Record<string, { enabled: boolean; rules: Rule[] }>)[FEATURE]!;
}

const entry = (page: Page, name: string) =>
  page.getByRole('list', { name: 'Versions' }).getByRole('listitem', { name, exact: true });

describe('History tab', () => {
  it(
    'compares version 1 with 3, restores 1 in production after the warning, and the SDK payload follows',
    { timeout: 120_000 },
    async () => {
      const { context, page } = await openPage(browser, server.url);
      await signIn(page, { at: `/projects/${PROJECT}/environments/${ENVIRONMENT}/features` });
      await call(page, 'POST', `/api/v1/projects/${PROJECT}/features`, {
        name: 'History demo',
        key: FEATURE,
      });
      const production = await call<Environment>(
        page,
        'GET',
        `/api/v1/environments/${PROJECT}/${ENVIRONMENT}`,
      );
      const first = await served(page, production.apiKey!);

      await saveTargeting(page, true, [everyone(0)], 'Launch to nobody first');
      await saveTargeting(page, true, [testers(50), everyone(0)]);
      await saveTargeting(page, true, [testers(80), everyone(10)]);

      await page.goto(HISTORY);
      await entry(page, 'Version 4 of the targeting in Production').getByText('Current').waitFor();
      await expect
        .poll(() => entry(page, 'Version 2 of the targeting in Production').innerText())
        .toContain('“Launch to nobody first”');
      expect(await entry(page, 'Version 1 of the settings').innerText()).toContain('Created');

      await page.getByRole('checkbox', { name: 'Compare version 1 of the targeting in Production' }).check();
      await page.getByRole('checkbox', { name: 'Compare version 3 of the targeting in Production' }).check();
      const comparison = page.getByRole('region', {
        name: 'Version 1 compared with version 3 of the targeting in Production',
      });
      const differences = comparison.getByRole('list', { name: 'Differences' });
      await differences.waitFor();
      expect(await differences.innerText()).toContain('Turned on');
      expect(await differences.innerText()).toContain(
        'Rule 1 added: User id is one of alice, bob → 50% On, 50% Off',
      );
      await comparison.getByText('User id is one of alice, bob → 50% On, 50% Off', { exact: true }).waitFor();
      await viewShot(page, 'history-compare', DESKTOP.width);
      await comparison.getByRole('button', { name: 'Close the comparison' }).click();

      await page.getByRole('button', { name: 'Restore version 1 of the targeting in Production' }).click();
      const dialog = page.getByRole('dialog', { name: 'Restore version 1 of the targeting in Production?' });
      await dialog.getByRole('list', { name: 'What changes' }).waitFor();
      await dialog
        .getByText(
          'Warning, this is a production environment. Are you sure you wish to update History demo in Production?',
        )
        .waitFor();
      await dialog.getByLabel('Comment').fill('Back to off while we look at the errors');
      await viewShot(page, 'history-restore', DESKTOP.width);
      await dialog.getByRole('button', { name: 'Restore version 1' }).click();
      await page.getByText('Version 1 restored.').waitFor();
      const restored = entry(page, 'Version 5 of the targeting in Production');
      await restored.getByText('Current').waitFor();
      expect(await restored.innerText()).toContain('brought back version 1');
      expect(await restored.innerText()).toContain('“Back to off while we look at the errors”');

      // The SDKs get version 1 again.
      await expect.poll(async () => served(page, production.apiKey!)).toEqual(first);
      await context.close();
    },
  );

  it('shows a read-only teammate the restore, on a phone and in the dark, without Restore', async () => {
    const { context, page } = await openPage(browser, server.url);
    await signIn(page, { email: VIEWER, at: HISTORY });
    const restored = entry(page, 'Version 5 of the targeting in Production');
    await restored.getByText('Restore', { exact: true }).waitFor();
    expect(await restored.innerText()).toContain('admin@example.com');
    await expect
      .poll(() =>
        page.getByRole('button', { name: 'Restore version 2 of the targeting in Production' }).isDisabled(),
      )
      .toBe(true);
    await viewShot(page, 'history-phone', PHONE.width);
    await page.emulateMedia({ colorScheme: 'dark' });
    await viewShot(page, 'history-dark', DESKTOP.width);
    await context.close();
  });
});
