import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { AlertAnswer, Feature, FeatureControl, Rule } from '@vexil/core';
import { adminApi, DESKTOP, PHONE, type Api } from './support/api';
import { signIn, useFreshPage, viewShot } from './support/browser';
import { sharedServerURL } from './support/shared-server';

/*
 * A ramp's alert URL end to end (docs/adr/0026-guarded-rollouts.md), as the demo admin: a ramp of On
 * over a feature's "Everyone else" in Development is started from the Targeting tab, its Alert URL
 * made in the card's modal and read from the field; an alerting tool (here the test, with no session)
 * posts to it, and the ramp is rolled back, its history saying an alert came. Another ramp, whose
 * alert pauses it, then shows in the modal when the last alert came and what it did.
 */

const t = useFreshPage();
const PROJECT = 'sp';
const ENVIRONMENT = 'development';
const targetingOf = (featureKey: string) =>
  `/projects/${PROJECT}/environments/${ENVIRONMENT}/features/${featureKey}/targeting`;
const CARD = 'Ramp On in Everyone else to 100 %';
const EXPLANATION =
  'Any alerting tool — Alertmanager, Grafana, Datadog — can post to this URL to stop the ramp.';
/** How long a change may take to show: the scheduler's queue, then the live socket. */
const STEP_TIMEOUT = 30_000;

let api: Api;

/** Creates a feature whose Development targeting is on and gives everyone Off. */
async function featureServingOff(key: string, name: string): Promise<void> {
  await api('POST', `/api/v1/projects/${PROJECT}/features`, { name, key });
  const feature = await api<Feature>('GET', `/api/v1/projects/${PROJECT}/features/${key}`);
  const control = feature.controls[ENVIRONMENT]!;
  const everyoneOff: Rule = {
    defaultRule: true,
    audience: null,
    variantSplits: [{ variantKey: 'off', split: 100 }],
  };
  await api<FeatureControl>('PUT', '/api/v1/feature-controls/', {
    id: control.id,
    enabled: true,
    offVariantKey: control.offVariantKey,
    rules: [everyoneOff],
    lastModifiedDate: control.lastModifiedDate,
  });
}

beforeAll(async () => {
  api = await adminApi(sharedServerURL());
  await featureServingOff('alert-demo', 'Alert demo');
  await featureServingOff('alert-pause-demo', 'Alert pause demo');
});

/** Starts the default ramp of the feature's Everyone else (10 → 50 → 100 %, an hour each) and returns its card. */
async function startRamp(page: Page, featureKey: string) {
  await page.goto(targetingOf(featureKey));
  const panel = page.getByRole('region', { name: 'Schedules' });
  await panel.getByText(/^Nothing is scheduled for /).waitFor();
  await page.getByRole('button', { name: 'Ramp Everyone else' }).click();
  await page
    .getByRole('dialog', { name: 'Ramp Everyone else' })
    .getByRole('button', { name: 'Start ramp' })
    .click();
  const card = panel.getByRole('listitem', { name: CARD });
  await card.getByRole('listitem', { name: 'Step 1: 10 %, current' }).waitFor({ timeout: STEP_TIMEOUT });
  return { panel, card };
}

/** The screen at a computer's and a phone's width, light and dark; none scrolls sideways. */
async function modalShots(page: Page, name: string): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const { width } of [DESKTOP, PHONE]) {
      await viewShot(page, `${name}-${width}${scheme === 'dark' ? '-dark' : ''}`, width);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(width);
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize(DESKTOP);
}

/** Posts to an alert URL as an alerting tool does: no session, a JSON body. */
async function sendAlert(url: string, body: unknown = {}): Promise<AlertAnswer> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as AlertAnswer;
}

describe('a ramp’s alert URL', () => {
  it(
    'is made from the ramp’s card, shown once, and an alert posted to it rolls the ramp back',
    { timeout: 120_000 },
    async () => {
      const { page } = t;
      await signIn(page, { at: `/projects/${PROJECT}/environments/${ENVIRONMENT}/features` });
      const { panel, card } = await startRamp(page, 'alert-demo');

      await card.getByRole('button', { name: 'Alert URL' }).click();
      const dialog = page.getByRole('dialog', { name: 'Alert URL' });
      await dialog.getByText(EXPLANATION).waitFor();
      expect(await dialog.getByRole('radio', { name: 'Roll back' }).isChecked()).toBe(true);
      await modalShots(page, 'ramp-alert-create');

      await dialog.getByRole('button', { name: 'Create alert URL' }).click();
      const field = dialog.getByRole('textbox', { name: 'Alert URL' });
      await field.waitFor();
      const url = await field.inputValue();
      expect(url.startsWith(`${sharedServerURL()}/api/v1/alerts/vxa_`), url).toBe(true);
      await dialog.getByText('Copy it now: it is shown only once.').waitFor();
      expect(await dialog.getByRole('region', { name: 'Example curl command' }).innerText()).toBe(
        `curl -X POST -H 'Content-Type: application/json' -d '{}' ${url}`,
      );
      await dialog.getByRole('button', { name: 'Copy alert URL' }).waitFor();
      await modalShots(page, 'ramp-alert-url');
      await dialog.getByRole('button', { name: 'Done' }).click();
      await dialog.waitFor({ state: 'detached' });

      expect(await sendAlert(url)).toEqual({ result: 'applied', reason: 'The ramp was rolled back.' });

      // Rolled back, it leaves the pending schedules and shows among the finished, with why.
      await panel
        .getByText('Nothing is scheduled for Alert demo in Development.')
        .waitFor({ timeout: STEP_TIMEOUT });
      await panel.getByRole('button', { name: 'Show finished' }).click();
      await card.getByText('Rolled back', { exact: true }).waitFor();
      expect(await card.getByRole('button', { name: 'Alert URL' }).count()).toBe(0);
      await card.getByRole('button', { name: 'History' }).click();
      const line = card
        .getByRole('list', { name: 'History' })
        .getByText('Rolled back. An alert came to its alert URL.');
      await line.waitFor();
      await line.scrollIntoViewIfNeeded();
      await viewShot(page, 'ramp-alert-rolled-back', DESKTOP.width);
    },
  );

  it(
    'pauses a ramp whose alert URL says so, and shows when the last alert came and what it did',
    {
      timeout: 120_000,
    },
    async () => {
      const { page } = t;
      await signIn(page, { at: `/projects/${PROJECT}/environments/${ENVIRONMENT}/features` });
      const { card } = await startRamp(page, 'alert-pause-demo');

      await card.getByRole('button', { name: 'Alert URL' }).click();
      const dialog = page.getByRole('dialog', { name: 'Alert URL' });
      await dialog.getByText('Pause', { exact: true }).click();
      await dialog.getByText('An alert pauses the ramp where it is, until someone resumes it.').waitFor();
      await dialog.getByRole('button', { name: 'Create alert URL' }).click();
      const url = await dialog.getByRole('textbox', { name: 'Alert URL' }).inputValue();
      await dialog.getByRole('button', { name: 'Done' }).click();
      await dialog.waitFor({ state: 'detached' });

      // An Alertmanager webhook (version 4): the ramp's history names the alert.
      const answer = await sendAlert(url, {
        version: '4',
        status: 'firing',
        receiver: 'vexil',
        alerts: [{ status: 'firing', labels: { alertname: 'HighErrorRate' } }],
      });
      expect(answer).toEqual({ result: 'applied', reason: 'The ramp was paused.' });
      await card.getByRole('button', { name: 'Resume' }).waitFor({ timeout: STEP_TIMEOUT });
      await card.getByRole('button', { name: 'History' }).click();
      await card
        .getByRole('list', { name: 'History' })
        .getByText('Paused. An alert came to its alert URL (HighErrorRate).')
        .waitFor();

      await card.getByRole('button', { name: 'Alert URL' }).click();
      const details = dialog.getByLabel('Alert URL details');
      await details.getByText('The ramp was paused.').waitFor();
      // The text as written (the badge shows it in capitals): the time, then what the alert did.
      expect(await details.textContent()).toMatch(/Last alert\S.+ Applied The ramp was paused\.$/);
      expect(await details.innerText()).toContain('admin@example.com');
      await modalShots(page, 'ramp-alert-existing');

      // Replace asks first, and lets the user say what an alert does from now on.
      await dialog.getByRole('button', { name: 'Replace URL' }).click();
      const question = dialog.getByRole('group', { name: 'Replace the alert URL?' });
      await question.getByText('The old URL stops working at once').waitFor();
      await modalShots(page, 'ramp-alert-replace');
      await question.getByRole('button', { name: 'Keep the old URL' }).click();
      await question.waitFor({ state: 'detached' });
      await dialog.getByRole('button', { name: 'Close' }).click();
      await dialog.waitFor({ state: 'detached' });
    },
  );
});
