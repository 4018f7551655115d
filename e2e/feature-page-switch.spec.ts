import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { and, eq } from 'drizzle-orm';
import {
  environments,
  featureControls,
  features,
  impressionCounters,
} from '../apps/server/src/db/schema/index';
import { launchBrowser, openPage, rendered, screenshot, signIn } from './support/browser';
import { ADMIN_EMAIL, addDemoUser, startServer, type RunningServer } from './support/server';
import { DESKTOP, PHONE } from './support/api';

/*
 * The feature page switches a feature on and off as the feature list does (docs/product.md §2): in its
 * header for the current environment and in the Overview for every environment, each as the user's
 * permission in that environment allows; and its chart draws the days evenly, "on" green and "off" grey,
 * in straight segments from zero. A server of its own: the switches change what other specs would see.
 */

const EDITOR = 'editor@example.com';
const VIEWER = 'viewer@example.com';
const DAYS = 30;

/** The day `back` days before today, as the server counts days (UTC). */
const utcDay = (back: number) => new Date(Date.now() - back * 86_400_000).toISOString().slice(0, 10);

let browser: Browser;
let server: RunningServer;

beforeAll(async () => {
  [browser, server] = await Promise.all([
    launchBrowser(),
    startServer(
      {},
      {
        prepare: async (db) => {
          await addDemoUser(db, EDITOR, 'ROLE_ORGANISATION_EDITOR');
          await addDemoUser(db, VIEWER, 'ROLE_ORGANISATION_READONLY_USER');
          // Dark mode's impressions in Development over the chart's 30 days: spikes between empty
          // days (which a smoothed curve draws below zero) for "on", a steady count for "off".
          const [control] = await db
            .select({ id: featureControls.id, organisationId: featureControls.organisationId })
            .from(featureControls)
            .innerJoin(features, eq(features.id, featureControls.featureId))
            .innerJoin(environments, eq(environments.id, featureControls.environmentId))
            .where(and(eq(features.key, 'dark-mode'), eq(environments.key, 'development')));
          await db.insert(impressionCounters).values(
            Array.from({ length: DAYS }, (_, back) => [
              { variantKey: 'on', day: utcDay(back), count: back % 3 === 0 ? 900 : 0 },
              { variantKey: 'off', day: utcDay(back), count: 300 },
            ])
              .flat()
              .map((row) => ({
                ...row,
                organisationId: control!.organisationId,
                featureControlId: control!.id,
              })),
          );
        },
      },
    ),
  ]);
});
afterAll(async () => {
  await Promise.all([browser?.close(), server?.stop()]);
});

async function signedIn(email = ADMIN_EMAIL, viewport = DESKTOP): Promise<Page> {
  const { context, page } = await openPage(browser, server.url);
  onTestFinished(() => context.close());
  await page.setViewportSize(viewport);
  await signIn(page, { email });
  // Signed in once the app leaves the login page; the tests go straight to a feature page.
  await page.waitForURL((url) => !url.pathname.endsWith('/login'));
  return page;
}

const featurePage = (feature: string, environment: string, tab = 'overview') =>
  `/projects/sp/environments/${environment}/features/${feature}/${tab}`;

/** The header's switch and state for the page's environment. */
const headerState = (page: Page, environment: string) =>
  page.getByRole('group', { name: `State in ${environment}` });
const overviewRow = (page: Page, environment: string) =>
  page
    .getByRole('table', { name: 'The feature in each environment' })
    .getByRole('row')
    .filter({ has: page.getByRole('link', { name: environment, exact: true }) });
const switchIn = (scope: Locator, feature: string, environment: string) =>
  scope.getByRole('switch', { name: `${feature} on in ${environment}` });
const toast = (page: Page, text: string) => page.getByText(text, { exact: true }).last().waitFor();

/** The tooltip a disabled switch shows when hovered: its wrapper takes the pointer. */
async function tooltipOf(page: Page, toggle: Locator): Promise<string> {
  await toggle.locator('xpath=ancestor::span[1]').hover();
  const tooltip = page.getByRole('tooltip');
  await tooltip.waitFor();
  const text = (await tooltip.textContent()) ?? '';
  await page.mouse.move(0, 0);
  await tooltip.waitFor({ state: 'hidden' });
  return text;
}

async function shot(page: Page, name: string): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, name);
}

describe('the switch on the feature page', () => {
  it('switches the feature on from the header, and the Overview and the Targeting tab agree', async () => {
    const page = await signedIn();
    await page.goto(featurePage('new-checkout', 'development'));
    const header = switchIn(headerState(page, 'Development'), 'New checkout', 'Development');
    const row = switchIn(overviewRow(page, 'Development'), 'New checkout', 'Development');
    expect(await header.isChecked()).toBe(false);
    expect(await row.isChecked()).toBe(false);
    expect(await header.isDisabled()).toBe(false);

    await header.click({ force: true }); // on the track, which covers the input
    await toast(page, 'Feature saved.');
    expect(await page.getByRole('dialog').count()).toBe(0);
    expect(await header.isChecked()).toBe(true);
    await expect.poll(() => row.isChecked()).toBe(true);
    await headerState(page, 'Development').getByText('On', { exact: true }).waitFor();
    await overviewRow(page, 'Development').getByText('On', { exact: true }).waitFor();
    // Production is untouched.
    expect(await switchIn(overviewRow(page, 'Production'), 'New checkout', 'Production').isChecked()).toBe(
      false,
    );

    await page.getByRole('tab', { name: 'Targeting' }).click();
    await expect.poll(() => page.getByRole('switch', { name: 'Targeting enabled' }).isChecked()).toBe(true);

    await page.goto(featurePage('new-checkout', 'development'));
    await header.waitFor();
    expect(await header.isChecked()).toBe(true);
  });

  it('asks before switching a production environment, from the header or the Overview', async () => {
    const page = await signedIn();
    await page.goto(featurePage('search-v2', 'production'));
    const header = switchIn(headerState(page, 'Production'), 'Search v2', 'Production');
    const row = switchIn(overviewRow(page, 'Production'), 'Search v2', 'Production');
    const warning = page.getByRole('dialog', { name: 'Production environment' });
    const text =
      'Warning, this is a production environment. Are you sure you wish to update Search v2 in Production?';

    await row.click({ force: true });
    await warning.getByText(text).waitFor();
    await warning.getByRole('button', { name: 'Cancel' }).click();
    await warning.waitFor({ state: 'hidden' });
    expect(await row.isChecked()).toBe(false);
    expect(await header.isChecked()).toBe(false);

    await header.click({ force: true });
    await warning.getByText(text).waitFor();
    await warning.getByRole('button', { name: 'Turn on' }).click();
    await toast(page, 'Feature saved.');
    // The closing dialog's overlay would take the next click.
    await warning.waitFor({ state: 'hidden' });
    expect(await header.isChecked()).toBe(true);
    await expect.poll(() => row.isChecked()).toBe(true);

    // Development switches without a question, from the Overview of the Production page.
    const development = switchIn(overviewRow(page, 'Development'), 'Search v2', 'Development');
    await development.click({ force: true });
    await expect.poll(() => development.isChecked()).toBe(true);
    expect(await page.getByRole('dialog').count()).toBe(0);
  });

  it('is disabled, with the reason, where the user may not switch the feature', async () => {
    const editor = await signedIn(EDITOR);
    await editor.goto(featurePage('dark-mode', 'development'));
    const editorHeader = switchIn(headerState(editor, 'Development'), 'Dark mode', 'Development');
    await editorHeader.waitFor();
    expect(await editorHeader.isDisabled()).toBe(false);
    expect(await switchIn(overviewRow(editor, 'Development'), 'Dark mode', 'Development').isDisabled()).toBe(
      false,
    );
    const production = switchIn(overviewRow(editor, 'Production'), 'Dark mode', 'Production');
    expect(await production.isDisabled()).toBe(true);
    expect(await tooltipOf(editor, production)).toBe(
      'Only a production editor can change a feature in a production environment.',
    );

    const viewer = await signedIn(VIEWER);
    await viewer.goto(featurePage('dark-mode', 'development'));
    const viewerHeader = switchIn(headerState(viewer, 'Development'), 'Dark mode', 'Development');
    await viewerHeader.waitFor();
    expect(await viewerHeader.isDisabled()).toBe(true);
    expect(await tooltipOf(viewer, viewerHeader)).toBe('You do not have permission to change this feature.');
    expect(await switchIn(overviewRow(viewer, 'Development'), 'Dark mode', 'Development').isDisabled()).toBe(
      true,
    );
  });
});

type ChartFacts = {
  /** Each line's legend name, stroke colour (rgb) and path. */
  lines: { name: string; stroke: string; d: string }[];
  /** The x axis' tick positions, left to right. */
  ticks: number[];
  /** The y axis' tick labels, bottom to top. */
  yLabels: string[];
  /** The plot's bottom edge, and the lowest point any line reaches. */
  plotBottom: number;
  lowest: number;
};

/** What the chart draws, read from its SVG as the browser renders it. */
/** The chart as drawn once two readings frames apart agree: it draws again once it knows its width. */
async function settledChartFacts(page: Page): Promise<ChartFacts> {
  let last = JSON.stringify(await chartFacts(page));
  for (;;) {
    await rendered(page);
    const facts = await chartFacts(page);
    if (JSON.stringify(facts) === last) return facts;
    last = JSON.stringify(facts);
  }
}

function chartFacts(page: Page): Promise<ChartFacts> {
  return page.locator('.recharts-wrapper').evaluate((wrapper): ChartFacts => {
    // The legend lists the lines in the order they are drawn.
    const legend = Array.from(wrapper.querySelectorAll('.mantine-ChartLegend-legendItem'));
    const curves = Array.from(wrapper.querySelectorAll<SVGPathElement>('path.recharts-line-curve'));
    const lines = curves.map((curve, index) => ({
      name: legend[index]?.textContent?.trim() ?? '',
      stroke: getComputedStyle(curve).stroke,
      d: curve.getAttribute('d') ?? '',
    }));
    const ticks = Array.from(
      wrapper.querySelectorAll('.recharts-xAxis line.recharts-cartesian-axis-tick-line'),
    ).map((line) => Number(line.getAttribute('x1')));
    const yTicks = Array.from(wrapper.querySelectorAll('.recharts-yAxis-tick-labels text'));
    yTicks.sort((a, b) => b.getBoundingClientRect().top - a.getBoundingClientRect().top);
    const grid = wrapper.querySelector('.recharts-cartesian-grid')!.getBoundingClientRect();
    const lowest = Math.max(...curves.map((curve) => curve.getBoundingClientRect().bottom));
    return {
      lines,
      ticks: ticks.sort((a, b) => a - b),
      yLabels: yTicks.map((tick) => tick.textContent?.trim() ?? ''),
      plotBottom: grid.bottom,
      lowest,
    };
  });
}

const rgb = (colour: string) => (colour.match(/\d+/g) ?? []).slice(0, 3).map(Number);

describe('the Overview chart', () => {
  it.each([
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ])(
    'draws even daily ticks, "on" green and "off" grey, in straight lines from zero (%s)',
    async (name, viewport) => {
      const page = await signedIn(ADMIN_EMAIL, viewport);
      await page.goto(featurePage('dark-mode', 'development'));
      await page.getByRole('heading', { name: 'Daily impressions in Development' }).waitFor();
      await page.locator('.recharts-line-curve').first().waitFor();
      const facts = await settledChartFacts(page);

      // Soft: a broken chart shows every one of its faults at once.
      const on = facts.lines.find((line) => line.name === 'On')!;
      const off = facts.lines.find((line) => line.name === 'Off')!;
      expect(facts.lines.map((line) => line.name).sort()).toEqual(['Off', 'On']);
      const [r, g, b] = rgb(on.stroke);
      expect.soft(g, `"on" is drawn ${on.stroke}`).toBeGreaterThan(r! + 60);
      expect.soft(g, `"on" is drawn ${on.stroke}`).toBeGreaterThan(b! + 60);
      const grey = rgb(off.stroke);
      expect.soft(Math.max(...grey) - Math.min(...grey), `"off" is drawn ${off.stroke}`).toBeLessThan(24);

      // Straight segments: moves and lines only, no curves, and nothing below the axis.
      for (const line of facts.lines) expect.soft(line.d).toMatch(/^M[\d.,\-\sL]+$/);
      expect.soft(facts.lowest).toBeLessThanOrEqual(facts.plotBottom + 1);
      expect.soft(facts.yLabels[0]).toBe('0');

      // Ticks the same distance apart, more than two of them.
      expect.soft(facts.ticks.length).toBeGreaterThan(2);
      const gaps = facts.ticks.slice(1).map((x, i) => x - facts.ticks[i]!);
      expect.soft(Math.max(...gaps) - Math.min(...gaps), `gaps ${gaps.join(', ')}`).toBeLessThan(1.5);

      await shot(page, `feature-page-overview-${name}`);
    },
  );
});
