/**
 * The instance administrator's billing commands (docs/adr/0016-billing-providers.md), run with the
 * server's configuration and database:
 *
 *   npm run billing -- set-plan --organisation <domain> --plan <productId|free> [--trial-days n]
 *                      [--status active|inactive] [--seats n]
 *   npm run billing -- show --organisation <domain>
 *   npm run billing -- plans
 *
 * With the embedded PGlite database, stop Vexil first: one process at a time may open its files.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { formatLimit, LIMIT_KEYS, type Subscription } from '@vexil/core';
import { ConfigError, loadConfig, type Config } from '../config';
import { openDatabase, type DatabaseHandle } from '../db/client';
import { DataDirInUseError, lockDataDir } from '../db/data-dir-lock';
import { AppError } from '../errors';
import { createAuditService } from '../modules/audit/audit.service';
import { createBillingAccountService } from '../modules/billing/billing-account.service';
import { createBillingService } from '../modules/billing/billing.service';
import { createBillingProvider } from '../modules/billing/providers/index';
import { createSubscriptionsService } from '../modules/subscriptions/subscriptions.service';
import { createTeamService } from '../modules/team/team.service';
import { FREE_PLAN_ID } from '../plans/catalogue';

export const USAGE = `Usage:
  npm run billing -- set-plan --organisation <domain> --plan <productId|free> [--trial-days <n>] [--status active|inactive] [--seats <n>]
  npm run billing -- show --organisation <domain>
  npm run billing -- plans

set-plan puts the organisation on the plan at once (active), or starts a trial of it for --trial-days
days (0 ends it now), or with --status inactive stops changes until a plan is bought. Plans are the
ids \`plans\` lists (local-team, or team) and free.`;

export type Output = { out(line: string): void; err(line: string): void };

/** A usage mistake: the message and the usage, exit code 2. */
class UsageError extends Error {}

function wholeNumber(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new UsageError(`--${name} must be a whole number, not "${value}".`);
  return Number(value);
}

function describe(domain: string, subscription: Subscription | null): string[] {
  if (!subscription) return [`${domain}: no subscription (no plan limits apply).`];
  const price = subscription.price;
  const plan = price
    ? `${price.productName} (${price.interval === 'year' ? 'yearly' : 'monthly'}, ${subscription.quantity} seat(s))`
    : 'no plan';
  const state = subscription.inTrial
    ? `in trial, ${subscription.daysUntilEndOfTrial} day(s) left`
    : subscription.status;
  const limits = LIMIT_KEYS.map((key) => {
    const value = subscription.limits[key];
    return `  ${key}: ${typeof value === 'boolean' ? (value ? 'yes' : 'no') : formatLimit(value)}`;
  });
  return [`${domain}: ${plan}, ${state}`, ...limits];
}

/** Runs one command against an open database; answers the exit code. */
export async function runBillingCli(
  argv: readonly string[],
  deps: { config: Config; database: DatabaseHandle; output: Output; now?: () => Date },
): Promise<number> {
  const { config, database, output } = deps;
  const [command, ...rest] = argv;
  try {
    const { values } = parseArgs({
      args: [...rest],
      options: {
        organisation: { type: 'string' },
        plan: { type: 'string' },
        'trial-days': { type: 'string' },
        status: { type: 'string' },
        seats: { type: 'string' },
      },
      strict: true,
      allowPositionals: false,
    });
    const db = database.db;
    const clock = deps.now ? { now: deps.now } : {};
    const subscriptions = createSubscriptionsService({ db });
    const billing = createBillingService({
      subscriptions,
      // The command works whatever the dashboard's billing flag.
      uiFlags: { ...config.uiFlags, billing: true },
      catalogue: config.billing.catalogue,
      trialDays: config.billing.trialDays,
      ...clock,
    });
    const audit = createAuditService({ db, plan: billing, members: createTeamService({ db }), ...clock });
    const account = createBillingAccountService({
      db,
      audit,
      billing,
      subscriptions,
      provider: createBillingProvider(config.billing),
      catalogue: config.billing.catalogue,
      uiFlags: { ...config.uiFlags, billing: true },
      publicUrl: config.publicUrl,
      baseDomain: config.baseDomain,
      logger: { warn: (_details, message) => output.err(message) },
      ...clock,
    });
    switch (command) {
      case 'plans': {
        output.out(`${FREE_PLAN_ID}: ${config.billing.catalogue.free.name}`);
        for (const plan of config.billing.catalogue.plans)
          output.out(
            `${plan.id}: ${plan.name} (${Object.entries(plan.prices)
              .map(([interval, price]) => `${price.id} ${price.amount} cents a seat a ${interval}`)
              .join(', ')})`,
          );
        return 0;
      }
      case 'show': {
        if (!values.organisation) throw new UsageError('show needs --organisation <domain>.');
        const shown = await account.subscriptionOf(values.organisation);
        for (const line of describe(shown.organisation, shown.subscription)) output.out(line);
        return 0;
      }
      case 'set-plan': {
        if (!values.organisation || !values.plan)
          throw new UsageError('set-plan needs --organisation <domain> and --plan <productId|free>.');
        const status = values.status;
        if (status !== undefined && status !== 'active' && status !== 'inactive')
          throw new UsageError(`--status must be active or inactive, not "${status}".`);
        const trialDays = wholeNumber('trial-days', values['trial-days']);
        if (trialDays !== undefined && status !== undefined)
          throw new UsageError('Give --trial-days or --status, not both.');
        const seats = wholeNumber('seats', values.seats);
        if (seats === 0) throw new UsageError('--seats must be at least 1.');
        const result = await account.setPlan({
          organisation: values.organisation,
          plan: values.plan,
          ...(trialDays === undefined ? {} : { trialDays }),
          ...(status === undefined ? {} : { status }),
          ...(seats === undefined ? {} : { seats }),
        });
        for (const line of describe(result.organisation, result.subscription)) output.out(line);
        return 0;
      }
      default:
        throw new UsageError(command ? `Unknown command "${command}".` : 'No command given.');
    }
  } catch (error) {
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      output.err((error as Error).message);
      output.err(USAGE);
      return 2;
    }
    if (error instanceof AppError) {
      output.err(error.detail ?? error.title);
      return 1;
    }
    throw error;
  }
}

/** The embedded database, unless a running server holds its directory (db/data-dir-lock.ts). */
function openEmbedded(dataDir: string) {
  try {
    lockDataDir(dataDir);
  } catch (error) {
    if (!(error instanceof DataDirInUseError)) throw error;
    process.stderr.write(`${error.message}\n`);
    return null;
  }
  return openDatabase({ kind: 'pglite', dataDir });
}

async function main(): Promise<number> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      return 1;
    }
    throw error;
  }
  const database = config.databaseUrl
    ? openDatabase({
        kind: 'postgres',
        url: config.databaseUrl,
        max: 2,
        timeouts: {
          connectMs: config.databaseConnectTimeoutMs,
          statementMs: config.databaseStatementTimeoutMs,
        },
      })
    : openEmbedded(path.resolve(config.dataDir));
  if (!database) return 1;
  try {
    await database.migrate();
    return await runBillingCli(process.argv.slice(2), {
      config,
      database,
      output: {
        out: (line) => process.stdout.write(`${line}\n`),
        err: (line) => process.stderr.write(`${line}\n`),
      },
    });
  } finally {
    await database.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exit(1);
    },
  );
}
