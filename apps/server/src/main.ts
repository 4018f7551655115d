import path from 'node:path';
import { buildApp } from './app';
import { ConfigError, loadConfig, type Config } from './config';
import { createPgliteDataDir, openDatabase } from './db/client';
import { DataDirInUseError, lockDataDir } from './db/data-dir-lock';
import { startCollector, useEmbeddedDatabaseFlags, warmUpWebAssembly } from './runtime/process';
import { seed } from './seed';

function readConfig(): Config {
  try {
    return loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`Vexil cannot start.\n${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
}

/**
 * Opens the configured database. The embedded one's directory is first locked for this process
 * alone (db/data-dir-lock.ts); then it gets its V8 flags (runtime/process.ts), before PGlite compiles
 * its WebAssembly, and its files created apart on the first start (db/client.ts).
 */
async function openConfiguredDatabase(config: Config) {
  if (config.databaseUrl) {
    return openDatabase({
      kind: 'postgres',
      url: config.databaseUrl,
      timeouts: {
        connectMs: config.databaseConnectTimeoutMs,
        statementMs: config.databaseStatementTimeoutMs,
      },
      onConnectionError: (error) =>
        process.stderr.write(
          `${JSON.stringify({ level: 50, msg: 'PostgreSQL connection lost', err: error.message })}\n`,
        ),
    });
  }
  const dataDir = path.resolve(config.dataDir);
  try {
    lockDataDir(dataDir);
  } catch (err) {
    if (!(err instanceof DataDirInUseError)) throw err;
    process.stderr.write(`Vexil cannot start.\n${err.message}\n`);
    process.exit(1);
  }
  useEmbeddedDatabaseFlags();
  await createPgliteDataDir(dataDir);
  return openDatabase({ kind: 'pglite', dataDir });
}

/**
 * `npm run serve` runs the compiled form of this file (apps/server/build.mjs) with the Node flags and
 * allocator settings of runtime/settings.ts, which says why each is there.
 */
async function main() {
  const config = readConfig();
  // Compiled before the embedded database's V8 flags are set, which would slow it (runtime/process.ts).
  await warmUpWebAssembly();
  const database = await openConfiguredDatabase(config);
  await database.migrate();
  const seeded = await seed(database.db, {
    adminPassword: config.adminPassword,
    demo: config.demo,
    hashCost: config.passwordHashCost,
  });
  const app = await buildApp({ config, database });
  if (config.databaseUrl && !config.secretsKey) {
    app.log.warn(
      `SECRETS_KEY is not set: secrets stored in the database (single sign-on client secrets, integration credentials, e-mails waiting in the queue) are encrypted with a key kept in ${path.join(config.dataDir, 'secrets.key')}, which other instances and a restored backup do not have. Set SECRETS_KEY (e.g. \`openssl rand -base64 32\`), the same on every instance.`,
    );
  }

  const stopCollector = startCollector((collection) =>
    app.log.debug(
      {
        heapUsedMiB: Math.round(collection.heapUsedBefore / 2 ** 20),
        keptMiB: Math.round(collection.heapUsedAfter / 2 ** 20),
        pauseMs: Math.round(collection.pauseMs),
      },
      'collected garbage after a burst of work',
    ),
  );

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    stopCollector();
    app.log.info({ signal }, 'shutting down');
    // Stop accepting, finish what is in flight, flush, close the database; force-exit if it hangs.
    const timer = setTimeout(() => process.exit(1), 10_000);
    timer.unref();
    app.close().then(
      () => process.exit(0),
      (err: unknown) => {
        app.log.error({ err }, 'error while shutting down');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));

  await app.listen({ host: config.host, port: config.port });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const base = new URL(config.publicUrl);
  const orgUrl = `${base.protocol}//${seeded.organisationDomain}.${config.baseDomain}:${port}`;
  const lines = [
    '',
    `  Vexil is running on ${config.databaseUrl ? 'PostgreSQL' : `PGlite (${path.resolve(config.dataDir)})`}`,
    `  Open:     ${config.publicUrl}/${seeded.organisationDomain}/login`,
    config.baseDomain === 'localhost' ? `            ${orgUrl} (organisation sub-domain)` : null,
    `  Sign in:  ${seeded.adminEmail}`,
    seeded.generatedPassword
      ? `  Password: ${seeded.generatedPassword}   (generated now and shown only once; set VEXIL_ADMIN_PASSWORD to choose it)`
      : config.adminPassword
        ? '  Password: the value of VEXIL_ADMIN_PASSWORD'
        : '  Password: the one printed at the first start (set VEXIL_ADMIN_PASSWORD to reset it)',
    `  API docs: ${config.publicUrl}/api/docs`,
    '',
  ].filter((l): l is string => l !== null);
  process.stdout.write(`${lines.join('\n')}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(
    `Vexil failed to start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
  );
  process.exit(1);
});
