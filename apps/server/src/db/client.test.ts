import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPgliteDataDir, migrationsFolder, openDatabase } from './client';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'vexil-client-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('migrationsFolder', () => {
  it("is the server package's drizzle folder, with its journal", () => {
    expect(migrationsFolder).toBe(path.resolve(import.meta.dirname, '../../drizzle'));
    expect(existsSync(path.join(migrationsFolder, 'meta', '_journal.json'))).toBe(true);
  });
});

describe('createPgliteDataDir', () => {
  it('creates a database in a missing directory that PGlite then opens and migrates', async () => {
    const dataDir = path.join(root, 'new', 'data');
    await createPgliteDataDir(dataDir);
    expect(existsSync(path.join(dataDir, 'PG_VERSION'))).toBe(true);

    const database = openDatabase({ kind: 'pglite', dataDir });
    try {
      await database.migrate();
      const result = (await database.db.execute(
        sql`select count(*)::int as n from organisations`,
      )) as unknown as {
        rows: { n: number }[];
      };
      expect(result.rows[0]!.n).toBe(0);
    } finally {
      await database.close();
    }
  }, 60_000);

  it('leaves an existing database as it is', async () => {
    const dataDir = path.join(root, 'existing');
    await createPgliteDataDir(dataDir);
    const database = openDatabase({ kind: 'pglite', dataDir });
    try {
      await database.migrate();
    } finally {
      await database.close();
    }
    const before = await readdir(dataDir);

    const started = performance.now();
    await createPgliteDataDir(dataDir);
    expect(performance.now() - started).toBeLessThan(100);
    expect(await readdir(dataDir)).toEqual(before);
    const again = openDatabase({ kind: 'pglite', dataDir });
    try {
      const result = (await again.db.execute(
        sql`select count(*)::int as n from information_schema.tables where table_name = 'organisations'`,
      )) as unknown as { rows: { n: number }[] };
      expect(result.rows[0]!.n).toBe(1);
    } finally {
      await again.close();
    }
  }, 60_000);
});
