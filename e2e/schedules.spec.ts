import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import type { Environment, Feature, FeatureControl, Rule } from '@vexil/core';
import { call, DESKTOP, PHONE } from './support/api';
import { launchBrowser, openPage, signIn, viewShot } from './support/browser';
import { startServer, type RunningServer } from './support/server';

/*
 * Release automation end to end (docs/adr/0025-scheduler.md), as the demo admin: a ramp of On over
 * a feature's "Everyone else" in Development, built in the ramp editor with holds of a second and an
 * approval at 50 %, runs by itself up to the approval, is approved from the Targeting tab's Schedules
 * panel and completes, the SDK payload following each step and the feature header saying where it
 * is; a one-off and a recurring change are scheduled from "Schedule change", show on the project's
 * Schedule page (calendar and table, filtered, at a phone's width and in the dark) and one is
 * cancelled; in a protected environment an approved change request can be scheduled. A server of its
 * own, since the scheduler changes what the SDKs are served.
 */

const PROJECT = 'sp';
const ENVIRONMENT = 'development';
const RAMP_FEATURE = 'ramp-demo';
const LAUNCH_FEATURE = 'launch-demo';
const ROLLBACK_FEATURE = 'rollback-demo';
const targetingOf = (featureKey: string, environmentKey = ENVIRONMENT) =>
  `/projects/${PROJECT}/environments/${environmentKey}/features/${featureKey}/targeting`;
const SCHEDULE_PAGE = `/projects/${PROJECT}/environments/${ENVIRONMENT}/schedule`;
/** How long a step of the scheduler may take to show (a second's hold, the queue and the live socket). */
const STEP_TIMEOUT = 30_000;

let browser: Browser;
let server: RunningServer;

beforeAll(async () => {
  [browser, server] = await Promise.all([launchBrowser(), startServer()]);
});
afterAll(async () => {
  await Promise.all([browser?.close(), server?.stop()]);
});

/** Creates a feature whose Development targeting is on and gives everyone Off. */
async function featureServingOff(page: Page, key: string, name: string): Promise<void> {
  await call(page, 'POST', `/api/v1/projects/${PROJECT}/features`, { name, key });
  const feature = await call<Feature>(page, 'GET', `/api/v1/projects/${PROJECT}/features/${key}`);
  const control = feature.controls[ENVIRONMENT]!;
  const everyoneOff: Rule = {
    defaultRule: true,
    audience: null,
    variantSplits: [{ variantKey: 'off', split: 100 }],
  };
  await call<FeatureControl>(page, 'PUT', '/api/v1/feature-controls/', {
    id: control.id,
    enabled: true,
    offVariantKey: control.offVariantKey,
    rules: [everyoneOff],
    lastModifiedDate: control.lastModifiedDate,
  });
}

/** What the Development SDK payload serves to everyone else for the feature, by variant. */
async function everyoneElse(page: Page, apiKey: string, featureKey: string): Promise<Record<string, number>> {
  const response = await page.request.get(`${server.url}/api/sdk/v1/features`, {
    headers: { authorization: `Bearer ${apiKey}` },
  });
  expect(response.ok()).toBe(true);
  const rules = ((await response.json()) as Record<string, { rules: Rule[] }>)[featureKey]!.rules;
  const fallback = rules.find((rule) => rule.defaultRule)!;
  return Object.fromEntries(fallback.variantSplits.map((split) => [split.variantKey, split.split]));
}

async function choose(page: Page, field: Locator, option: string): Promise<void> {
  await field.click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** Sets one step of the ramp editor: its coverage, a hold in seconds, and whether it waits for an approval. */
async function setStep(
  page: Page,
  dialog: Locator,
  n: number,
  coverage: number,
  options: { holdSeconds: number; approval?: boolean },
) {
  const step = dialog.getByRole('group', { name: `Step ${n}` });
  await step.getByRole('textbox', { name: 'Coverage' }).fill(String(coverage));
  await step.getByRole('textbox', { name: 'Hold' }).fill(String(options.holdSeconds));
  await choose(page, step.getByRole('combobox', { name: `Hold unit of step ${n}` }), 'Seconds');
  if (options.approval) await step.getByRole('checkbox', { name: /Approval/ }).check();
}

/** An SDK of the environment reports `count` evaluations of the feature to `variant`. */
async function reportImpressions(
  page: Page,
  apiKey: string,
  featureKey: string,
  variant: string,
  count: number,
) {
  const rows = Array.from({ length: count }, (_, i) => ({
    featureKey,
    evaluatedVariant: variant,
    expectedVariant: null,
    user: `ramp-user-${i}`,
  }));
  const response = await page.request.post(`${server.url}/api/sdk/v1/events`, {
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    data: JSON.stringify(rows),
  });
  expect(response.ok()).toBe(true);
}

/** A local date and time `days` from now at `time`, as a datetime-local field takes it. */
function localDateTime(days: number, time: string): string {
  const date = new Date(Date.now() + days * 86_400_000);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${time}`;
}

describe('release automation', () => {
  it(
    'ramps On 10 → 50 → 100 % with 2-second holds up to its approval, the SDKs and the Overview following; approves it; rolls a second ramp back',
    { timeout: 180_000 },
    async () => {
      const { context, page } = await openPage(browser, server.url);
      await signIn(page, { at: `/projects/${PROJECT}/environments/${ENVIRONMENT}/features` });
      await featureServingOff(page, RAMP_FEATURE, 'Ramp demo');
      await featureServingOff(page, ROLLBACK_FEATURE, 'Rollback demo');
      const development = await call<Environment>(
        page,
        'GET',
        `/api/v1/environments/${PROJECT}/${ENVIRONMENT}`,
      );
      const apiKey = development.apiKey!;

      await page.goto(targetingOf(RAMP_FEATURE));
      const panel = page.getByRole('region', { name: 'Schedules' });
      await panel.getByText('Nothing is scheduled for Ramp demo in Development.').waitFor();

      await page.getByRole('button', { name: 'Ramp Everyone else' }).click();
      const dialog = page.getByRole('dialog', { name: 'Ramp Everyone else' });
      expect(await dialog.getByRole('combobox', { name: 'Variant' }).inputValue()).toBe('On');
      await setStep(page, dialog, 1, 10, { holdSeconds: 2 });
      await setStep(page, dialog, 2, 50, { holdSeconds: 2 });
      await setStep(page, dialog, 3, 100, { holdSeconds: 2, approval: true });
      const preview = dialog.getByRole('table', { name: 'Splits at each step' });
      expect(await preview.getByRole('row', { name: /^Now/ }).innerText()).toMatch(/0 %\s+100 %/);
      expect(await preview.getByRole('row', { name: /^Step 2/ }).innerText()).toMatch(/50 %\s+50 %/);
      await viewShot(page, 'schedules-ramp-editor', DESKTOP.width);
      await dialog.getByRole('button', { name: 'Start ramp' }).click();
      await page.getByText('Ramp started: On in Everyone else grows to 100 %.').waitFor();

      // The ramp runs by itself through its steps, then waits at 100 % for someone to approve completing it.
      const card = panel.getByRole('listitem', { name: 'Ramp On in Everyone else to 100 %' });
      await card.getByText('Awaiting approval').waitFor({ timeout: STEP_TIMEOUT });
      await card.getByRole('listitem', { name: 'Step 3: 100 %, current' }).waitFor();
      await card.getByRole('listitem', { name: 'Step 1: 10 %, done' }).waitFor();
      await card.getByRole('listitem', { name: 'Step 2: 50 %, done' }).waitFor();
      expect(await everyoneElse(page, apiKey, RAMP_FEATURE)).toEqual({ on: 100, off: 0 });
      await page.getByRole('link', { name: 'Ramping 100 % · awaiting approval' }).waitFor();
      expect(
        await card.getByRole('group', { name: 'Schedule actions' }).getByRole('button').allInnerTexts(),
      ).toEqual(['Approve', 'Pause', 'Advance', 'Roll back', 'Cancel']);
      // Each step is in its history, with the version it wrote.
      await card.getByRole('button', { name: 'History' }).click();
      const history = card.getByRole('list', { name: 'History' });
      for (const step of ['on to 10 %', 'on to 50 %', 'on to 100 %'])
        await history.getByText(step).first().waitFor();
      await viewShot(page, 'schedules-panel-awaiting-approval', DESKTOP.width);

      // The Overview follows: what Development serves now, and the impressions the SDKs report.
      await reportImpressions(page, apiKey, RAMP_FEATURE, 'on', 30);
      await page.getByRole('tab', { name: 'Overview' }).click();
      const row = page
        .getByRole('table', { name: 'The feature in each environment' })
        .getByRole('row', { name: /Development/ });
      await row.getByText('Everyone gets On.').waitFor();
      // Today's impressions are read when the page loads: it is loaded again until the 30 show.
      await expect
        .poll(
          async () => {
            await page.reload();
            return row.getByRole('cell').last().innerText();
          },
          { timeout: STEP_TIMEOUT, interval: 500 },
        )
        .toBe('30');
      await page.getByRole('tab', { name: 'Targeting' }).click();

      await card.getByRole('button', { name: 'Approve' }).click();
      await page.getByText('The ramp is complete.').waitFor();
      // Complete: it leaves the pending ones, and shows among the finished.
      await panel
        .getByText('Nothing is scheduled for Ramp demo in Development.')
        .waitFor({ timeout: STEP_TIMEOUT });
      await panel.getByRole('button', { name: 'Show finished' }).click();
      await card.getByText('Completed').waitFor();
      expect(await card.getByRole('group', { name: 'Schedule actions' }).count()).toBe(0);
      expect(await everyoneElse(page, apiKey, RAMP_FEATURE)).toEqual({ on: 100, off: 0 });

      await viewShot(page, 'schedules-panel-phone', PHONE.width);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(PHONE.width);
      await page.emulateMedia({ colorScheme: 'dark' });
      await viewShot(page, 'schedules-panel-dark', DESKTOP.width);
      await page.emulateMedia({ colorScheme: 'light' });

      // A second ramp, rolled back at its first step: the rule is exactly what it was.
      await page.goto(targetingOf(ROLLBACK_FEATURE));
      const before = await everyoneElse(page, apiKey, ROLLBACK_FEATURE);
      await page.getByRole('button', { name: 'Ramp Everyone else' }).click();
      const second = page.getByRole('dialog', { name: 'Ramp Everyone else' });
      await second.getByRole('button', { name: 'Start ramp' }).click();
      const ramp = panel.getByRole('listitem', { name: 'Ramp On in Everyone else to 100 %' });
      await ramp.getByRole('listitem', { name: 'Step 1: 10 %, current' }).waitFor({ timeout: STEP_TIMEOUT });
      expect(await everyoneElse(page, apiKey, ROLLBACK_FEATURE)).toEqual({ on: 10, off: 90 });
      await ramp.getByRole('button', { name: 'Roll back' }).click();
      await page
        .getByRole('dialog', { name: 'Roll back the ramp' })
        .getByRole('button', { name: 'Roll back' })
        .click();
      await page.getByText('Ramp rolled back: the rule is as it was before the ramp.').waitFor();
      await panel
        .getByText('Nothing is scheduled for Rollback demo in Development.')
        .waitFor({ timeout: STEP_TIMEOUT });
      expect(await everyoneElse(page, apiKey, ROLLBACK_FEATURE)).toEqual(before);
      await context.close();
    },
  );

  it(
    'schedules a one-off and a recurring change, lists them on the Schedule page, and cancels one',
    { timeout: 120_000 },
    async () => {
      const { context, page } = await openPage(browser, server.url);
      await signIn(page, { at: `/projects/${PROJECT}/environments/${ENVIRONMENT}/features` });
      await call(page, 'POST', `/api/v1/projects/${PROJECT}/features`, {
        name: 'Launch demo',
        key: LAUNCH_FEATURE,
      });
      await page.goto(targetingOf(LAUNCH_FEATURE));
      const panel = page.getByRole('region', { name: 'Schedules' });

      // Turn it on the day after tomorrow at 09:30, local time.
      await panel.getByRole('button', { name: 'Schedule change' }).click();
      let dialog = page.getByRole('dialog', { name: 'Schedule change' });
      await dialog.getByLabel('Date and time').fill(localDateTime(2, '09:30'));
      expect(await dialog.getByRole('radio', { name: 'Turn on' }).isChecked()).toBe(true);
      await dialog.getByRole('textbox', { name: /^Comment/ }).fill('Launch day');
      await dialog.getByRole('button', { name: 'Schedule', exact: true }).click();
      await page.getByText(/^Scheduled: Turn on at /).waitFor();
      await panel.getByRole('listitem', { name: /^Turn on at / }).waitFor();
      await page.getByRole('link', { name: /^Scheduled: Turn on · / }).waitFor();

      // Off on weekday evenings in Berlin.
      await panel.getByRole('button', { name: 'Schedule change' }).click();
      dialog = page.getByRole('dialog', { name: 'Schedule change' });
      await dialog.getByText('Recurring', { exact: true }).click();
      await dialog.getByRole('button', { name: 'Weekdays at 18:00' }).click();
      await dialog.getByRole('radio', { name: 'Turn off' }).check();
      const zone = dialog.getByRole('combobox', { name: /^Time zone/ });
      await zone.fill('Europe/Berl');
      await page.getByRole('option', { name: 'Europe/Berlin', exact: true }).click();
      await viewShot(page, 'schedules-change-recurring', DESKTOP.width);
      await dialog.getByRole('button', { name: 'Schedule', exact: true }).click();
      await page.getByText('Scheduled: Turn off weekdays at 18:00 (Europe/Berlin).').waitFor();

      // The project's Schedule page, from the navigation.
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Schedule', exact: true })
        .click();
      await page.waitForURL(`**${SCHEDULE_PAGE}`);
      await page.getByRole('heading', { name: 'Schedule', level: 1 }).waitFor();
      const table = page.getByRole('table', { name: 'Schedules' });
      await table.getByRole('row', { name: /Turn off weekdays at 18:00/ }).waitFor();
      expect(await table.getByRole('link', { name: 'Launch demo' }).count()).toBe(2);
      expect(await table.getByRole('link', { name: 'Launch demo' }).first().getAttribute('href')).toBe(
        targetingOf(LAUNCH_FEATURE),
      );
      const launchDay = page.getByRole('region', {
        name: new Date(Date.now() + 2 * 86_400_000)
          .toLocaleDateString('en-GB', {
            weekday: 'long',
            day: 'numeric',
            month: 'long',
          })
          .replace(',', ''),
      });
      await launchDay.getByText('09:30').waitFor();
      await viewShot(page, 'schedule-page', DESKTOP.width);

      await choose(page, page.getByRole('combobox', { name: 'Environment' }), 'Production');
      await page.getByText('No schedule matches these filters.').first().waitFor();
      await page.getByRole('button', { name: 'Clear filters' }).click();
      await table.getByRole('row', { name: /Turn off weekdays at 18:00/ }).waitFor();
      await page.getByRole('textbox', { name: 'Feature' }).fill('launch');
      await expect.poll(() => table.getByRole('row').count()).toBe(3);

      await page.setViewportSize({ width: PHONE.width, height: PHONE.height });
      await page.getByRole('list', { name: 'Schedules' }).waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(PHONE.width);
      await viewShot(page, 'schedule-page-phone', PHONE.width);
      await page.emulateMedia({ colorScheme: 'dark' });
      await viewShot(page, 'schedule-page-phone-dark', PHONE.width);
      await page.emulateMedia({ colorScheme: 'light' });
      await page.setViewportSize({ width: DESKTOP.width, height: DESKTOP.height });

      // Cancelled from the Targeting tab, once confirmed.
      await page.goto(targetingOf(LAUNCH_FEATURE));
      const once = panel.getByRole('listitem', { name: /^Turn on at / });
      await once.getByRole('button', { name: 'Cancel' }).click();
      const confirm = page.getByRole('dialog', { name: 'Cancel schedule' });
      await confirm.getByRole('button', { name: 'Cancel schedule' }).click();
      await page.getByText('Schedule cancelled.').waitFor();
      await once.waitFor({ state: 'detached' });
      await panel.getByRole('listitem', { name: 'Turn off weekdays at 18:00 (Europe/Berlin)' }).waitFor();
      await context.close();
    },
  );

  it('offers an approved change request where the environment asks for change requests', async () => {
    const { context, page } = await openPage(browser, server.url);
    await signIn(page, { at: `/projects/${PROJECT}/environments/production/features` });
    await call(page, 'POST', `/api/v1/projects/${PROJECT}/features`, { name: 'Guarded', key: 'guarded' });
    await call(page, 'PUT', `/api/v1/projects/${PROJECT}/environments/production/approval-settings`, {
      required: true,
      minApprovals: 1,
      allowSelfApproval: false,
      resetApprovalsOnChange: true,
      autoApply: false,
    });
    await page.goto(targetingOf('guarded', 'production'));
    await page
      .getByRole('region', { name: 'Schedules' })
      .getByRole('button', { name: 'Schedule change' })
      .click();
    const dialog = page.getByRole('dialog', { name: 'Schedule change' });
    await dialog.getByText('Production is a production environment', { exact: false }).waitFor();
    await dialog.getByRole('radio', { name: 'Apply an approved change request' }).check();
    await dialog.getByText('No change request in Production is approved yet.').waitFor();
    // A recurring schedule switches the feature: it offers no change request.
    await dialog.getByText('Recurring', { exact: true }).click();
    expect(await dialog.getByRole('radio', { name: 'Apply an approved change request' }).count()).toBe(0);

    // A change made directly is refused, and goes into a change request instead.
    await dialog.getByText('Once', { exact: true }).click();
    await dialog.getByRole('radio', { name: 'Turn on' }).check();
    await dialog.getByLabel('Date and time').fill(localDateTime(3, '08:00'));
    await dialog.getByRole('button', { name: 'Schedule', exact: true }).click();
    await dialog.getByText(/it is scheduled once the request is applied\.$/).waitFor();
    await dialog.getByRole('button', { name: 'Add to change request' }).click();
    await page.getByText('Added to the change request “Schedule Guarded in Production”.').waitFor();
    await page.getByRole('link', { name: 'Open the change request' }).click();
    const change = page.getByRole('listitem', { name: 'Schedule: Guarded' });
    await change.getByText(/^Schedules: Turn on at /).waitFor();
    await viewShot(page, 'schedules-change-request', DESKTOP.width);
    await context.close();
  });
});
