import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Environment, Experiment, ExperimentStatistics, Feature } from '@vexil/core';
import { adminApi, DESKTOP, PHONE, type Api } from './support/api';
import { screenshot, signIn, useFreshPage, viewShot } from './support/browser';
import { sharedServerURL } from './support/shared-server';

/*
 * Conversion experiments end to end (docs/product.md §2 "Experiments"): the demo admin creates one in
 * the dashboard, starts it, an application reports exposures and conversions through the SDK events
 * API, and the statistics page declares the winner; another, with too few users, has none yet. A
 * project of this spec's own ("abt"), so that its Development environment starts without experiments.
 */

const t = useFreshPage();
const PROJECT = 'abt';
const ENVIRONMENT = 'development';
const LIST = `/projects/${PROJECT}/environments/${ENVIRONMENT}/experiments`;
const USERS_PER_ARM = 300;

let api: Api;
let banner: Feature;
let pricing: Feature;
let development: Environment;

beforeAll(async () => {
  api = await adminApi(sharedServerURL());
  await api('POST', '/api/v1/projects', { name: 'A/B tests', key: PROJECT });
  banner = await api<Feature>('POST', `/api/v1/projects/${PROJECT}/features`, {
    name: 'Checkout banner',
    key: 'checkout-banner',
  });
  pricing = await api<Feature>('POST', `/api/v1/projects/${PROJECT}/features`, {
    name: 'Pricing page',
    key: 'pricing-page',
  });
  development = await api<Environment>('GET', `/api/v1/environments/${PROJECT}/${ENVIRONMENT}`);
});

/** Sends SDK events as a server SDK does, with the environment's server key. */
async function sendEvents(rows: unknown[]): Promise<void> {
  const response = await fetch(`${sharedServerURL()}/api/sdk/v1/events`, {
    method: 'POST',
    headers: { authorization: `Bearer ${development.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(rows),
  });
  expect(response.status, await response.text()).toBe(200);
}

/**
 * Exposes `users` users to each of `control` and `variation` (evaluate rows, as the SDK's evaluations
 * report them), then converts `conversions[variant]` of each on `goalKey`.
 */
async function sendTraffic(
  featureKey: string,
  prefix: string,
  arms: { variant: string; users: number; conversions: number }[],
  goalKey: string,
): Promise<void> {
  const evaluations = arms.flatMap((arm) =>
    Array.from({ length: arm.users }, (_, i) => ({
      type: 'evaluate',
      featureKey,
      evaluatedVariant: arm.variant,
      user: { id: `${prefix}-${arm.variant}-${i}` },
    })),
  );
  await sendEvents(evaluations);
  const goals = arms.flatMap((arm) =>
    Array.from({ length: arm.conversions }, (_, i) => ({
      type: 'goal',
      goalKey,
      user: { id: `${prefix}-${arm.variant}-${i}` },
    })),
  );
  await sendEvents(goals);
}

/** Waits until the server has stored `exposed` exposures and `converted` conversions. */
async function waitForCounts(id: string, exposed: number, converted: number): Promise<ExperimentStatistics> {
  let statistics: ExperimentStatistics | undefined;
  await expect
    .poll(
      async () => {
        statistics = await api<ExperimentStatistics>('GET', `/api/v1/experiment-statistics/${id}`);
        const results = Object.values(statistics.variantResults);
        return [
          results.reduce((sum, result) => sum + result.impressions, 0),
          results.reduce((sum, result) => sum + result.goals, 0),
        ];
      },
      { timeout: 20_000, interval: 250 },
    )
    .toEqual([exposed, converted]);
  return statistics!;
}

async function shots(page: Page, name: string): Promise<void> {
  await viewShot(page, `${name}-1440`, DESKTOP.width);
  await viewShot(page, `${name}-390`, PHONE.width);
  await page.setViewportSize(DESKTOP);
}

describe('experiments', () => {
  it('creates, starts, measures and archives an experiment', async () => {
    const { page } = t;
    await page.setViewportSize(DESKTOP);
    await signIn(page);
    await page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();

    // The top navigation's Experiments item leads to the environment's Experiments page.
    await page.goto(`/projects/${PROJECT}/environments/${ENVIRONMENT}/features`);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Experiments' }).click();
    await page.getByRole('heading', { name: 'Experiments', level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe(LIST);
    await page.getByText('No experiments yet').waitFor();
    await shots(page, 'experiments-empty');

    // New Experiment: the feature picked from the project's, its variants filled in, a typed goal.
    await page.getByRole('button', { name: 'New Experiment' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'New Experiment' });
    await dialog.getByRole('textbox', { name: 'Name' }).fill('Banner conversion');
    await dialog.getByRole('textbox', { name: 'Description' }).fill('Does the banner make more people pay?');
    await dialog.getByRole('combobox', { name: /^Feature/ }).click();
    await dialog.getByRole('combobox', { name: /^Feature/ }).fill('banner');
    await page.getByRole('option', { name: /Checkout banner/ }).click();
    expect(await dialog.getByRole('combobox', { name: /^Control variant/ }).inputValue()).toBe('Off (off)');
    expect(await dialog.getByRole('combobox', { name: /^Alternate variant/ }).inputValue()).toBe('On (on)');
    await dialog.getByRole('combobox', { name: /^Goal key/ }).fill('Purchase Completed');
    await dialog.getByText('purchase-completed').waitFor();
    await shots(page, 'experiment-modal');
    await dialog.getByRole('button', { name: 'Save experiment' }).click();
    await page.getByText('Banner conversion saved.').waitFor();
    await dialog.waitFor({ state: 'detached' });

    const row = page.getByRole('row', { name: /Banner conversion/ });
    await row.getByText('Not started').waitFor();
    expect(await row.getByRole('link', { name: /^Stats/ }).count()).toBe(0);
    await row.getByRole('switch', { name: 'Banner conversion enabled' }).click({ force: true });
    await page.getByText('Banner conversion is running.').waitFor();
    await row.getByText('Running').waitFor();

    const [experiment] = await api<Experiment[]>(
      'GET',
      `/api/v1/experiments/?projectKey=${PROJECT}&environmentKey=${ENVIRONMENT}`,
    );
    expect(experiment).toMatchObject({
      name: 'Banner conversion',
      featureId: banner.id,
      control: 'off',
      variation: 'on',
      goalKey: 'purchase-completed',
      enabled: true,
      mode: 'fixed',
    });
    expect(experiment!.startDate).not.toBeNull();

    // An application's traffic: 300 users a variant, 10 % of "off" and 25 % of "on" buy.
    await sendTraffic(
      banner.key,
      'shopper',
      [
        { variant: 'off', users: USERS_PER_ARM, conversions: 30 },
        { variant: 'on', users: USERS_PER_ARM, conversions: 75 },
      ],
      'purchase-completed',
    );
    await waitForCounts(experiment!.id, 2 * USERS_PER_ARM, 105);

    // A second experiment, on another feature, with too few users to tell.
    const small = await api<Experiment>('POST', '/api/v1/experiments/', {
      projectKey: PROJECT,
      environmentKey: ENVIRONMENT,
      name: 'Pricing layout',
      goalKey: 'signup',
      featureId: pricing.id,
      control: 'off',
      variation: 'on',
      enabled: true,
      mode: 'sequential',
    });
    await sendTraffic(
      pricing.key,
      'visitor',
      [
        { variant: 'off', users: 40, conversions: 4 },
        { variant: 'on', users: 45, conversions: 9 },
      ],
      'signup',
    );
    await waitForCounts(small.id, 85, 13);

    await page.reload();
    await page.getByRole('row', { name: /Pricing layout/ }).waitFor();
    // The list names the winner, as its statistics do; the small one has none.
    await row.getByText('on is winning', { exact: true }).waitFor();
    expect(
      await page
        .getByRole('row', { name: /Pricing layout/ })
        .getByText(/is winning/)
        .count(),
    ).toBe(0);
    await shots(page, 'experiments-list');

    // The winner.
    await row.getByRole('link', { name: 'Stats of Banner conversion' }).click();
    await page.getByRole('heading', { name: 'Banner conversion', level: 1 }).waitFor();
    const verdict = page.getByRole('heading', { name: /^on is winning with \d+\.\d\s% confidence$/ });
    await verdict.waitFor();
    const table = page.getByRole('table', { name: 'Results by variant' });
    expect(await table.getByRole('row').nth(1).innerText()).toMatch(/off\s+Control\s+300\s+30\s+10\.00\s%$/);
    expect(await table.getByRole('row').nth(2).innerText()).toMatch(
      /on\s+Alternate\s+Winner\s+300\s+75\s+25\.00\s%$/i,
    );
    await page.getByText(/^Running for /).waitFor();
    await page.getByLabel('Cumulative conversion rate by variant and day').waitFor();
    await shots(page, 'experiment-stats-winner');
    await screenshot(page, 'experiment-stats-winner-full');

    // The feature's Overview links to it while it runs.
    await page.getByRole('link', { name: 'Checkout banner' }).click();
    const running = page.getByRole('list', { name: 'Running experiments' });
    await running.getByRole('link', { name: 'Banner conversion' }).waitFor();
    await viewShot(page, 'feature-overview-experiments-1440', DESKTOP.width);

    // No winner yet: each reason in words.
    await page.goto(`${LIST}/${small.id}/stats`);
    await page.getByRole('heading', { name: 'No winner yet' }).waitFor();
    await page
      .getByText('Each variant needs at least 100 exposed users; the control (off) has 40.')
      .waitFor();
    await page.getByText(/Sequential mode/).waitFor();
    await shots(page, 'experiment-stats-no-winner');

    // Archive, once confirmed.
    await page.goto(LIST);
    await page.getByRole('button', { name: 'Archive Banner conversion' }).click();
    const confirmation = page.getByRole('dialog', { name: 'Archive Experiment' });
    await confirmation.getByRole('button', { name: 'Archive experiment' }).click();
    await page.getByText('Experiment archived.').waitFor();
    await page.getByRole('row', { name: /Banner conversion/ }).waitFor({ state: 'detached' });
    expect(await page.getByRole('row', { name: /Pricing layout/ }).count()).toBe(1);
    const left = await api<Experiment[]>(
      'GET',
      `/api/v1/experiments/?projectKey=${PROJECT}&environmentKey=${ENVIRONMENT}`,
    );
    expect(left.map((e) => e.name)).toEqual(['Pricing layout']);
  });
});
