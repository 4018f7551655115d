import type { TestProject } from 'vitest/node';
import { startServer, type RunningServer } from './support/server';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Address of the server shared by the e2e specs (default configuration, demo organisation). */
    baseURL: string;
  }
}

let server: RunningServer | undefined;

export async function setup(project: TestProject): Promise<void> {
  server = await startServer();
  project.provide('baseURL', server.url);
}

export async function teardown(): Promise<void> {
  await server?.stop();
}
