import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { launchBrowser, openPage, screenshot, signIn, watchRequests } from './support/browser';
import { ADMIN_EMAIL, ADMIN_PASSWORD, DEMO_DOMAIN, startServer, type RunningServer } from './support/server';

/*
 * The key a new feature gets is the key its form shows before Create (docs/product.md §5 "Feature"):
 * following the name it is made unique in the project as the user types; typed, it is normalised as
 * typed; a taken key is refused, never changed on the way. A server of its own, whose project "Cards"
 * holds only this spec's features.
 */

let browser: Browser;
let server: RunningServer;
let keysOf: () => Promise<string[]>;

beforeAll(async () => {
  [browser, server] = await Promise.all([launchBrowser(), startServer()]);
  const login = await fetch(`${server.url}/api/authenticate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: ADMIN_EMAIL, password: ADMIN_PASSWORD, domain: DEMO_DOMAIN }),
  });
  const { id_token: token } = (await login.json()) as { id_token: string };
  const api = (method: string, path: string, body?: unknown) =>
    fetch(`${server.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  expect((await api('POST', '/api/v1/projects', { name: 'Cards', key: 'cards' })).status).toBe(201);
  // The first "Card freeze": the features below are the second and later ones.
  const first = await api('POST', '/api/v1/projects/cards/features', {
    name: 'Card freeze',
    key: 'card-freeze',
  });
  expect(first.status).toBe(201);
  keysOf = async () => {
    const res = await api('GET', '/api/v1/projects/cards/features');
    return ((await res.json()) as { key: string }[]).map((feature) => feature.key).sort();
  };
});
afterAll(async () => {
  await Promise.all([browser?.close(), server?.stop()]);
});

async function signedIn(): Promise<Page> {
  const { context, page } = await openPage(browser, server.url);
  onTestFinished(() => context.close());
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page);
  await page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();
  return page;
}

const LIST = '/projects/cards/environments/development/features';
const textbox = (scope: Locator, name: string) => scope.getByRole('textbox', { name, exact: true });

async function newFeatureDialog(page: Page): Promise<Locator> {
  await page.goto(LIST);
  await page.getByRole('button', { name: 'New Feature' }).click();
  return page.getByRole('dialog', { name: 'New feature' });
}

/** The dialog at 1440 px and at 390 px; the page is left at 1440 px. */
async function pictures(page: Page, name: string): Promise<void> {
  await screenshot(page, `${name}-desktop`);
  await page.setViewportSize({ width: 390, height: 844 });
  await screenshot(page, `${name}-phone`);
  await page.setViewportSize({ width: 1440, height: 900 });
}

describe('the key of a new feature', () => {
  it('is, for a second "Card freeze", the unique key shown before Create, and is created as shown', async () => {
    const page = await signedIn();
    const dialog = await newFeatureDialog(page);
    await textbox(dialog, 'Name').fill('Card freeze');
    await expect.poll(() => textbox(dialog, 'Key').inputValue()).toBe('card-freeze1');
    await pictures(page, 'feature-key-unique');
    await dialog.getByRole('button', { name: 'Create Feature' }).click();
    await page.getByText('Card freeze saved.', { exact: true }).last().waitFor();
    await page.waitForURL(`**${LIST}/card-freeze1`);
    expect(await keysOf()).toEqual(['card-freeze', 'card-freeze1']);

    // The Create feature page shows and creates the next one the same way.
    await page.goto('/features/create?project=cards');
    const form = page.getByRole('form', { name: 'Create feature' });
    await textbox(form, 'Name').fill('Card freeze');
    await expect.poll(() => textbox(form, 'Key').inputValue()).toBe('card-freeze2');
    await form.getByRole('button', { name: 'Create Feature' }).click();
    await page.waitForURL('**/projects/cards/environments/*/features/card-freeze2');
    expect(await keysOf()).toEqual(['card-freeze', 'card-freeze1', 'card-freeze2']);
  });

  it('is shown normalised as it is typed, and created as shown', async () => {
    const page = await signedIn();
    const dialog = await newFeatureDialog(page);
    await textbox(dialog, 'Name').fill('Spaces');
    const key = textbox(dialog, 'Key');
    await key.fill('');
    await key.pressSequentially('Bad Key With Spaces');
    expect(await key.inputValue()).toBe('bad-key-with-spaces');
    await key.pressSequentially('!!');
    // The separator just typed waits for a next word; leaving the field drops it.
    expect(await key.inputValue()).toBe('bad-key-with-spaces-');
    await key.press('Tab');
    expect(await key.inputValue()).toBe('bad-key-with-spaces');
    await dialog.getByRole('button', { name: 'Create Feature' }).click();
    await page.waitForURL(`**${LIST}/bad-key-with-spaces`);
    expect(await keysOf()).toContain('bad-key-with-spaces');
  });

  it('is refused while taken, with the free key offered, and nothing is created meanwhile', async () => {
    const page = await signedIn();
    const before = await keysOf();
    const dialog = await newFeatureDialog(page);
    await textbox(dialog, 'Name').fill('Another freeze');
    const key = textbox(dialog, 'Key');
    await key.fill('');
    await key.pressSequentially('Card freeze');
    await dialog
      .getByText('A feature with the key "card-freeze" already exists in this project.', { exact: false })
      .waitFor();
    // card-freeze, card-freeze1, … are taken: the next number is free.
    const free = `card-freeze${before.filter((taken) => /^card-freeze\d*$/.test(taken)).length}`;
    const offer = dialog.getByRole('button', { name: `Use ${free}` });
    await offer.waitFor();
    await pictures(page, 'feature-key-taken');
    const requests = watchRequests(page);
    await dialog.getByRole('button', { name: 'Create Feature' }).click();
    // Refused in the dialog once its check of the key has answered: nothing is created.
    await requests.settled();
    expect(await dialog.isVisible()).toBe(true);
    expect(requests.writes).toEqual([]);
    expect(await keysOf()).toEqual(before);

    await offer.click();
    expect(await key.inputValue()).toBe(free);
    await dialog.getByRole('button', { name: 'Create Feature' }).click();
    await page.waitForURL(`**${LIST}/${free}`);
    expect(await keysOf()).toEqual([...before, free].sort());
  });
});
