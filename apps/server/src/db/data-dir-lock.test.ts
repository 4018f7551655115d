import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DataDirInUseError, lockDataDir, type DataDirLock } from './data-dir-lock';

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

let dataDir: string;
let held: DataDirLock[];
let children: ChildProcessWithoutNullStreams[];

beforeEach(() => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'vexil-lock-'));
  held = [];
  children = [];
});
afterEach(() => {
  for (const child of children)
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const lock of held) lock.release();
  rmSync(dataDir, { recursive: true, force: true });
});

/** A Node process running `source` (TypeScript, through tsx) in the server package. */
function node(source: string, env: NodeJS.ProcessEnv = {}) {
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', source], {
    cwd: serverDir,
    env: { ...process.env, ...env },
  });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  /** Resolves once the process printed `text`, or rejects with its output if it ended first. */
  const printed = (text: string) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (stdout.includes(text)) resolve();
      };
      child.stdout.on('data', check);
      void exited.then(() => reject(new Error(`Exited first. stdout: ${stdout}\nstderr: ${stderr}`)));
      check();
    });
  return { child, exited, printed, output: () => ({ stdout, stderr }) };
}

describe('the data directory lock', () => {
  it('refuses a second holder while the first lives, saying which process has it', () => {
    held.push(lockDataDir(dataDir));
    expect(() => lockDataDir(dataDir)).toThrow(DataDirInUseError);
    expect(() => lockDataDir(dataDir)).toThrow(
      `The data directory ${dataDir} (DATA_DIR) is in use by another Vexil process (pid ${process.pid}).`,
    );
  });

  it('is released when its process is killed, so the next start is not blocked', async () => {
    const holder = node(
      `import { lockDataDir } from './src/db/data-dir-lock.ts';
       lockDataDir(process.env.DATA_DIR); console.log('locked'); setInterval(() => {}, 1000);`,
      { DATA_DIR: dataDir },
    );
    await holder.printed('locked');
    expect(() => lockDataDir(dataDir)).toThrow(`(pid ${holder.child.pid})`);
    holder.child.kill('SIGKILL');
    await holder.exited;
    held.push(lockDataDir(dataDir));
  });

  it('stops a server started on a directory another process holds, with the reason', async () => {
    held.push(lockDataDir(dataDir));
    const server = node(`await import('./src/main.ts');`, {
      DATA_DIR: dataDir,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      PASSWORD_HASH_COST: 'test',
      VEXIL_DEMO: 'off',
      DATABASE_URL: '',
    });
    // Without the lock the server would open the database and come up: that ends the test too.
    const outcome = await Promise.race([
      server.exited.then((code) => ({ code })),
      server.printed('Vexil is running').then(() => ({ code: 'running' as const })),
    ]);
    expect(outcome).toEqual({ code: 1 });
    expect(server.output().stderr).toContain(
      `Vexil cannot start.\nThe data directory ${dataDir} (DATA_DIR) is in use by another Vexil process (pid ${process.pid}). Stop that process first`,
    );
  });
});
