import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { launchBrowser, openPage, screenshot, signIn } from './support/browser';
import { startServer, type RunningServer } from './support/server';
import { adminApi, DESKTOP, PHONE } from './support/api';

/*
 * Names are what users type, and nothing stops a name of 240 characters without a space. Every table
 * that shows one must keep its columns where they are: the name is cut with an ellipsis, and the
 * whole name shows in a tooltip. A server of its own: the shared one's tables belong to other specs.
 */

/** 240 characters, no space. */
const LONG = 'Supercalifragilistic'.repeat(12);
const FEATURE = `Feature${LONG}`.slice(0, 240);
const PROJECT = `Project${LONG}`.slice(0, 240);
const ENVIRONMENT = `Environment${LONG}`.slice(0, 240);
const SEGMENT = `Segment${LONG}`.slice(0, 240);
const USER_ID = `user-${LONG}`.slice(0, 240);

let browser: Browser;
let server: RunningServer;

beforeAll(async () => {
  [browser, server] = await Promise.all([launchBrowser(), startServer()]);
  const api = await adminApi(server.url);
  await api('POST', '/api/v1/projects', { name: PROJECT, key: 'long' });
  await api('POST', '/api/v1/environments/', { projectKey: 'long', name: ENVIRONMENT, key: 'stage' });
  await api('POST', '/api/v1/projects/long/features', { name: FEATURE, key: 'long-name' });
  await api('POST', '/api/v1/projects/long/features', { name: 'Short one', key: 'short-one' });
  await api('POST', '/api/v2/segments', {
    projectKey: 'long',
    environmentKey: 'development',
    key: 'long-segment',
    name: SEGMENT,
    description: 'Segment with a long name',
  });
  // A user with a long id, as an SDK reports it.
  const project = await api<{ environments: { key: string; apiKey: string }[] }>(
    'GET',
    '/api/v1/projects/long',
  );
  const development = project.environments.find((environment) => environment.key === 'development')!;
  const res = await fetch(`${server.url}/api/sdk/v1/events`, {
    method: 'POST',
    headers: { authorization: `Bearer ${development.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify([
      { featureKey: 'long-name', evaluatedVariant: 'on', expectedVariant: null, user: { id: USER_ID } },
    ]),
  });
  expect(res.status).toBe(200);
  // The server records SDK users in batches: wait until the user is there before any screen shows it.
  for (let tries = 0; ; tries++) {
    const page = await api<unknown>('GET', '/api/v1/projects/long/environments/development/users');
    if (JSON.stringify(page).includes(USER_ID)) break;
    if (tries === 80) throw new Error('The SDK user was not recorded within 20 s.');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
});
afterAll(async () => {
  await Promise.all([browser?.close(), server?.stop()]);
});

async function signedIn(): Promise<Page> {
  const { context, page } = await openPage(browser, server.url);
  onTestFinished(() => context.close());
  await page.setViewportSize(DESKTOP);
  await signIn(page);
  await page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();
  return page;
}

/**
 * What in `table` is wider than its box, other than text cut with an ellipsis on purpose: a cell whose
 * content runs into the next one, or a button whose label is clipped by a column too narrow for it.
 */
function overflowingCells(table: Locator): Promise<string[]> {
  return table.evaluate((element) => {
    const spills = (box: Element) => box.scrollWidth > box.clientWidth + 1;
    const cells = Array.from(element.querySelectorAll('th, td')).filter(spills);
    // Inside a cell, text whose box hides its overflow and is not cut on purpose (nor visually hidden).
    const clipped = Array.from(element.querySelectorAll('th *, td *')).filter((box) => {
      const style = getComputedStyle(box);
      return (
        box.clientWidth > 1 &&
        box.textContent?.trim() &&
        style.overflowX !== 'visible' &&
        style.textOverflow !== 'ellipsis' &&
        spills(box)
      );
    });
    return [...cells, ...clipped].map(
      (box) =>
        `${box.tagName} "${box.textContent?.slice(0, 30) ?? ''}" ${box.scrollWidth} > ${box.clientWidth}`,
    );
  });
}

/** Whether the element's box lies within the window, left to right. */
async function withinWindow(locator: Locator, page: Page): Promise<boolean> {
  const box = await locator.boundingBox();
  return box !== null && box.x >= 0 && box.x + box.width <= page.viewportSize()!.width;
}

/** Nothing widens the page past the window (a heading with the name, a table). */
async function expectNoSidewaysScroll(page: Page): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
    page.viewportSize()!.width,
  );
}

/** The name is cut with an ellipsis, and hovering it shows the whole name. */
async function expectCutWithTooltip(page: Page, name: Locator, whole: string): Promise<void> {
  const style = await name.evaluate((element) => ({
    cut: element.scrollWidth > element.clientWidth,
    ellipsis: getComputedStyle(element).textOverflow,
  }));
  expect(style).toEqual({ cut: true, ellipsis: 'ellipsis' });
  await name.hover();
  await expect.poll(() => page.getByRole('tooltip').textContent()).toBe(whole);
  await page.mouse.move(0, 0);
  await page.getByRole('tooltip').waitFor({ state: 'detached' });
}

/** Pictures of the screen at 1440 px and 390 px; the page is left at 1440 px. */
async function pictures(page: Page, name: string): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, `${name}-desktop`);
  await page.setViewportSize(PHONE);
  await screenshot(page, `${name}-phone`);
  await page.setViewportSize(DESKTOP);
}

describe('a 240-character name', () => {
  it('is cut in the feature list, whose Key, Description and Status columns stay on screen', async () => {
    const page = await signedIn();
    await page.goto('/projects/long/environments/development/features');
    const table = page.getByRole('table', { name: 'Features in Development' });
    const name = table.getByRole('link', { name: FEATURE });
    await name.waitFor();
    for (const column of ['Name', 'Key', 'Description', 'Status']) {
      expect(await withinWindow(table.getByRole('columnheader', { name: column }), page), column).toBe(true);
    }
    expect(await overflowingCells(table)).toEqual([]);
    await expectCutWithTooltip(page, name, FEATURE);
    await expectNoSidewaysScroll(page);
    // A keyboard user gets the name too.
    await name.focus();
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Tab');
    await expect.poll(() => page.getByRole('tooltip').textContent()).toBe(FEATURE);
    await screenshot(page, 'long-names-feature-list-tooltip');
    await name.blur();
    await page.getByRole('tooltip').waitFor({ state: 'detached' });
    await pictures(page, 'long-names-feature-list');
  });

  it('is cut on Home, where no cell runs into the next', async () => {
    const page = await signedIn();
    const table = page.getByRole('table', { name: 'Features' });
    const name = table.getByRole('link', { name: FEATURE });
    await name.waitFor();
    for (const column of ['Key', 'Name', 'Description', 'Project', 'Maintainer']) {
      expect(await withinWindow(table.getByRole('columnheader', { name: column }), page), column).toBe(true);
    }
    expect(await overflowingCells(table)).toEqual([]);
    await expectCutWithTooltip(page, name, FEATURE);
    const project = table.getByText(PROJECT).first();
    await expectCutWithTooltip(page, project, PROJECT);
    await expectNoSidewaysScroll(page);
    await pictures(page, 'long-names-home');
  });

  it('is cut in the segments, the project admin and the users tables', async () => {
    const page = await signedIn();
    await page.goto('/projects/long/environments/development/segments');
    const segments = page.getByRole('table', { name: 'Segments' });
    await segments.getByText(SEGMENT).waitFor();
    expect(await overflowingCells(segments)).toEqual([]);
    expect(await withinWindow(segments.getByRole('button', { name: `Delete ${SEGMENT}` }), page)).toBe(true);
    await expectCutWithTooltip(page, segments.getByText(SEGMENT), SEGMENT);
    await expectNoSidewaysScroll(page);
    await pictures(page, 'long-names-segments');

    await page.goto('/admin/projects/long');
    const environments = page.getByRole('table', { name: 'Environments' });
    await environments.getByText(ENVIRONMENT).waitFor();
    expect(await overflowingCells(environments)).toEqual([]);
    expect(
      await withinWindow(environments.getByRole('button', { name: `Delete ${ENVIRONMENT}` }), page),
    ).toBe(true);
    await expectCutWithTooltip(page, environments.getByText(ENVIRONMENT), ENVIRONMENT);
    await expectNoSidewaysScroll(page);
    await pictures(page, 'long-names-admin-project');

    await page.goto('/projects/long/environments/development/users');
    const users = page.getByRole('table', { name: 'Target Users' });
    await users.getByText(USER_ID).waitFor();
    expect(await overflowingCells(users)).toEqual([]);
    await expectCutWithTooltip(page, users.getByText(USER_ID), USER_ID);
    await expectNoSidewaysScroll(page);
    await pictures(page, 'long-names-users');
  });
});
