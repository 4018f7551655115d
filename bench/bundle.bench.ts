/**
 * What the dashboard's first pages cost to load: the JavaScript Chromium fetches for the sign-in
 * page, then for Home after signing in, measured from the built `apps/web/dist` served by the real
 * server. Sizes are gzipped (what a compressing server or proxy sends). The target is at most
 * 240 KB of gzipped JavaScript for sign-in plus Home; the floor printed
 * beside it is the framework runtime chunk (React, ReactDOM, the router) that any page needs.
 *
 * `npm run build` first; `npm run bench -- bundle` (`WEB_DIST=<dir>` measures another build,
 * `BUNDLE_ALL=1` lists every script instead of the largest eight).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { buildApp } from '@vexil/server/src/app';
import { loadConfig } from '@vexil/server/src/config';
import { openDatabase } from '@vexil/server/src/db/client';
import { seed } from '@vexil/server/src/seed';

const DIST = path.resolve(
  process.env.WEB_DIST ?? path.join(path.dirname(fileURLToPath(import.meta.url)), '../apps/web/dist'),
);
const TARGET_KB = 240;
const PASSWORD = 'bench-password';

const gzippedSizes = new Map<string, number>();
/** Gzipped size of a built file, by its URL path (`/assets/index-abc.js`). */
function gzipped(urlPath: string): number {
  let size = gzippedSizes.get(urlPath);
  if (size === undefined) {
    size = gzipSync(readFileSync(path.join(DIST, urlPath)), { level: 9 }).byteLength;
    gzippedSizes.set(urlPath, size);
  }
  return size;
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

async function main() {
  if (!existsSync(path.join(DIST, 'index.html'))) {
    console.log('apps/web/dist is missing: run `npm run build` first.');
    return;
  }
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'vexil-bundle-'));
  const database = openDatabase({ kind: 'pglite', dataDir });
  await database.migrate();
  await seed(database.db, { adminPassword: PASSWORD, demo: true, hashCost: 'test' });
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    PASSWORD_HASH_COST: 'test',
    WEB_DIST: DIST,
  });
  const app = await buildApp({ config, database, logger: false });
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox'],
    headless: true,
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const scripts = new Set<string>();
    page.on('response', (response) => {
      const url = new URL(response.url());
      if (url.origin === base && url.pathname.endsWith('.js')) scripts.add(url.pathname);
    });
    await page.goto(`${base}/demo/login`);
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await page.waitForLoadState('networkidle');
    const login = [...scripts];
    await page.getByLabel('Email').fill('admin@example.com');
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((url) => !url.pathname.endsWith('/login'));
    await page.waitForLoadState('networkidle');
    const home = [...scripts];

    const total = (files: string[]) => files.reduce((sum, file) => sum + gzipped(file), 0);
    const runtime = login.filter((file) => /\/react-[^/]*\.js$/.test(file));
    console.log('| page | scripts | gzipped JavaScript | target | floor: React runtime |');
    console.log('|---|---|---|---|---|');
    console.log(`| sign-in | ${login.length} | ${kb(total(login))} | | ${kb(total(runtime))} |`);
    const verdict = total(home) <= TARGET_KB * 1024 ? 'within' : '**over**';
    console.log(
      `| sign-in + Home | ${home.length} | ${kb(total(home))} | ≤ ${TARGET_KB} KB (${verdict}) | ${kb(total(runtime))} |`,
    );
    console.log('\nLargest scripts of sign-in + Home (gzipped):');
    const shown = process.env.BUNDLE_ALL ? home.length : 8;
    for (const file of [...home].sort((a, b) => gzipped(b) - gzipped(a)).slice(0, shown))
      console.log(`  ${kb(gzipped(file)).padStart(9)}  ${file}`);
  } finally {
    await browser.close();
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export const bundle = main;
