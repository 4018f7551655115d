import { rm } from 'node:fs/promises';
import type { TestProject } from 'vitest/node';
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
  }
}

let servers: RunningServer[] = [];
let template: string | undefined;

export async function setup(project: TestProject): Promise<void> {
  // Made before the workers start, which inherit the variable: every server of the run copies it.
  template = await createDataTemplate();
  process.env[DATA_TEMPLATE_VARIABLE] = template;
  const count = Math.max(1, Number(project.config.maxWorkers) || 1);
  servers = await Promise.all(Array.from({ length: count }, () => startServer()));
  project.provide(
    'sharedServers',
    servers.map((server) => server.url),
  );
}

export async function teardown(): Promise<void> {
  await Promise.all(servers.map((server) => server.stop()));
  if (template) await rm(template, { recursive: true, force: true });
}
