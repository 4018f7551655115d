import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Subscription } from '@vexil/core';
import { auditItems, organisations, subscriptions } from '../db/schema/index';
import { openDatabase } from '../db/client';
import { callerFor } from '../../test/api';
import { createHarness, type Harness, type TestUser } from '../../test/helpers';
import { runBillingCli } from './billing';

const DAY_MS = 24 * 60 * 60 * 1000;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

let h: Harness;
let acme: TestUser;

beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h.close();
});
beforeEach(async () => {
  await h.database.reset();
  acme = await h.createOrganisation({ domain: 'acme', name: 'Acme' });
});

async function run(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runBillingCli(argv, {
    config: h.config,
    database: h.database,
    output: { out: (line) => out.push(line), err: (line) => err.push(line) },
  });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

async function subscription(): Promise<Subscription | null> {
  const call = callerFor(h.app, await h.login(acme));
  return (await call('GET', '/api/v1/initial')).json<{ subscription: Subscription | null }>().subscription;
}

describe('npm run billing -- set-plan', () => {
  it('puts an organisation on a plan of the catalogue, active, with its limits, and says so', async () => {
    const res = await run('set-plan', '--organisation', 'acme', '--plan', 'local-team');
    expect(res).toMatchObject({ code: 0, err: '' });
    expect(res.out).toContain('acme: Team (monthly, 1 seat(s)), active');
    expect(res.out).toContain('maxProjects: 10');
    expect(await subscription()).toMatchObject({
      status: 'active',
      inTrial: false,
      price: { productName: 'Team', amount: 2000 },
      limits: { maxProjects: 10, auditLog: true },
    });
    const [entry] = await h.database.db
      .select()
      .from(auditItems)
      .where(eq(auditItems.organisationId, acme.organisationId));
    expect(entry).toMatchObject({ title: 'Plan set to Team by an instance administrator', actorId: null });
  });

  it('starts a trial of n days, or ends it now with 0 (inactive)', async () => {
    await run('set-plan', '--organisation', 'acme', '--plan', 'team', '--trial-days', '5');
    expect(await subscription()).toMatchObject({ status: 'active', inTrial: true, daysUntilEndOfTrial: 5 });
    const ended = await run('set-plan', '--organisation', 'acme', '--plan', 'team', '--trial-days', '0');
    expect(ended.out).toContain('inactive');
    expect(await subscription()).toMatchObject({ status: 'inactive', inTrial: false });
  });

  it('marks a subscription inactive or active, and moves to the Free plan', async () => {
    await run(
      'set-plan',
      '--organisation',
      'acme',
      '--plan',
      'local-team-year',
      '--status',
      'inactive',
      '--seats',
      '7',
    );
    expect(await subscription()).toMatchObject({
      status: 'inactive',
      quantity: 7,
      price: { interval: 'year' },
    });
    await run('set-plan', '--organisation', 'ACME', '--plan', 'free', '--status', 'active');
    expect(await subscription()).toMatchObject({
      status: 'active',
      quantity: 7,
      price: { productName: 'Free', amount: 0 },
      limits: { maxOrganisationUsers: 1, maxProjects: 1, maxEnvironments: 2, auditLog: false },
    });
  });

  it('keeps the provider’s ids and the billing contact', async () => {
    await h.database.db.insert(subscriptions).values({
      organisationId: acme.organisationId,
      status: 'trialing',
      trialEnd: new Date(Date.now() + 3 * DAY_MS),
      externalCustomerId: 'cus_1',
      billingEmail: 'accounts@example.com',
    });
    await run('set-plan', '--organisation', 'acme', '--plan', 'team');
    const [row] = await h.database.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.organisationId, acme.organisationId));
    expect(row).toMatchObject({
      status: 'active',
      trialEnd: null,
      externalCustomerId: 'cus_1',
      billingEmail: 'accounts@example.com',
    });
  });

  it('explains mistakes with exit codes: 2 for usage, 1 for an unknown organisation or plan', async () => {
    expect(await run('set-plan', '--organisation', 'acme')).toMatchObject({
      code: 2,
      err: expect.stringContaining('set-plan needs --organisation <domain> and --plan <productId|free>.'),
    });
    expect(
      (await run('set-plan', '--organisation', 'acme', '--plan', 'team', '--status', 'paused')).code,
    ).toBe(2);
    expect(
      (await run('set-plan', '--organisation', 'acme', '--plan', 'team', '--trial-days', 'ten')).code,
    ).toBe(2);
    expect((await run('set-plan', '--organisation', 'acme', '--plan', 'team', '--colour', 'red')).code).toBe(
      2,
    );
    expect((await run('upgrade')).code).toBe(2);
    expect(await run('set-plan', '--organisation', 'nobody', '--plan', 'team')).toEqual({
      code: 1,
      out: '',
      err: 'No organisation "nobody"',
    });
    expect(await run('set-plan', '--organisation', 'acme', '--plan', 'gold')).toEqual({
      code: 1,
      out: '',
      err: 'There is no plan "gold" (plans: free, local-team).',
    });
    expect(await subscription()).toBeNull();
  });
});

describe('npm run billing -- show and plans', () => {
  it('shows the subscription and lists the plans', async () => {
    expect((await run('show', '--organisation', 'acme')).out).toBe(
      'acme: no subscription (no plan limits apply).',
    );
    await run('set-plan', '--organisation', 'acme', '--plan', 'team', '--trial-days', '14');
    expect((await run('show', '--organisation', 'acme')).out).toContain(
      'acme: Team (monthly, 1 seat(s)), in trial, 14 day(s) left',
    );
    expect((await run('plans')).out).toBe(
      'free: Free\nlocal-team: Team (local-team-month 2000 cents a seat a month, local-team-year 19200 cents a seat a year)',
    );
  });
});

describe('the script', () => {
  it('runs with npm run billing against the configured database', { timeout: 120_000 }, async () => {
    let env: Record<string, string>;
    let cleanup = async () => {};
    let domain = 'acme';
    if (h.database.kind === 'postgres') {
      env = { DATABASE_URL: h.database.url! };
    } else {
      // PGlite admits one process: the script gets a data directory of its own.
      const dataDir = mkdtempSync(path.join(os.tmpdir(), 'vexil-cli-'));
      const database = openDatabase({ kind: 'pglite', dataDir });
      await database.migrate();
      await database.db.insert(organisations).values({ name: 'Script', domain: 'script' });
      await database.close();
      env = { DATA_DIR: dataDir };
      domain = 'script';
      cleanup = async () => rmSync(dataDir, { recursive: true, force: true });
    }
    try {
      const { stdout } = await promisify(execFile)(
        'npm',
        [
          'run',
          '--silent',
          'billing',
          '--',
          'set-plan',
          '--organisation',
          domain,
          '--plan',
          'team',
          '--trial-days',
          '3',
        ],
        { cwd: root, env: { ...process.env, ...env, LOG_LEVEL: 'silent' } },
      );
      expect(stdout).toContain(`${domain}: Team (monthly, 1 seat(s)), in trial, 3 day(s) left`);
      const failed = await promisify(execFile)(
        'npm',
        ['run', '--silent', 'billing', '--', 'show', '--organisation', 'nobody'],
        {
          cwd: root,
          env: { ...process.env, ...env },
        },
      ).catch((error: { code: number; stderr: string }) => error);
      expect(failed).toMatchObject({ code: 1, stderr: expect.stringContaining('No organisation "nobody"') });
      if (h.database.kind === 'postgres') {
        expect(await subscription()).toMatchObject({ inTrial: true, daysUntilEndOfTrial: 3 });
      } else {
        const database = openDatabase({ kind: 'pglite', dataDir: env.DATA_DIR! });
        const [row] = await database.db.select().from(subscriptions);
        await database.close();
        expect(row).toMatchObject({ status: 'trialing', productName: 'Team' });
      }
    } finally {
      await cleanup();
    }
  });
});
