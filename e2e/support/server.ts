import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { eq } from 'drizzle-orm';
import { openDatabase, type Database } from '../../apps/server/src/db/client';
import { COMPILED_SERVER, serveCommand } from '../../apps/server/src/runtime/settings';
import { organisations, subscriptions, users, type PlanLimits } from '../../apps/server/src/db/schema/index';
import { hashPassword } from '../../apps/server/src/lib/passwords';
import { seed } from '../../apps/server/src/seed';

/** The repository root, where the root package.json and `apps/server/dist` are. */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export const ADMIN_EMAIL = 'admin@example.com';
export const ADMIN_PASSWORD = 'e2e-admin-password';
export const DEMO_DOMAIN = 'demo';

const READY_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 15_000;

export type RunningServer = {
  url: string;
  stop: () => Promise<void>;
  /** The server process's id (benchmarks read its memory). */
  pid: number;
};

/**
 * Names the data directory that new servers copy (see prepareData). global-setup.ts makes one before
 * the spec files start and sets it here, so that their processes inherit it.
 */
export const DATA_TEMPLATE_VARIABLE = 'VEXIL_E2E_DATA_TEMPLATE';

/**
 * Creates an embedded database migrated and seeded as a server's first start would (the demo
 * organisation, its admin with ADMIN_PASSWORD). Creating PostgreSQL's files (initdb) and migrating
 * them take some 10 s of CPU; copying the result takes a few milliseconds, and every server of a run
 * starts from such a copy.
 */
export async function createDataTemplate(): Promise<string> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'vexil-e2e-template-'));
  const database = openDatabase({ kind: 'pglite', dataDir });
  try {
    await database.migrate();
    await seed(database.db, { adminPassword: ADMIN_PASSWORD, demo: true, hashCost: 'test' });
  } finally {
    await database.close();
  }
  return dataDir;
}

/**
 * A fresh data directory for one server: a copy of global-setup.ts's template when there is one (the
 * browser tests), otherwise empty for the server's first start (the benchmarks). `prepare` adds what no
 * screen can create yet (a plan, more teammates); an empty directory is migrated and seeded first.
 */
async function prepareData(prepare?: (db: Database) => Promise<void>): Promise<string> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'vexil-e2e-'));
  const template = process.env[DATA_TEMPLATE_VARIABLE];
  if (template) await cp(template, dataDir, { recursive: true });
  if (prepare) {
    const database = openDatabase({ kind: 'pglite', dataDir });
    try {
      if (!template) {
        await database.migrate();
        await seed(database.db, { adminPassword: ADMIN_PASSWORD, demo: true, hashCost: 'test' });
      }
      await prepare(database.db);
    } finally {
      await database.close();
    }
  }
  return dataDir;
}

/** Adds a user of the demo organisation who signs in with the admin's password. */
export async function addDemoUser(db: Database, email: string, authority: string): Promise<void> {
  const [organisation] = await db.select().from(organisations).where(eq(organisations.domain, DEMO_DOMAIN));
  await db.insert(users).values({
    organisationId: organisation!.id,
    email,
    firstName: 'Demo',
    lastName: authority === 'ROLE_ORGANISATION_READONLY_USER' ? 'Viewer' : 'Editor',
    passwordHash: await hashPassword(ADMIN_PASSWORD, 'test'),
    authorities: [authority],
    activated: true,
    activatedDate: new Date(),
  });
}

/** Gives the demo organisation a subscription with these plan limits. */
export async function subscribeDemo(db: Database, limits: PlanLimits): Promise<void> {
  const [organisation] = await db.select().from(organisations).where(eq(organisations.domain, DEMO_DOMAIN));
  await db.insert(subscriptions).values({ organisationId: organisation!.id, status: 'active', limits });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.unref();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The product as `npm run serve` runs it: the compiled server (`npm run build`) with the Node flags
 * and environment of apps/server/src/runtime/settings.ts, which the `serve` script reads too, so that
 * the tests and benchmarks run what users run.
 */
function serveScript(): { environment: Record<string, string>; args: string[] } {
  if (!existsSync(path.join(ROOT, COMPILED_SERVER))) {
    throw new Error(
      `${COMPILED_SERVER} is missing: the browser tests and benchmarks run the built product. Run \`npm run build\` first (\`npm run test:e2e\` does).`,
    );
  }
  const { environment, args } = serveCommand();
  return { environment, args };
}

/** Node's arguments for the product as `npm run serve` runs it (see serveScript). */
export function serveArguments(): string[] {
  return serveScript().args;
}

/** The environment the `serve` script sets for the product, the C library's memory settings. */
export function serveEnvironment(): Record<string, string> {
  return serveScript().environment;
}

/**
 * The UI flags a spec asks for, with the welcome walkthrough off unless it says otherwise: the
 * walkthrough opens over the first page of a user who never closed it, as the seeded admin has not, and
 * would cover the screens the other specs test. walkthrough.spec.ts passes `welcome-message=on`.
 */
function withWalkthroughOff(flags: string | undefined): string {
  return ['welcome-message=off', flags].filter(Boolean).join(',');
}

/** How often a start is tried again when another process took the port between choosing and binding it. */
const PORT_ATTEMPTS = 5;

/** Thrown when the server could not bind the chosen port: another process took it first. */
class PortTaken extends Error {}

/**
 * Starts the real server as `npm run serve` does (compiled, serving the built dashboard) on a free port
 * with a fresh PGlite directory and the demo organisation, and resolves once GET /readyz answers 200.
 *
 * A free port is only known free when it is probed: between the probe closing and the server binding,
 * another spec's server, an SMTP or OIDC test server, or an outgoing connection's local port can take it
 * (CI once saw `EADDRINUSE` this way). The server then exits before it is ready, saying so, and the start
 * is tried again on another port, with a fresh data directory.
 */
export async function startServer(
  env: Record<string, string> = {},
  options: { prepare?: (db: Database) => Promise<void> } = {},
): Promise<RunningServer> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(await freePort(), env, options);
    } catch (error) {
      if (!(error instanceof PortTaken) || attempt >= PORT_ATTEMPTS) throw error;
    }
  }
}

async function startOnce(
  port: number,
  env: Record<string, string>,
  options: { prepare?: (db: Database) => Promise<void> },
): Promise<RunningServer> {
  const args = serveArguments();
  const dataDir = await prepareData(options.prepare);
  const url = `http://localhost:${port}`;
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: {
      ...process.env,
      ...serveEnvironment(),
      NODE_ENV: 'production',
      PORT: String(port),
      DATA_DIR: dataDir,
      VEXIL_ADMIN_PASSWORD: ADMIN_PASSWORD,
      VEXIL_DEMO: 'on',
      BASE_DOMAIN: 'localhost',
      PUBLIC_URL: url,
      PASSWORD_HASH_COST: 'test',
      LOG_LEVEL: 'warn',
      ...env,
      VEXIL_UI_FLAGS: withWalkthroughOff(env.VEXIL_UI_FLAGS),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });

  let output = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  let exited: { code: number | null; signal: NodeJS.Signals | null } | null = null;
  const exit = new Promise<void>((resolve) => {
    child.once('exit', (code, signal) => {
      exited = { code, signal };
      resolve();
    });
  });

  const cleanUp = async () => {
    if (!exited) {
      child.kill('SIGTERM');
      // Escalate only if the graceful shutdown hangs; the timer must not outlive the child.
      const escalation = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
      await exit;
      clearTimeout(escalation);
    }
    await rm(dataDir, { recursive: true, force: true });
  };

  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (exited) {
      await cleanUp();
      const { code, signal } = exited;
      if (/EADDRINUSE/.test(stderr) && !env.PORT) {
        throw new PortTaken(`Port ${port} was taken before the server could bind it.`);
      }
      throw new Error(
        `The server exited before it was ready (code ${String(code)}, signal ${String(signal)}).\n` +
          `stderr:\n${stderr || '(empty)'}\nstdout:\n${output || '(empty)'}`,
      );
    }
    try {
      const response = await fetch(`http://127.0.0.1:${port}/readyz`, { signal: AbortSignal.timeout(2000) });
      if (response.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await cleanUp();
      throw new Error(
        `The server was not ready within ${READY_TIMEOUT_MS / 1000} s.\nstderr:\n${stderr || '(empty)'}\nstdout:\n${output || '(empty)'}`,
      );
    }
    await delay(100);
  }

  return { url, stop: cleanUp, pid: child.pid! };
}
