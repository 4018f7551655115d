import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../apps/server/src/db/client';
import { organisations, subscriptions } from '../apps/server/src/db/schema/index';

/*
 * `npm run billing`, the operator's plan command (README "Plans from the command line"), as built by
 * `npm run build`: compiled JavaScript run by plain Node, with no TypeScript loader
 * (docs/adr/0018-compiled-server.md), against the configured (here: embedded) database.
 */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const run = promisify(execFile);

let dataDir: string;

beforeAll(async () => {
  // PGlite admits one process: the command gets a data directory of its own.
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'vexil-cli-'));
  const database = openDatabase({ kind: 'pglite', dataDir });
  await database.migrate();
  await database.db.insert(organisations).values({ name: 'Script', domain: 'script' });
  await database.close();
});

afterAll(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

/** The environment of a run: the test's database, and no loader a parent process might pass on. */
function environment(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent' };
  delete env.NODE_OPTIONS;
  delete env.DATABASE_URL;
  return env;
}

describe('npm run billing', () => {
  it('is compiled by the build and runs with plain node', { timeout: 60_000 }, async () => {
    const { stdout } = await run(
      process.execPath,
      [
        'apps/server/dist/billing.js',
        'set-plan',
        '--organisation',
        'script',
        '--plan',
        'team',
        '--trial-days',
        '3',
      ],
      { cwd: root, env: environment() },
    );
    expect(stdout).toContain('script: Team (monthly, 1 seat(s)), in trial, 3 day(s) left');
    const database = openDatabase({ kind: 'pglite', dataDir });
    const [row] = await database.db.select().from(subscriptions);
    await database.close();
    expect(row).toMatchObject({ status: 'trialing', productName: 'Team' });
  });

  it('is what the script runs, with its exit codes', { timeout: 60_000 }, async () => {
    const { stdout } = await run('npm', ['run', '--silent', 'billing', '--', 'plans'], {
      cwd: root,
      env: environment(),
    });
    expect(stdout).toContain('local-team: Team (local-team-month 2000 cents a seat a month');
    const failed = await run(
      'npm',
      ['run', '--silent', 'billing', '--', 'show', '--organisation', 'nobody'],
      {
        cwd: root,
        env: environment(),
      },
    ).catch((error: { code: number; stderr: string }) => error);
    expect(failed).toMatchObject({ code: 1, stderr: expect.stringContaining('No organisation "nobody"') });
  });
});
