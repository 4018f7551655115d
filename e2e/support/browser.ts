import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  chromium,
  type Browser,
  type BrowserContext,
  type Cookie,
  type Locator,
  type Page,
  type Request as PageRequest,
} from 'playwright-core';
import { CHROMIUM_OPTIONS } from './browser-server';
import { ADMIN_EMAIL, ADMIN_PASSWORD, DEMO_DOMAIN } from './server';
import { sharedBrowserEndpoint, sharedServerURL } from './shared-server';

const SCREENSHOTS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../screenshots');

/**
 * The browser of a spec file: a connection to its worker's Chromium (global-setup.ts), or a Chromium
 * of its own where there is none (a script outside the test run). Closing a connection closes the
 * profiles the file opened and leaves the browser to the other files.
 */
export function launchBrowser(): Promise<Browser> {
  const endpoint = sharedBrowserEndpoint();
  return endpoint ? chromium.connect(endpoint) : chromium.launch(CHROMIUM_OPTIONS);
}

/** The server each profile opened by openPage is on, for the sessions signIn saves. */
const servers = new WeakMap<BrowserContext, string>();

/** A fresh browser profile (no cookies, no storage) on the given server. */
export async function openPage(
  browser: Browser,
  baseURL: string,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL, viewport: { width: 1280, height: 800 } });
  servers.set(context, baseURL);
  context.setDefaultTimeout(15_000);
  const page = await context.newPage();
  return { context, page };
}

type Credentials = { email?: string; password?: string };

/** Signs in as the demo admin (or `email`) the way a user does, typing the form at /demo/login. */
export async function signInWithForm(page: Page, options: Credentials = {}): Promise<void> {
  await page.goto(`/${DEMO_DOMAIN}/login`);
  await page.getByLabel('Email').fill(options.email ?? ADMIN_EMAIL);
  await page.getByLabel('Password', { exact: true }).fill(options.password ?? ADMIN_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/**
 * The session cookies of the users this spec file signed in, by server and credentials: the storage
 * state the next profile that signs the same user in starts from.
 */
const savedSessions = new Map<string, Cookie[]>();

/**
 * Signs the demo admin (or `email`) in and opens `at` (Home by default), as after the form. The
 * session comes from the API (POST /api/authenticate sets the session cookie, as the form's request
 * does) and is saved for the spec file's next profiles: a test signs in without loading and typing
 * the form, and a file signs a user in once, well under the sign-in route's limit of 20 a minute. A
 * saved session that a test ended (Log Out, a password reset) is replaced by a new one. The form
 * itself is tested in login.spec.ts and session.spec.ts (signInWithForm).
 */
export async function signIn(page: Page, options: Credentials & { at?: string } = {}): Promise<void> {
  const context = page.context();
  const email = options.email ?? ADMIN_EMAIL;
  const password = options.password ?? ADMIN_PASSWORD;
  const key = `${servers.get(context) ?? ''} ${email} ${password}`;
  const saved = savedSessions.get(key);
  let signedIn = false;
  if (saved) {
    await context.addCookies(saved);
    signedIn = (await context.request.get('/api/v1/initial')).ok();
  }
  if (!signedIn) {
    const response = await context.request.post('/api/authenticate', {
      data: { username: email, password, domain: DEMO_DOMAIN },
    });
    if (!response.ok()) {
      throw new Error(`Signing ${email} in failed: ${response.status()} ${await response.text()}`);
    }
    // The form's page also remembers the organisation for the bare app address, in a cookie of its
    // own (apps/web/src/lib/remembered-organisation.ts): Log Out then leads back to its sign-in.
    const url = servers.get(context) ?? response.url();
    await context.addCookies([{ name: 'subdomain', value: DEMO_DOMAIN, url, sameSite: 'Lax' }]);
    savedSessions.set(key, await context.cookies());
  }
  await page.goto(options.at ?? '/');
}

/**
 * Opens the profile menu from its button, as a user does, and returns it once it has the focus.
 * The menu takes the focus when its opening transition begins, and Escape closes it only from
 * inside: a key pressed before then goes to the button.
 */
export async function openAccountMenu(page: Page): Promise<Locator> {
  await page.getByRole('button', { name: /Account menu/ }).click();
  const menu = page.getByRole('menu');
  await menu.waitFor();
  await hasFocusWithin(menu);
  return menu;
}

/** Waits until the focus is on `element` or inside it. */
export async function hasFocusWithin(element: Locator): Promise<void> {
  const handle = await element.elementHandle();
  await element.page().waitForFunction((node) => node?.contains(document.activeElement), handle);
}

/** Closes the open menu with Escape, as a keyboard user does, and waits until it has gone. */
export async function escapeMenu(page: Page): Promise<void> {
  const menu = page.getByRole('menu');
  await hasFocusWithin(menu);
  await page.keyboard.press('Escape');
  await menu.waitFor({ state: 'hidden' });
}

/**
 * Waits until the browser has drawn two more frames: what the last action changed on the screen (a
 * click's re-render, a dialog's mounting) has been rendered. For asserting that something did not
 * appear, instead of a fixed wait; what comes from the server is awaited by its response.
 */
export async function rendered(page: Page): Promise<void> {
  await page.evaluate(async () => {
    for (let frame = 0; frame < 2; frame++) {
      await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
    }
  });
}

/**
 * Watches the page's requests from now on. `writes` lists the API writes it sends (any method but GET,
 * as `METHOD /path`); `settled()` waits until no request is in flight and two frames have been drawn
 * after the last one ended. A test that a click changed or saved nothing asserts after settled(): the
 * click's checks with the server have answered and their outcome is on the screen, with no fixed wait.
 */
export function watchRequests(page: Page): { writes: string[]; settled: () => Promise<void> } {
  const writes: string[] = [];
  const inFlight = new Set<PageRequest>();
  let ended: () => void = () => {};
  page.on('request', (request) => {
    inFlight.add(request);
    const url = new URL(request.url());
    if (request.method() !== 'GET' && url.pathname.includes('/api/')) {
      writes.push(`${request.method()} ${url.pathname}`);
    }
  });
  const end = (request: PageRequest) => {
    inFlight.delete(request);
    if (inFlight.size === 0) ended();
  };
  page.on('requestfinished', end);
  page.on('requestfailed', end);
  const settled = async () => {
    for (;;) {
      await rendered(page);
      if (inFlight.size === 0) return;
      await new Promise<void>((resolve) => (ended = resolve));
    }
  };
  return { writes, settled };
}

/**
 * Waits until the screen is finished for a picture: the fonts are loaded and two frames have been
 * drawn, so what the last step set off (a re-render after a resize, a transition's start) has begun.
 * The picture then ends running transitions and animations itself (`animations: 'disabled'`), instead
 * of a fixed wait for them.
 */
async function settle(page: Page): Promise<void> {
  await page.evaluate(() => document.fonts.ready);
  await rendered(page);
}

export async function screenshot(page: Page, name: string): Promise<void> {
  await mkdir(SCREENSHOTS, { recursive: true });
  await settle(page);
  await page.screenshot({
    path: path.join(SCREENSHOTS, `${name}.png`),
    fullPage: true,
    animations: 'disabled',
  });
}

/** What the screen shows at `width` (not the whole page: what is in view is the point). */
export async function viewShot(page: Page, name: string, width: number): Promise<void> {
  await page.setViewportSize({ width, height: width < 600 ? 844 : 900 });
  await mkdir(SCREENSHOTS, { recursive: true });
  await settle(page);
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), animations: 'disabled' });
}

/**
 * One browser per spec file and a fresh profile per test: registers the hooks and exposes the
 * current page and context (read them inside tests, after the hooks ran).
 */
export function useFreshPage(): { readonly page: Page; readonly context: BrowserContext } {
  let browser: Browser;
  const current = {} as { page: Page; context: BrowserContext };
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser.close();
  });
  beforeEach(async () => {
    Object.assign(current, await openPage(browser, sharedServerURL()));
  });
  afterEach(async () => {
    await current.context.close();
  });
  return current;
}
