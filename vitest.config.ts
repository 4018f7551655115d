import { defineConfig } from 'vitest/config';

const projects = [
  {
    test: {
      name: 'core',
      include: ['packages/core/src/**/*.test.ts'],
      environment: 'node',
    },
  },
  {
    test: {
      name: 'server',
      include: ['apps/server/src/**/*.test.ts', 'apps/server/test/**/*.test.ts'],
      environment: 'node',
      globalSetup: ['apps/server/test/global-setup.ts'],
      testTimeout: 30_000,
      hookTimeout: 60_000,
    },
  },
  {
    test: {
      name: 'web',
      include: ['apps/web/src/**/*.test.{ts,tsx}'],
      environment: 'jsdom',
      setupFiles: ['apps/web/src/test-setup.ts'],
    },
  },
  {
    test: {
      name: 'e2e',
      include: ['e2e/**/*.spec.ts'],
      environment: 'node',
      globalSetup: ['e2e/global-setup.ts'],
      testTimeout: 60_000,
      hookTimeout: 120_000,
      fileParallelism: false,
    },
  },
];

export default defineConfig({ test: { projects } });
