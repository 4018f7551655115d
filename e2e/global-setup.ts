import { rm } from 'node:fs/promises';
import type { TestProject } from 'vitest/node';
import type { BrowserServer } from 'playwright-core';
import { launchBrowserServer } from './support/browser-server';
import {
  createDataTemplate,
  DATA_TEMPLATE_VARIABLE,
  startServer,
  type RunningServer,
} from './support/server';

declare module 'vitest' {
  export interface ProvidedContext {
    /**
     * Addresses of the servers the e2e specs share (default configuration, demo organisation), one for
     * each worker that runs spec files side by side (see support/shared-server.ts).
     */
    sharedServers: string[];
    /**
     * The WebSocket addresses of the Chromiums the spec files connect to, one per worker as with the
     * servers (the clipboard, which three specs read, is the browser's own): launching one per file
     * cost a second or two of CPU each, some 40 s of a run.
     */
    browserEndpoints: string[];
  }
}

let servers: RunningServer[] = [];
let template: string | undefined;
let browsers: BrowserServer[] = [];

export async function setup(project: TestProject): Promise<void> {
  // Made before the workers start, which inherit the variable: every server of the run copies it.
  template = await createDataTemplate();
  process.env[DATA_TEMPLATE_VARIABLE] = template;
  const count = Math.max(1, Number(project.config.maxWorkers) || 1);
  [browsers, servers] = await Promise.all([
    Promise.all(Array.from({ length: count }, () => launchBrowserServer())),
    Promise.all(Array.from({ length: count }, () => startServer())),
  ]);
  project.provide(
    'browserEndpoints',
    browsers.map((browser) => browser.wsEndpoint()),
  );
  project.provide(
    'sharedServers',
    servers.map((server) => server.url),
  );
}

export async function teardown(): Promise<void> {
  await Promise.all([
    ...servers.map((server) => server.stop()),
    ...browsers.map((browser) => browser.close()),
  ]);
  if (template) await rm(template, { recursive: true, force: true });
}
