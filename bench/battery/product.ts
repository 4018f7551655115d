/**
 * The product as users run it: `npm run serve`'s command (the compiled server) in a child process on
 * loopback, started, stopped (SIGTERM), killed (SIGKILL) and restarted on the same database.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serveArguments, serveEnvironment } from '../../e2e/support/server';
import { onCpus } from './cpus';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const READY_TIMEOUT_MS = 90_000;
const STOP_TIMEOUT_MS = 20_000;

export const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

export class Product {
  readonly base: string;
  private child: ChildProcess | null = null;
  private exited: Promise<void> = Promise.resolve();
  private log: string[] = [];
  /** How the last process ended: `code 0`, `signal SIGKILL`... */
  lastExit = '';

  constructor(
    readonly port: number,
    private readonly env: Record<string, string>,
    /** A file that receives everything the process writes, for a look at what it said during a row. */
    private readonly logFile?: string,
  ) {
    this.base = `http://127.0.0.1:${port}`;
  }

  get alive(): boolean {
    return this.child !== null && this.child.exitCode === null && this.child.signalCode === null;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Resident memory of the process in MB, from /proc. */
  rssMb(): number {
    const status = readFileSync(`/proc/${this.pid}/status`, 'utf8');
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
    return kb / 1024;
  }

  /** The last lines the process wrote, for a failure's explanation. */
  tail(lines = 8): string {
    return this.log.slice(-lines).join('\n');
  }

  async start(): Promise<void> {
    if (this.alive) return;
    const inherited = { ...process.env };
    delete inherited.DATABASE_URL;
    delete inherited.DATA_DIR;
    const [command, args] = onCpus('answers', process.execPath, serveArguments());
    const child = spawn(command, args, {
      cwd: ROOT,
      env: {
        ...inherited,
        ...serveEnvironment(),
        NODE_ENV: 'production',
        HOST: '127.0.0.1',
        PORT: String(this.port),
        BASE_DOMAIN: 'localhost',
        PUBLIC_URL: `http://localhost:${this.port}`,
        VEXIL_DEMO: 'off',
        LOG_LEVEL: 'warn',
        TRUST_PROXY: 'on',
        ...this.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    const keep = (chunk: Buffer) => {
      if (this.logFile) appendFileSync(this.logFile, chunk);
      this.log.push(...chunk.toString().split('\n').filter(Boolean));
      if (this.log.length > 200) this.log = this.log.slice(-100);
    };
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    this.exited = new Promise((resolve) =>
      child.once('exit', (code, signal) => {
        this.lastExit = signal ? `signal ${signal}` : `code ${code}`;
        resolve();
      }),
    );
    const deadline = Date.now() + READY_TIMEOUT_MS;
    for (;;) {
      if (!this.alive)
        throw new Error(`the product exited before it was ready (${this.lastExit}):\n${this.tail()}`);
      try {
        const res = await fetch(`${this.base}/readyz`, { signal: AbortSignal.timeout(2000) });
        if (res.status === 200) return;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) {
        await this.kill();
        throw new Error(`the product was not ready within ${READY_TIMEOUT_MS / 1000} s:\n${this.tail()}`);
      }
      await delay(200);
    }
  }

  /** SIGTERM, as an orchestrator stops it; SIGKILL only if it hangs. Resolves true when it exited by itself. */
  async stop(): Promise<boolean> {
    if (!this.alive) return true;
    this.child!.kill('SIGTERM');
    let hung = false;
    const escalation = setTimeout(() => {
      hung = true;
      this.child?.kill('SIGKILL');
    }, STOP_TIMEOUT_MS);
    await this.exited;
    clearTimeout(escalation);
    return !hung;
  }

  async kill(): Promise<void> {
    if (!this.alive) return;
    this.child!.kill('SIGKILL');
    await this.exited;
  }
}
