import path from 'node:path';
import v8 from 'node:v8';
import { buildApp } from './app';
import { ConfigError, loadConfig, type Config } from './config';
import { createPgliteDataDir, openDatabase, PGLITE_V8_FLAGS } from './db/client';
import { DataDirInUseError, lockDataDir } from './db/data-dir-lock';
import { compactingCollection, startIdleCollector } from './lib/idle-collector';
import { serverEvaluator } from './lib/sha1';
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
 * alone (db/data-dir-lock.ts); then it gets its V8 flags, before PGlite compiles its WebAssembly,
 * and its files created apart on the first start (both in db/client.ts).
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
  v8.setFlagsFromString(PGLITE_V8_FLAGS.join(' '));
  await createPgliteDataDir(dataDir);
  return openDatabase({ kind: 'pglite', dataDir });
}

/**
 * `npm run serve` runs the compiled form of this file (apps/server/build.mjs) as
 * `MALLOC_ARENA_MAX=2 MALLOC_TRIM_THRESHOLD_=131072 MALLOC_MMAP_THRESHOLD_=131072 node
 * --max-semi-space-size=4 --heap-growing-percent=50 --gc-memory-reducer-start-delay-ms=1000
 * --expose-gc apps/server/dist/main.js` (`npm run bench -- sdk memory` for every figure below):
 *
 * - The C library's allocator (glibc; other systems ignore these variables) keeps at most two arenas
 *   instead of eight a core, and gives freed memory back past 128 KiB instead of a threshold that
 *   grows up to 64 MiB as large blocks are freed. Native memory freed after the SDK load rows
 *   (sockets, parsers, the embedded database's buffers) had stayed resident: with 10,000 SSE streams
 *   open after those rows, 280 MiB with these settings, 303 without; after the whole bench 198 and 214;
 *   the SDK rows within their run-to-run spread.
 * - Young-generation halves of at most 4 MiB instead of 16. Start-up's allocations grow them to
 *   their limit, which stays resident until V8's idle memory reducer shrinks them: at 16 MiB about
 *   15 MiB of the idle server's memory. At 8 MiB, 200 flags evaluated for a new user on each JS client
 *   or OFREP request ran a tenth faster, but the idle server on PostgreSQL went past its 120 MiB
 *   target; the other SDK figures and event ingestion were the same at 4, 8 and 16.
 * - The old generation is collected when it reaches 1.5 times what the last full collection kept,
 *   instead of V8's own factor of up to 4: under the SDK load rows, garbage promoted from in-flight
 *   requests had grown the heap to 125 MiB used for 43 MiB live.
 * - V8's memory reducer makes its first check 1 s after start instead of 8, so that the garbage
 *   of migrations and the seed is returned before the server is first looked at idle. Its later
 *   checks still come 8 s after each full collection.
 * - `gc` is exposed for the idle collector (lib/idle-collector.ts), which collects as soon as the
 *   event loop has been idle for a second after a burst grew the heap: the garbage of closing 10,000
 *   SSE streams was still resident 2 s later without it (resident memory after the SDK bench:
 *   323–326 MiB without it, 215–257 MiB with it).
 */
async function main() {
  const config = readConfig();
  // Compiled before the embedded database's V8 flags are set, which would slow it (lib/sha1.ts).
  await serverEvaluator();
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
      `SECRETS_KEY is not set: secrets stored in the database (single sign-on client secrets) are encrypted with a key kept in ${path.join(config.dataDir, 'secrets.key')}, which other instances and a restored backup do not have. Set SECRETS_KEY (e.g. \`openssl rand -base64 32\`), the same on every instance.`,
    );
  }

  const stopCollector = startIdleCollector(compactingCollection(globalThis.gc), (collection) =>
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
