import fs from 'node:fs';
import path from 'node:path';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import { importX } from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';

// The layers of docs/decisions/005: which top-level folders each folder may import from.
// Tests, benches and scripts may import anything; every other arrow not listed fails lint.
const LAYERS = {
  shared: [],
  core: ['shared'],
  content: ['core', 'shared'],
  media: ['core', 'shared'],
  integrations: ['core', 'shared'],
  db: ['core', 'shared', 'content', 'media'],
  models: ['db', 'core', 'shared', 'media', 'integrations'],
  api: ['models', 'integrations', 'core', 'shared', 'content', 'db'],
  server: ['api', 'models', 'db', 'media', 'integrations', 'core', 'shared', 'content'],
  app: ['core', 'shared'],
  // The back office's single-page app (docs/back-office.md): browser code like app/.
  admin: ['core', 'shared'],
};
const FOLDERS = [...Object.keys(LAYERS), 'tests', 'bench', 'scripts'];

const layerZones = Object.entries(LAYERS).flatMap(([layer, allowed]) =>
  FOLDERS.filter((f) => f !== layer && !allowed.includes(f)).map((from) => ({
    target: `./${layer}`,
    from: `./${from}`,
    message: `${layer}/ may import only from ${[layer, ...allowed].join(', ')} (docs/decisions/005).`,
  })),
);

// Narrower rules inside a layer.
const innerZones = [
  // SQL lives in models/: API routes map answers and call data functions.
  { target: './api', from: './db/schema.ts', message: 'api/ calls data functions in models/; SQL stays there.' },
  { target: './api', from: './db/seed', message: 'The running API never depends on the demo seed.' },
  { target: './server', from: './db/schema.ts', message: 'server/ reads data through models/.' },
  // Only the seed knows the demo content: schema and client do not.
  { target: './db/!(seed)/**', from: './content', message: 'db/ schema and client import no content.' },
  { target: './db/*.ts', from: './content', message: 'db/ schema and client import no content.' },
  { target: './db/*.ts', from: './media', message: 'db/ schema and client import no media.' },
];

// Inside app/ (docs/architecture.md, "The storefront's folders"): lib/ (no markup) <- ui/ (generic
// pieces) <- one folder per feature in app/components/ <- pages/ and routes/ and the root, which
// compose features. A feature imports ui/ and lib/, never another feature: what two features
// share goes to ui/; what a shared piece starts in a feature (a card's quick add, a heart's login)
// the root hands it (app/ui/shop-actions.tsx).
const FEATURES = fs
  .readdirSync(path.join(import.meta.dirname, 'app/components'), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);
const COMPOSERS = ['./app/pages', './app/routes', './app/root.tsx', './app/entry.server.tsx'];
const appZones = [
  {
    target: './app/lib',
    from: ['./app/ui', './app/components', ...COMPOSERS],
    message: 'app/lib/ holds no markup and imports only app/lib/ (docs/architecture.md).',
  },
  {
    target: './app/ui',
    from: ['./app/components', ...COMPOSERS],
    message: 'app/ui/ pieces import only app/ui/ and app/lib/; a feature action comes through app/ui/shop-actions.tsx.',
  },
  ...FEATURES.map((feature) => ({
    target: `./app/components/${feature}`,
    from: './app/components',
    except: [`./${feature}`],
    message: `A feature imports app/ui/ and app/lib/, not another feature: move what ${feature}/ shares to app/ui/.`,
  })),
  ...FEATURES.map((feature) => ({
    target: `./app/components/${feature}`,
    from: COMPOSERS,
    message: 'Features do not import the pages, routes or root that compose them.',
  })),
  {
    target: './app/pages',
    from: ['./app/routes', './app/root.tsx'],
    message: 'Pages are composed by routes, not the other way round.',
  },
];

export default tseslint.config(
  { ignores: ['tmp/', 'build/', 'data/', '.cache/', '.react-router/', 'node_modules/', 'db/migrations/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    plugins: { 'react-hooks': reactHooks, 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })],
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': ['error', { zones: [...layerZones, ...innerZones, ...appZones] }],
      // Across folders, the '~/' alias: '../../x' says nothing about where x lives.
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['../*'], message: "Import across folders with '~/…' (tsconfig paths)." }] },
      ],
    },
  },
  {
    // The hooks rules run React's compiler over each file they see (most of lint's time): only
    // where components and hooks live.
    files: ['app/**/*.{ts,tsx}', 'admin/**/*.{ts,tsx}', '**/*.tsx'],
    rules: reactHooks.configs.recommended.rules,
  },
  {
    // Browser code takes only types from the contract: its values are zod schemas, and one value
    // import puts zod in every page's JavaScript (ids live in shared/checkout-ids.ts).
    files: ['app/**', 'core/**', 'admin/**'],
    ignores: ['**/*.test.ts', '**/*.test.tsx', '**/*.server.ts', '**/*.server.tsx'],
    rules: {
      'no-restricted-imports': 'off',
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [{ group: ['../*'], message: "Import across folders with '~/…' (tsconfig paths)." }],
          paths: [
            {
              name: '~/shared/contract',
              allowTypeImports: true,
              message: 'Browser code imports only types from the contract (zod stays out of the bundle).',
            },
            {
              name: '~/shared/admin-contract',
              allowTypeImports: true,
              message: 'Browser code imports only types from the contract (zod stays out of the bundle).',
            },
          ],
        },
      ],
    },
  },
  {
    // The storefront's server code (loaders, actions, the document's render, *.server modules)
    // logs through the request's logger, context.log (shared/context.ts), never the console.
    files: ['app/**'],
    rules: { 'no-console': 'error' },
  },
  {
    // The root loader's data is read one way, typed once (app/lib/root-data.ts): useRootData() or rootDataOf(matches).
    files: ['app/**'],
    ignores: ['app/lib/root-data.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.name='useRouteLoaderData'][arguments.0.value='root']",
          message: "Read the root's data with useRootData() (app/lib/root-data.ts).",
        },
        {
          selector: "BinaryExpression[right.value='root']",
          message: "Read the root's data in `meta` with rootDataOf(args.matches) (app/lib/root-data.ts).",
        },
      ],
    },
  },
  {
    // Browser code (effects, event handlers, lazy loads) has no server logger: a failure it
    // recovers from goes to the browser's console as a warning or an error, nothing else.
    files: ['app/components/**', 'app/ui/**', 'app/lib/**'],
    ignores: ['**/*.server.ts', '**/*.server.tsx'],
    rules: { 'no-console': ['error', { allow: ['warn', 'error'] }] },
  },
  {
    files: ['tests/**', 'bench/**', 'scripts/**', '**/*.test.ts', '**/*.test.tsx', '**/*.preview.ts'],
    rules: { 'import-x/no-restricted-paths': 'off', 'no-console': 'off' },
  },
);
