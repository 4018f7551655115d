/**
 * Compiles the server to plain JavaScript: `dist/main.js`, one ES module holding the server's sources
 * and @vexil/core's, run by `npm run serve` with no loader (`node apps/server/dist/main.js`), and the
 * operator's plan command `dist/billing.js` (`npm run billing`, src/cli/billing.ts), compiled the
 * same way in a build of its own, so that the server's bundle and its module order stay as they are.
 * Every other package stays an import, resolved from node_modules at run time as it was under tsx.
 * Paths the server resolves from its own file (the migrations in `drizzle/`, the dashboard in
 * `apps/web/dist`) hold from `dist/` as from `src/`: see db/client.ts and app.ts.
 */
import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = path.dirname(fileURLToPath(import.meta.url));
const outdir = path.join(here, 'dist');

/** Workspace packages consumed as TypeScript sources: compiled into the bundle. */
const BUNDLED_PACKAGES = new Set(['@vexil/core']);

/** `@scope/name/sub` → `@scope/name`, `name/sub` → `name`. */
function packageOf(specifier) {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** Every bare import is left to Node, except the workspace packages that ship TypeScript. */
const externalPackages = {
  name: 'external-packages',
  setup(builder) {
    builder.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('node:') || BUNDLED_PACKAGES.has(packageOf(args.path))) return undefined;
      return { path: args.path, external: true };
    });
  },
};

/** A package the bundle imports but Node would not find from dist/ (not hoisted) fails the build. */
function checkResolvable(imports) {
  const missing = [...new Set(imports.map(packageOf))].filter((name) => {
    for (let dir = outdir; ; dir = path.dirname(dir)) {
      if (existsSync(path.join(dir, 'node_modules', name, 'package.json'))) return false;
      if (path.dirname(dir) === dir) return true;
    }
  });
  if (missing.length > 0) {
    throw new Error(
      `The compiled server imports packages Node cannot find from ${outdir}: ${missing.join(', ')}`,
    );
  }
}

rmSync(outdir, { recursive: true, force: true });
/** The options both bundles share; `entryPoints` and `chunkNames` are each one's. */
const common = {
  absWorkingDir: here,
  outdir,
  bundle: true,
  platform: 'node',
  format: 'esm',
  // What the server imports lazily (the Stripe provider, the experiment statistics) becomes a chunk
  // of its own, so the packages it imports load with it rather than at start.
  splitting: true,
  target: 'node20',
  sourcemap: 'linked',
  // The sources are in the repository; the map only points at them.
  sourcesContent: false,
  // No keepNames: it wraps every function and class in `__name(...)` calls for nothing the server reads.
  keepNames: false,
  plugins: [externalPackages],
  metafile: true,
  logLevel: 'warning',
};
const result = await build({
  ...common,
  entryPoints: { main: 'src/main.ts' },
  chunkNames: 'chunks/[name]-[hash]',
});
// The CLI's chunks apart from the server's: neither build may overwrite the other's.
const cli = await build({
  ...common,
  entryPoints: { billing: 'src/cli/billing.ts' },
  chunkNames: 'cli-chunks/[name]-[hash]',
});
const imports = [result, cli]
  .flatMap((built) => Object.values(built.metafile.outputs))
  .flatMap((output) =>
    output.imports
      .filter((entry) => entry.external && !entry.path.startsWith('node:'))
      .map((entry) => entry.path),
  );
checkResolvable(imports);
const bytes = result.metafile.outputs['dist/main.js']?.bytes ?? 0;
process.stdout.write(
  `Server compiled to apps/server/dist/main.js (${Math.round(bytes / 1024)} kB), npm run billing to apps/server/dist/billing.js\n`,
);
