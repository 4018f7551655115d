/**
 * Compiles the server to plain JavaScript: `dist/main.js`, one ES module holding the server's sources
 * and @vexil/core's, run by `npm run serve` with no loader (`node apps/server/dist/main.js`). Every
 * other package stays an import, resolved from node_modules at run time as it was under tsx.
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
const result = await build({
  absWorkingDir: here,
  entryPoints: { main: 'src/main.ts' },
  outdir,
  bundle: true,
  platform: 'node',
  format: 'esm',
  // What the server imports lazily (the Stripe provider, the experiment statistics) becomes a chunk
  // of its own, so the packages it imports load with it rather than at start.
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  target: 'node20',
  sourcemap: 'linked',
  // The sources are in the repository; the map only points at them.
  sourcesContent: false,
  // No keepNames: it wraps every function and class in `__name(...)` calls for nothing the server reads.
  keepNames: false,
  plugins: [externalPackages],
  metafile: true,
  logLevel: 'warning',
});
const imports = Object.values(result.metafile.outputs).flatMap((output) =>
  output.imports
    .filter((entry) => entry.external && !entry.path.startsWith('node:'))
    .map((entry) => entry.path),
);
checkResolvable(imports);
const bytes = result.metafile.outputs['dist/main.js']?.bytes ?? 0;
process.stdout.write(`Server compiled to apps/server/dist/main.js (${Math.round(bytes / 1024)} kB)\n`);
