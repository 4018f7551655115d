import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { Page } from 'playwright-core';
import { DESKTOP, adminApi } from './support/api';
import { signIn, useFreshPage, viewShot } from './support/browser';
import { sharedServerURL } from './support/shared-server';

/*
 * The Tutorial (docs/product.md §2 "Tutorial", §4): a feature is created in step 1; the code of step 2
 * is the published Featureflow Node SDK filled in with this server's address and the environment's
 * server key, and once it runs for real (as `node`, outside the browser) the page moves to step 3 by
 * itself. The Java and Go programs are checked against their SDKs by the web app's unit tests.
 */

const t = useFreshPage();
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// The published SDK is installed for the server's own tests of it; the program finds it there.
const SDK_PACKAGE = createRequire(path.join(ROOT, 'apps/server/package.json')).resolve(
  'featureflow-node-sdk/package.json',
);
const NODE_MODULES = path.dirname(path.dirname(SDK_PACKAGE));

const TUTORIAL = '/projects/sp/environments/development/tutorial';

/** Both widths of the screen as it is, then back to the desktop. */
async function shots(page: Page, name: string): Promise<void> {
  await viewShot(page, `${name}-1440`, 1440);
  await viewShot(page, `${name}-390`, 390);
  await page.setViewportSize(DESKTOP);
}

const stepHeading = (page: Page, text: string) => page.getByRole('heading', { level: 2, name: text });

/** Runs `code` as a Node program in a folder of its own; stopped and removed when the test ends. */
async function runNode(code: string): Promise<{ child: ChildProcess; output: () => string }> {
  const folder = await mkdtemp(path.join(tmpdir(), 'vexil-tutorial-'));
  await writeFile(path.join(folder, 'tutorial.js'), code);
  const child = spawn(process.execPath, ['tutorial.js'], {
    cwd: folder,
    env: { ...process.env, NODE_PATH: NODE_MODULES },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  onTestFinished(async () => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    await rm(folder, { recursive: true, force: true });
  });
  return { child, output: () => output };
}

describe('Tutorial', () => {
  it('creates a feature, gives working Node code, and moves to step 3 once that code has run', async () => {
    const base = sharedServerURL();
    const api = await adminApi(base);
    const environment = await api<{ apiKey: string }>('GET', '/api/v1/environments/sp/development');
    const { page } = t;
    await page.setViewportSize(DESKTOP);
    await signIn(page);
    await page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();
    await page.goto('/projects/sp/environments/development/features');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Tutorial' }).click();
    await page.getByRole('heading', { name: 'Tutorial', level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe(TUTORIAL);

    // Step 1: a feature of the sample project, created here.
    await stepHeading(page, 'Step 1: Create a feature').waitFor();
    await page.getByRole('textbox', { name: 'Name' }).fill('Tutorial banner');
    await expect.poll(() => page.getByRole('textbox', { name: 'Key' }).inputValue()).toBe('tutorial-banner');
    await shots(page, 'tutorial-step1');
    await page.getByRole('button', { name: 'Create feature' }).click();

    // Step 2, in Java first, then Go and NodeJS: each program is filled in with this server and the key.
    await stepHeading(page, 'Step 2: Evaluate it').waitFor();
    const program = (language: string) => page.getByRole('region', { name: `${language} program` });
    await program('Java').getByText(`FeatureflowClient.builder("${environment.apiKey}")`).waitFor();
    expect(await program('Java').textContent()).toContain(`String vexil = "${base}";`);
    await shots(page, 'tutorial-step2-java');
    await page.getByText('Go', { exact: true }).click();
    await program('Go').getByText(`BaseURL: "${base}",`).waitFor();
    await shots(page, 'tutorial-step2-go');
    await page.getByText('NodeJS', { exact: true }).click();
    await program('NodeJS').waitFor();
    expect(await page.getByRole('region', { name: 'NodeJS install' }).textContent()).toBe(
      'npm install featureflow-node-sdk',
    );
    const code = (await program('NodeJS').textContent()) ?? '';
    expect(code).toContain(`apiKey: '${environment.apiKey}',`);
    expect(code).toContain(`baseUrl: '${base}',`);
    expect(code).toContain("featureflow.evaluate('tutorial-banner', user).isOn()");
    await page.getByText('Waiting for tutorial-banner to be evaluated in Development').waitFor();
    await shots(page, 'tutorial-step2-nodejs');

    // The program, run as it is shown, evaluates the feature; the page sees it and moves on.
    const run = await runNode(code);
    await stepHeading(page, 'Step 3: Manage it').waitFor({ timeout: 40_000 });
    expect(run.output()).toContain('tutorial-banner is off');
    await page.getByText('Tutorial banner has been evaluated in Development').waitFor();
    expect(await page.getByRole('link', { name: 'Open Targeting' }).getAttribute('href')).toBe(
      '/projects/sp/environments/development/features/tutorial-banner/targeting',
    );
    await shots(page, 'tutorial-step3');

    // Progress is kept: a reload stays at step 3 with NodeJS; Reset goes back to step 1 with Java.
    await page.reload();
    await stepHeading(page, 'Step 3: Manage it').waitFor();
    await page.getByRole('button', { name: 'Reset' }).click();
    await stepHeading(page, 'Step 1: Create a feature').waitFor();
    await page.getByRole('combobox', { name: 'Feature' }).click();
    await page.getByRole('option', { name: 'Tutorial banner (tutorial-banner)' }).click();
    await page.getByRole('button', { name: 'Use this feature' }).click();
    // Already evaluated here: straight on to step 3, the language back to Java.
    await stepHeading(page, 'Step 3: Manage it').waitFor();
    const stored = await page.evaluate(() =>
      Object.entries(localStorage)
        .filter(([key]) => key.startsWith('vexil.tutorial.'))
        .map(([, value]) => JSON.parse(value) as unknown),
    );
    expect(stored).toEqual([{ step: 3, language: 'java', featureKey: 'tutorial-banner' }]);
  });
});
