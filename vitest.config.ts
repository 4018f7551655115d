import { defineConfig } from 'vitest/config';

const serverTests = ['apps/server/src/**/*.test.ts', 'apps/server/test/**/*.test.ts'];
/** Tests that need several server instances on one PostgreSQL: they exist only where PostgreSQL does. */
const postgresOnlyTests = ['apps/server/**/*.pg.test.ts'];
const serverProject = (name: string, env: Record<string, string>, extra: string[] = []) => ({
  test: {
    name,
    include: [...serverTests, ...extra],
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
      setupFiles: ['apps/web/src/test-setup.ts'],
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
      fileParallelism: false,
    },
  },
];

export default defineConfig({ test: { projects } });
