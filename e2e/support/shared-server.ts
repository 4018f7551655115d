import { inject } from 'vitest';

/**
 * The address of the server this spec file shares with the files that ran before it in the same
 * worker. Files that run at the same time are in different workers (Vitest numbers them from 1 in
 * `VITEST_POOL_ID`), so they never share a server and cannot see each other's data.
 */
export function sharedServerURL(): string {
  return ofThisWorker(inject('sharedServers'))!;
}

/** The Chromium this worker's spec files connect to (see global-setup.ts), if the run started one. */
export function sharedBrowserEndpoint(): string | undefined {
  return ofThisWorker(inject('browserEndpoints') ?? []);
}

function ofThisWorker<T>(shared: readonly T[]): T | undefined {
  const worker = Number(process.env.VITEST_POOL_ID ?? '1');
  return shared.length ? shared[(Math.max(1, worker) - 1) % shared.length] : undefined;
}
