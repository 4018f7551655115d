import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { launchBrowser, openPage, rendered, screenshot, signIn, watchRequests } from './support/browser';
import { ADMIN_EMAIL, ADMIN_PASSWORD, DEMO_DOMAIN, startServer, type RunningServer } from './support/server';
import { DESKTOP, PHONE } from './support/api';

/*
 * What the project admin refuses before the server has to (docs/product.md §2 "Project admin", §5):
 * the last environment and the last project cannot be deleted, deleting a project needs its key
 * typed, and a colour that is not valid is said so rather than replaced; the pickers close when the
 * user moves on. A server of its own: these tests delete projects and environments.
 */

const COLOR_MESSAGE = 'Color must be a hex colour such as #1273de.';

let browser: Browser;
let server: RunningServer;

async function api(method: string, path: string, body?: unknown): Promise<unknown> {
  const login = await fetch(`${server.url}/api/authenticate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: ADMIN_EMAIL, password: ADMIN_PASSWORD, domain: DEMO_DOMAIN }),
  });
  const token = ((await login.json()) as { id_token: string }).id_token;
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  const text = await res.text();
  return text ? JSON.parse(text) : undefined;
}

beforeAll(async () => {
  [browser, server] = await Promise.all([launchBrowser(), startServer()]);
  // "Solo" keeps one environment only; "Spare" is a second project to delete.
  const solo = (await api('POST', '/api/v1/projects', { name: 'Solo', key: 'solo' })) as {
    environments: { id: string; key: string }[];
  };
  for (const environment of solo.environments.filter((e) => e.key !== 'production')) {
    await api('DELETE', `/api/v1/environments/${environment.id}`);
  }
  await api('POST', '/api/v1/projects', { name: 'Spare', key: 'spare' });
});
afterAll(async () => {
  await Promise.all([browser?.close(), server?.stop()]);
});

async function adminPage(): Promise<{ context: BrowserContext; page: Page }> {
  const opened = await openPage(browser, server.url);
  await signIn(opened.page);
  await opened.page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();
  return opened;
}

function environmentRow(page: Page, name: string): Locator {
  return page.getByRole('row').filter({ has: page.getByRole('button', { name: `Update ${name}` }) });
}

/** Focuses `from`, then presses Tab: the keyboard's way to the next control. */
async function tabFrom(page: Page, from: Locator): Promise<void> {
  await from.focus();
  await page.keyboard.press('Tab');
}

/** Both widths, the page as tall as its content. */
async function screenshots(page: Page, name: string): Promise<void> {
  for (const [label, size] of [
    ['1440', DESKTOP],
    ['390', PHONE],
  ] as const) {
    await page.setViewportSize(size);
    await screenshot(page, `a-${name}-${label}`);
  }
  await page.setViewportSize(DESKTOP);
}

/** The colour picker's saturation area, in the old ColorInput's dropdown or in the field's own panel. */
function colourPicker(page: Page): Locator {
  return page.locator('.mantine-ColorPicker-saturation, .mantine-ColorInput-saturation');
}

describe('project admin deletes', () => {
  it('disables Delete of the last environment, with the reason on hover and on keyboard focus', async () => {
    const { context, page } = await adminPage();
    await page.setViewportSize(DESKTOP);
    await page.goto('/admin/projects/solo');
    await page.getByRole('heading', { name: 'Solo', level: 2 }).waitFor();
    const production = environmentRow(page, 'Production');
    const remove = production.getByRole('button', { name: 'Delete Production' });
    expect(await remove.isDisabled()).toBe(true);

    // Keyboard: Tab from Update reaches the disabled button's reason.
    await tabFrom(page, production.getByRole('button', { name: 'Update Production' }));
    const tooltip = page.getByRole('tooltip');
    await tooltip.getByText('You must have at least one environment.').waitFor();
    await screenshots(page, 'admin-last-environment');
    await page.keyboard.press('Tab');
    await tooltip.waitFor({ state: 'hidden' });

    // Mouse: hovering the button says the same, and a click opens no confirmation.
    await remove.hover({ force: true });
    await tooltip.getByText('You must have at least one environment.').waitFor();
    const requests = watchRequests(page);
    await remove.click({ force: true });
    await requests.settled();
    expect(await page.getByRole('dialog').count()).toBe(0);
    expect(requests.writes).toEqual([]);
    await context.close();
  });

  it('deletes a project only once its key is typed, and then disables Delete of the last one', async () => {
    const { context, page } = await adminPage();
    await page.setViewportSize(DESKTOP);
    await page.goto('/admin/projects/spare');
    await page.getByRole('heading', { name: 'Spare', level: 2 }).waitFor();
    await page.getByRole('button', { name: 'Delete Project' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete Project' });
    await dialog
      .getByText(
        'Delete the project "Spare"? This deletes its environments and features and cannot be undone.',
      )
      .waitFor();
    const confirmButton = dialog.getByRole('button', { name: 'Delete Project' });
    const typed = dialog.getByRole('textbox', { name: 'Type the project key spare to confirm' });
    expect(await confirmButton.isDisabled()).toBe(true);
    await typed.fill('Spare');
    expect(await confirmButton.isDisabled()).toBe(true);
    const requests = watchRequests(page);
    await typed.press('Enter');
    await requests.settled();
    expect(await dialog.isVisible()).toBe(true);
    expect(requests.writes).toEqual([]);
    await typed.fill('spare');
    expect(await confirmButton.isDisabled()).toBe(false);
    await screenshots(page, 'admin-delete-project-dialog');
    await confirmButton.click();
    await page.getByText('Project deleted.').waitFor();
    await page.waitForURL('**/admin/projects');

    // Cancelled, nothing is deleted.
    await page.goto('/admin/projects/solo');
    await page.getByRole('heading', { name: 'Solo', level: 2 }).waitFor();
    await page.getByRole('button', { name: 'Delete Project' }).click();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('heading', { name: 'Solo', level: 2 }).waitFor();

    // Only Sample Project left once Solo goes: its Delete Project is disabled, with the reason.
    await page.getByRole('button', { name: 'Delete Project' }).click();
    await dialog.getByRole('textbox', { name: 'Type the project key solo to confirm' }).fill('solo');
    await dialog.getByRole('button', { name: 'Delete Project' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('heading', { name: 'Sample Project', level: 2 }).waitFor();
    const deleteLast = page.getByRole('button', { name: 'Delete Project' });
    expect(await deleteLast.isDisabled()).toBe(true);
    await tabFrom(page, page.getByRole('button', { name: 'Update Project' }));
    await page.getByRole('tooltip').getByText('You must have at least one project.').waitFor();
    await screenshots(page, 'admin-last-project');
    await context.close();
  });
});

describe('environment colour', () => {
  it('says an invalid colour is invalid, keeps what was typed and saves nothing', async () => {
    const { context, page } = await adminPage();
    await page.setViewportSize(DESKTOP);
    await page.goto('/admin/projects/sp');
    await page.getByRole('heading', { name: 'Sample Project', level: 2 }).waitFor();
    await page.getByRole('button', { name: 'New Environment' }).click();
    const form = page.getByRole('dialog', { name: 'Create Environment' });
    await form.getByLabel('Name').fill('Blue');
    const colour = form.getByRole('textbox', { name: 'Colour' });
    await colour.fill('blue');
    await form.getByLabel('URL').click();
    await form.getByText(COLOR_MESSAGE).waitFor();
    expect(await colour.inputValue()).toBe('blue');
    const requests = watchRequests(page);
    await form.getByRole('button', { name: 'Create Environment' }).click();
    await requests.settled();
    expect(await form.isVisible()).toBe(true);
    expect(requests.writes).toEqual([]);
    await form.getByText(COLOR_MESSAGE).waitFor();
    expect(await colour.inputValue()).toBe('blue');
    await screenshots(page, 'admin-environment-invalid-colour');

    // A valid colour saves.
    await colour.fill('#2f9e44');
    await form.getByRole('button', { name: 'Create Environment' }).click();
    await page.getByText('Environment saved.').waitFor();
    await environmentRow(page, 'Blue').getByRole('img', { name: 'Colour #2f9e44' }).waitFor();
    await context.close();
  });

  it('closes the colour picker on Escape, outside click and Tab, without covering other fields', async () => {
    const { context, page } = await adminPage();
    await page.setViewportSize(DESKTOP);
    await page.goto('/admin/projects/sp');
    await page.getByRole('heading', { name: 'Sample Project', level: 2 }).waitFor();
    await page.getByRole('button', { name: 'New Environment' }).click();
    const form = page.getByRole('dialog', { name: 'Create Environment' });
    const colour = form.getByRole('textbox', { name: 'Colour' });
    const picker = colourPicker(page);

    // Open, it sits above the next field rather than over it.
    await colour.click();
    await picker.waitFor();
    const pickerBox = (await picker.boundingBox())!;
    const local = form.getByRole('checkbox', { name: 'Local environment' });
    const localBox = (await local.boundingBox())!;
    expect(pickerBox.y + pickerBox.height).toBeLessThanOrEqual(localBox.y);
    await screenshots(page, 'admin-environment-colour-picker');
    await local.check();

    // Escape closes the picker only; the modal stays.
    await colour.click();
    await picker.waitFor();
    await page.keyboard.press('Escape');
    await picker.waitFor({ state: 'hidden' });
    expect(await form.isVisible()).toBe(true);

    // A click elsewhere closes it.
    await colour.click();
    await picker.waitFor();
    await form.getByLabel('Name').click();
    await picker.waitFor({ state: 'hidden' });

    // Tab away closes it.
    await colour.click();
    await picker.waitFor();
    for (let i = 0; i < 20 && (await picker.isVisible()); i += 1) await page.keyboard.press('Tab');
    await picker.waitFor({ state: 'hidden' });
    expect(await form.isVisible()).toBe(true);
    await context.close();
  });
});

describe('target picker', () => {
  it('does not leave the target list open after "Create a new target…"', async () => {
    const { context, page } = await adminPage();
    await page.setViewportSize(DESKTOP);
    const origin = new URL(page.url()).origin;
    const created = await page.request.post(`${origin}/api/v1/projects/sp/features`, {
      data: { name: 'Picker demo', key: 'picker-demo' },
      headers: { Origin: origin },
    });
    expect(created.status()).toBe(201);
    const { key } = (await created.json()) as { key: string };
    await page.goto(`/projects/sp/environments/development/features/${key}/targeting`);
    await page.getByRole('heading', { name: 'Targeting for Development' }).waitFor();
    await page.getByRole('button', { name: 'Add rule' }).click();
    const picker = page.getByRole('combobox', { name: 'Target' }).first();
    const list = page.locator('[role="listbox"]:visible');

    for (const finish of ['create', 'cancel'] as const) {
      await picker.click();
      await picker.fill(finish === 'create' ? 'Plan' : 'Tier');
      await page.getByRole('option', { name: 'Create a new target…' }).click();
      const dialog = page.getByRole('dialog', { name: 'New target' });
      await dialog.waitFor();
      // The list closes with a transition: it is gone once that ends.
      await expect.poll(() => list.count(), { timeout: 15_000 }).toBe(0);
      if (finish === 'create') await dialog.getByRole('button', { name: 'Create target' }).click();
      else await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'detached' });
      await rendered(page);
      await expect.poll(() => list.count(), { timeout: 15_000 }).toBe(0);
    }
    expect(await picker.inputValue()).toBe('Plan');
    // The next field takes the click: nothing lies over it.
    await page.getByRole('combobox', { name: 'Operator' }).first().click({ timeout: 5000 });
    await page.getByRole('option', { name: 'equals' }).first().waitFor();
    await context.close();
  });
});
