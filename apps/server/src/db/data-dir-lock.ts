import { closeSync, constants, ftruncateSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import { tryLock } from 'fs-native-extensions';

/** The file in `DATA_DIR` whose lock says a process has the embedded database open. */
export const DATA_DIR_LOCK_FILE = 'vexil.lock';

/** Another process holds the data directory; the message says which and what to do. */
export class DataDirInUseError extends Error {}

export type DataDirLock = { release(): void };

/**
 * Takes an exclusive lock on the embedded database's directory for as long as this process runs,
 * or refuses: two processes writing one PGlite directory would each acknowledge writes the other
 * then loses. The lock is the operating system's (an open-file-description lock on Linux, `flock`
 * on macOS, `LockFileEx` on Windows) on `DATA_DIR/vexil.lock`, so the kernel drops it when the
 * process ends, however it ends: a killed server leaves nothing that blocks the next start. The
 * file holds the owner's process id, for the message only.
 */
export function lockDataDir(dataDir: string): DataDirLock {
  mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, DATA_DIR_LOCK_FILE);
  const fd = openSync(file, constants.O_RDWR | constants.O_CREAT, 0o600);
  let locked = false;
  try {
    locked = tryLock(fd);
  } finally {
    if (!locked) closeSync(fd);
  }
  if (!locked) {
    const owner = readFileSync(file, 'utf8').trim();
    throw new DataDirInUseError(
      `The data directory ${dataDir} (DATA_DIR) is in use by another Vexil process${/^\d+$/.test(owner) ? ` (pid ${owner})` : ''}. Stop that process first, or give this one another DATA_DIR; to run several instances, use PostgreSQL (DATABASE_URL).`,
    );
  }
  ftruncateSync(fd, 0);
  writeSync(fd, `${process.pid}\n`, 0);
  return {
    release() {
      closeSync(fd);
    },
  };
}
