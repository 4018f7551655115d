/**
 * Prints the server's command for `npm run serve` (the root package.json):
 * `env NAME=value … node [flags] apps/server/dist/main.js`, from settings.json, the one place these
 * settings are written (settings.ts says what each does). The script runs it with `exec`, so the
 * server is the process npm started, as it was when the command was written in the script: a
 * launcher process of its own would stay resident beside it (some 40 MiB) for as long as it runs.
 * The allocator's variables cannot be set from inside Node: the C library reads them at start-up.
 *
 * Plain JavaScript with no loader, so that it runs before anything is built. The path of the
 * server is relative to the working directory, which npm sets to the package's: a command made of
 * plain words, since the shell splits it at spaces.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../../../..');
/** @type {{ environment: Record<string, string>; nodeFlags: string[]; server: string }} */
const settings = JSON.parse(readFileSync(path.join(here, 'settings.json'), 'utf8'));
const server = path.join(root, settings.server);
if (!existsSync(server)) {
  process.stderr.write(
    `${settings.server} is missing: run \`npm run build\` first (\`npm start\` does both).\n`,
  );
  process.exit(1);
}
const environment = Object.entries(settings.environment).map(([name, value]) => `${name}=${value}`);
const words = ['env', ...environment, 'node', ...settings.nodeFlags, path.relative(process.cwd(), server)];
const unsafe = words.find((word) => !/^[\w./=,:@+-]+$/.test(word));
if (unsafe !== undefined) {
  process.stderr.write(`Cannot run the server from a directory whose path has "${unsafe}" in it.\n`);
  process.exit(1);
}
process.stdout.write(`${words.join(' ')}\n`);
