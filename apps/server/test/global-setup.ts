import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { openDatabase } from '../src/db/client';
import { TEMPLATE_DATABASE, testDatabaseKind, withDatabase } from './database-url';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteDumpPath: string;
  }
}

let tmpDir: string | null = null;

/** Migrates once per run: a PGlite data-dir dump (PGlite) or a template database (PostgreSQL). */
export async function setup(project: TestProject) {
  // The project's `env` reaches the test workers, not this process: read it from the project.
  if (testDatabaseKind(project.config.env?.VEXIL_TEST_DB) === 'pg') {
    const url = process.env.TEST_DATABASE_URL!;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${TEMPLATE_DATABASE} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${TEMPLATE_DATABASE}`);
    await admin.end();
    const handle = openDatabase({ kind: 'postgres', url: withDatabase(url, TEMPLATE_DATABASE), max: 1 });
    await handle.migrate();
    await handle.close();
    project.provide('pgliteDumpPath', '');
    return;
  }
  const client = new PGlite();
  const handle = openDatabase({ kind: 'pglite', client });
  await handle.migrate();
  const dump = await client.dumpDataDir('none');
  tmpDir = mkdtempSync(path.join(os.tmpdir(), 'vexil-test-'));
  const dumpPath = path.join(tmpDir, 'migrated.tar');
  writeFileSync(dumpPath, Buffer.from(await dump.arrayBuffer()));
  await handle.close();
  project.provide('pgliteDumpPath', dumpPath);
}

export async function teardown() {
  if (tmpDir) rmSync(tmpDir, { recursive: true, force: true });
}
