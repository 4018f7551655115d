import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * One worker per core. Vitest's default leaves one core free for itself, which on a 2-core machine
 * means one worker; the runner's own work is small beside the tests'.
 */
const workers = availableParallelism();

/**
 * The core, server and web files share their worker's module graph instead of each importing it
 * afresh (the web suite takes 46 s instead of 106 s, the server suite on PGlite 48 s instead of 84 s).
 * The browser specs do not: sharing saved 54 s of imports a run, but the specs then share support/
 * browser.ts's saved sessions across files, and a run with it failed once (targeting.spec.ts: the New
 * target dialog never opened) where none had in soaks without it; the cause is not established.
 * It holds because no test relies on a fresh module: each builds its own app, database, query client
 * and DOM, and test-setup.ts clears what the browser keeps. Checked with the files in shuffled orders
 * (`--sequence.shuffle.files`); a test that leaks into the next one shows up there.
 */
const isolate = false;

const serverTests = ['apps/server/src/**/*.test.ts', 'apps/server/test/**/*.test.ts'];
/** Tests that need several server instances on one PostgreSQL: they exist only where PostgreSQL does. */
const postgresOnlyTests = ['apps/server/**/*.pg.test.ts'];
const serverProject = (name: string, env: Record<string, string>, extra: string[] = []) => ({
  test: {
    name,
    include: [...serverTests, ...extra],
    isolate,
    exclude: extra.length ? [] : postgresOnlyTests,
    environment: 'node' as const,
    globalSetup: ['apps/server/test/global-setup.ts'],
    env,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

const projects = [
  {
    test: {
      name: 'core',
      include: ['packages/core/src/**/*.test.ts'],
      isolate,
      environment: 'node' as const,
    },
  },
  serverProject('server', { VEXIL_TEST_DB: 'pglite' }),
  // The same suite on PostgreSQL, when CI (or a developer) provides one.
  ...(process.env.TEST_DATABASE_URL
    ? [serverProject('server-pg', { VEXIL_TEST_DB: 'pg' }, postgresOnlyTests)]
    : []),
  {
    test: {
      name: 'web',
      include: ['apps/web/src/**/*.test.{ts,tsx}'],
      environment: 'jsdom' as const,
      setupFiles: ['apps/web/src/testing/test-setup.ts'],
      isolate,
    },
  },
  {
    test: {
      name: 'e2e',
      include: ['e2e/**/*.spec.ts'],
      environment: 'node' as const,
      globalSetup: ['e2e/global-setup.ts'],
      testTimeout: 60_000,
      hookTimeout: 120_000,
      // expect.poll waits on what the page shows as long as a locator does (browser.ts's 15 s), not
      // Vitest's 1 s, which a busy machine's slower page overran.
      expect: { poll: { timeout: 15_000 } },
      // Spec files run side by side, each worker on a demo server of its own (support/shared-server.ts).
      maxWorkers: workers,
    },
  },
];

export default defineConfig({ test: { projects, maxWorkers: workers } });
