/*
 * `npm run test:e2e:soak [-- runs [spec files…]]`: the browser tests (or the files named), built by
 * the script first, run `runs` times (5 unless given) while a process of this script keeps one core
 * busy, as another job on a shared CI machine does. It prints how often each spec file's tests failed, so that a test that only fails when the machine is
 * slow (a defect: it waits on time instead of on what the user sees) shows up here rather than in CI.
 * Retries stay off, as in `npm test`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

type Report = {
  testResults: {
    name: string;
    status: string;
    message?: string;
    assertionResults: { fullName: string; status: string }[];
  }[];
};

/** A child that spins on one core until it is stopped. */
function busyCore(): ChildProcess {
  return spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });
}

function vitestRun(outputFile: string, files: string[]): Promise<number> {
  const child = spawn(
    'npx',
    [
      'vitest',
      'run',
      '--project',
      'e2e',
      '--reporter=dot',
      '--reporter=json',
      `--outputFile=${outputFile}`,
      ...files,
    ],
    { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] },
  );
  return new Promise((resolve) => child.once('exit', (code) => resolve(code ?? 1)));
}

async function main(): Promise<void> {
  const [count, ...files] = process.argv.slice(2);
  const runs = Number(count ?? '5');
  if (!Number.isInteger(runs) || runs < 1) throw new Error(`Runs must be a whole number, not ${count}`);
  const folder = await mkdtemp(path.join(tmpdir(), 'vexil-soak-'));
  const busy = busyCore();
  const stop = () => busy.kill('SIGKILL');
  process.once('exit', stop);
  /** Failed tests by spec file, and the runs' times. */
  const failures = new Map<string, string[]>();
  const times: number[] = [];
  try {
    for (let run = 1; run <= runs; run++) {
      console.log(`\nRun ${run} of ${runs}, one core busy`);
      const started = Date.now();
      const outputFile = path.join(folder, `run-${run}.json`);
      const code = await vitestRun(outputFile, files);
      times.push((Date.now() - started) / 1000);
      const report = JSON.parse(
        await readFile(outputFile, 'utf8').catch(() => '{"testResults":[]}'),
      ) as Report;
      if (code !== 0 && report.testResults.length === 0)
        failures.set('(the run itself)', [`exit code ${code}`]);
      for (const file of report.testResults) {
        const spec = path.relative(ROOT, file.name);
        const failed = file.assertionResults
          .filter((test) => test.status === 'failed')
          .map((t) => t.fullName);
        // A file that failed before its tests ran (a hook, an import) counts as one failure.
        if (failed.length === 0 && file.status === 'failed') failed.push(`(the file: ${file.message ?? ''})`);
        if (failed.length > 0) failures.set(spec, [...(failures.get(spec) ?? []), ...failed]);
      }
    }
  } finally {
    stop();
    await rm(folder, { recursive: true, force: true });
  }

  console.log(
    `\nSoak: ${runs} run(s) with one core busy, ${times.map((s) => `${Math.round(s)} s`).join(', ')}`,
  );
  if (failures.size === 0) {
    console.log('No failures.');
    return;
  }
  console.log('Failures per spec file:');
  for (const [spec, tests] of [...failures].sort((a, b) => b[1].length - a[1].length)) {
    console.log(`  ${tests.length}  ${spec}`);
    const counts = new Map<string, number>();
    for (const test of tests) counts.set(test, (counts.get(test) ?? 0) + 1);
    for (const [test, count] of counts) console.log(`       ${count}× ${test}`);
  }
  process.exitCode = 1;
}

await main();
