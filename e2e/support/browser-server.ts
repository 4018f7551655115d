import { chromium, type BrowserServer } from 'playwright-core';

/** Debian's Chromium, as the browser tests drive it, unless CHROMIUM_PATH names another. */
export const CHROMIUM_OPTIONS = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox'],
  headless: true,
};

/**
 * One Chromium for a whole run, which spec files connect to (support/browser.ts): each file still
 * gets its own connection, and its profiles (contexts) are its own, closed when it disconnects.
 */
export function launchBrowserServer(): Promise<BrowserServer> {
  return chromium.launchServer(CHROMIUM_OPTIONS);
}
