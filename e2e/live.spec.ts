import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, openPage, signIn, viewShot } from './support/browser';
import { ADMIN_PASSWORD, DEMO_DOMAIN, addDemoUser, startServer, type RunningServer } from './support/server';
import { DESKTOP } from './support/api';

/*
 * The live dashboard (docs/product.md "Live updates"): what another member changes shows on an open
 * screen without a reload, and an editor's unsaved edits are kept, with a notice that offers to reload.
 */

const EDITOR = 'live-editor@example.com';

let browser: Browser;
let server: RunningServer;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  [browser, server] = await Promise.all([
    launchBrowser(),
    startServer({}, { prepare: (db) => addDemoUser(db, EDITOR, 'ROLE_ORGANISATION_EDITOR') }),
  ]);
});
afterAll(async () => {
  for (const context of contexts) await context.close();
  await Promise.all([browser?.close(), server?.stop()]);
});

/** Runs in each page before the dashboard: marks the page once a WebSocket of it is open. */
function markLiveOpen() {
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args: ConstructorParameters<typeof WebSocket>) {
      super(...args);
      this.addEventListener('open', () => ((window as unknown as { liveOpen: boolean }).liveOpen = true));
    }
  };
}

/** Waits until the page's live connection is open: a change made before then is not heard. */
async function liveConnected(page: Page): Promise<void> {
  await page.waitForFunction(() => (window as unknown as { liveOpen?: boolean }).liveOpen === true);
}

async function adminWindow(email?: string): Promise<Page> {
  const { context, page } = await openPage(browser, server.url);
  await context.addInitScript(markLiveOpen);
  contexts.push(context);
  await signIn(page, email ? { email } : {});
  await page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();
  return page;
}

/** The editor's calls, made the way their own dashboard would, from another browser. */
async function editorApi() {
  const login = await fetch(`${server.url}/api/authenticate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: EDITOR, password: ADMIN_PASSWORD, domain: DEMO_DOMAIN }),
  });
  const token = ((await login.json()) as { id_token: string }).id_token;
  return async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return (res.status === 204 ? undefined : await res.json()) as T;
  };
}

type Control = {
  id: string;
  enabled: boolean;
  offVariantKey: string;
  rules: unknown[];
  lastModifiedDate: string;
};
type Feature = {
  id: string;
  key: string;
  name: string;
  description: string;
  variants: unknown[];
  tags: string[];
  controls: Record<string, Control>;
};

describe('live dashboard', () => {
  it('shows a feature another member switches on, without a reload', async () => {
    const editor = await editorApi();
    const feature = await editor<Feature>('POST', '/api/v1/projects/sp/features', {
      name: 'Live switch',
      key: 'live-switch',
    });
    const page = await adminWindow();
    await page.goto('/projects/sp/environments/development/features');
    const toggle = page.getByRole('switch', { name: 'Live switch on in Development' });
    await toggle.waitFor();
    expect(await toggle.isChecked()).toBe(false);
    // The connection opens after the first render.
    await liveConnected(page);

    const control = feature.controls.development!;
    await editor('PUT', '/api/v1/feature-controls/', {
      id: control.id,
      enabled: true,
      offVariantKey: control.offVariantKey,
      rules: control.rules,
    });
    await expect.poll(() => toggle.isChecked(), { timeout: 10_000 }).toBe(true);
  });

  it('keeps unsaved edits when another member changes the feature, and says so with Reload', async () => {
    const editor = await editorApi();
    const feature = await editor<Feature>('POST', '/api/v1/projects/sp/features', {
      name: 'Live settings',
      key: 'live-settings',
    });
    const page = await adminWindow();
    await page.goto('/projects/sp/environments/development/features/live-settings/settings');
    // The feature's own description comes first; each variant has one too.
    const description = page.getByLabel('Description', { exact: true }).first();
    await description.waitFor();
    await liveConnected(page);
    await description.fill('My edit, not saved yet');

    await editor('PUT', '/api/v1/projects/sp/features', {
      id: feature.id,
      key: feature.key,
      name: feature.name,
      description: 'Their edit',
      variants: feature.variants,
      tags: feature.tags,
    });
    const notice = page
      .getByRole('status')
      .filter({ hasText: 'This feature was changed while you were editing' });
    await notice.waitFor({ timeout: 10_000 });
    await notice.getByText(`${EDITOR} changed its settings`, { exact: false }).waitFor();
    await notice.getByRole('button', { name: 'Reload' }).waitFor();
    expect(await description.inputValue()).toBe('My edit, not saved yet');
    await viewShot(page, 'live-change-notice-1440', 1440);
    await viewShot(page, 'live-change-notice-390', 390);
    await page.setViewportSize(DESKTOP);
  });

  it('says at once, in an open Targeting form with an edit, that another member saved the same targeting, and takes it in', async () => {
    const editor = await editorApi();
    const feature = await editor<Feature>('POST', '/api/v1/projects/sp/features', {
      name: 'Live targeting',
      key: 'live-targeting',
    });
    const page = await adminWindow();
    await page.goto('/projects/sp/environments/development/features/live-targeting/targeting');
    const enabled = page.getByRole('switch', { name: 'Targeting enabled' });
    await enabled.waitFor();
    await liveConnected(page);
    // The admin's edit: everyone else gets a 50/50 split.
    const split = page
      .getByRole('group', { name: 'Everyone else: serve' })
      .getByRole('switch', { name: 'Split' });
    await split.check({ force: true });
    await page.getByText('Total: 100 %').waitFor();

    const control = feature.controls.development!;
    await editor('PUT', `/api/v1/feature-controls/${control.id}/enabled`, {
      enabled: true,
      lastModifiedDate: control.lastModifiedDate,
    });
    const notice = page.getByRole('status').filter({ hasText: `${EDITOR} changed this targeting at` });
    await notice.waitFor({ timeout: 10_000 });
    await notice.getByText('Their changes are in the form with yours: save to keep both.').waitFor();
    await expect.poll(() => enabled.isChecked()).toBe(true);
    expect(await split.isChecked()).toBe(true);
    // The page's own notice, which offers a reload that would drop the edit, leaves this to the form.
    expect(await page.getByText('This feature was changed while you were editing').count()).toBe(0);

    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Live targeting targeting for Development saved.').last().waitFor();
  });

  it('takes a tab to sign-in when its member signs out everywhere from elsewhere', async () => {
    const page = await adminWindow(EDITOR);
    await page.goto('/projects/sp/environments/development/features');
    await liveConnected(page);
    const editor = await editorApi();
    await editor('POST', '/api/v1/account/sessions/revoke-all');
    await page.getByLabel('Password', { exact: true }).waitFor({ timeout: 10_000 });
    expect(new URL(page.url()).pathname).toMatch(/login/);
  });
});
