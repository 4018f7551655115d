// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

/**
 * no-restricted-imports for the web app's files `depth` folders below apps/web/src in `layer`: `patterns`
 * builds the rule's patterns from `up`, the `../` prefix that climbs from such a file back to src/.
 */
const webLayerRule = (layer, minDepth, patterns) =>
  [1, 2, 3, 4, 5, 6]
    .filter((depth) => depth >= minDepth)
    .map((depth) => ({
      files: [`apps/web/src/${layer}/${'*/'.repeat(depth - 1)}*.{ts,tsx}`],
      rules: {
        'no-restricted-imports': ['error', { patterns: patterns(`^(\\.\\./){${depth}}`, depth) }],
      },
    }));

/** A module may not import another module's repository (docs/adr/0019-modules-own-their-tables.md). */
const otherRepository = {
  regex: '^(\\.\\./)+(modules/)?[a-z-]+/[a-z-]+\\.repository(\\.ts)?$',
  message:
    'A module may not import another module’s repository: ask its service (docs/adr/0019-modules-own-their-tables.md).',
};

export default tseslint.config(
  {
    ignores: ['**/node_modules/**', '**/dist/**', 'data/**', 'apps/server/drizzle/**', '**/*.d.ts'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-restricted-syntax': [
        'error',
        { selector: 'TSEnumDeclaration', message: 'Use a const object or a union type.' },
        { selector: 'ExportDefaultDeclaration', message: 'Use named exports.' },
      ],
    },
  },
  {
    // Config files the tools require to default-export.
    files: ['**/*.config.ts', '**/*.config.js', 'eslint.config.js'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: 'TSEnumDeclaration', message: 'Use a const object or a union type.' },
      ],
    },
  },
  {
    // core is the pure domain: it may import only zod, re2js, @noble/hashes and fast-json-patch (and, in
    // tests, the test tools).
    files: ['packages/core/src/**/*.ts'],
    ignores: ['packages/core/src/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(?!zod($|/)|re2js$|@noble/hashes/|fast-json-patch$|\\.{1,2}/)',
              message:
                'packages/core imports only zod, re2js (linear-time patterns), @noble/hashes (sha1), fast-json-patch (version diffs) and its own files.',
            },
          ],
        },
      ],
    },
  },
  {
    // only config.ts reads the environment
    files: ['apps/server/src/**/*.ts'],
    ignores: [
      'apps/server/src/config.ts',
      'apps/server/src/**/*.test.ts',
      'apps/server/src/**/*.fixture.ts',
      'apps/server/test/**',
    ],
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Read configuration through config.ts.' },
      ],
    },
  },
  {
    // Server modules talk to each other through services, never through another module's
    // repository: each module owns its queries and is the one writer of its tables
    // (docs/adr/0019-modules-own-their-tables.md; apps/server/src/architecture.test.ts).
    files: ['apps/server/src/modules/**/*.ts', 'apps/server/src/sdk/**/*.ts'],
    ignores: ['apps/server/src/**/*.test.ts', 'apps/server/src/**/*.fixture.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [otherRepository] }],
    },
  },
  {
    // Services hold the rules and leave tables to their repositories: no schema import, not even a
    // row type (a module's <domain>.types.ts names what its service needs).
    files: ['apps/server/src/**/*.service.ts'],
    ignores: ['apps/server/src/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            otherRepository,
            {
              regex: '(^|/)db/schema(/|$)',
              message:
                'A service does not import the database schema: its repository queries the tables, and its <domain>.types.ts names the records (docs/adr/0019-modules-own-their-tables.md).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
    },
  },
  /*
   * The web app's layers, each importing only those below it: app (routes, shell) → features →
   * entities (each domain's API calls and cache keys) → components and lib → @vexil/core. Features never
   * import each other: what two share moves down, or the app composes them in its routes.
   */
  ...webLayerRule('features', 2, (up, depth) => [
    {
      regex: `${up}(app|features)(/|$)`,
      message: 'Features may not import the app (it composes them in its routes) or another feature.',
    },
    {
      regex: `^(\\.\\./){${depth - 1}}[^./]`,
      message:
        'Web features never import each other: move shared code down (entities/, components/, lib/) or compose them in app/routes/.',
    },
  ]),
  ...webLayerRule('entities', 2, (up) => [
    {
      regex: `${up}(app|features)(/|$)`,
      message: 'Entities are below features and the app: they may not import them.',
    },
  ]),
  ...['components', 'lib'].flatMap((layer) =>
    webLayerRule(layer, 1, (up) => [
      {
        regex: `${up}(app|features|entities)(/|$)`,
        message:
          'components/ and lib/ are the bottom of the web app: they import only each other and @vexil/core.',
      },
    ]),
  ),
);
