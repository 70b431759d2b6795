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
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': ['error', { zones: [...layerZones, ...innerZones] }],
      // Across folders, the '~/' alias: '../../x' says nothing about where x lives.
      'no-restricted-imports': ['error', { patterns: [{ group: ['../*'], message: "Import across folders with '~/…' (tsconfig paths)." }] }],
    },
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
            { name: '~/shared/contract', allowTypeImports: true, message: 'Browser code imports only types from the contract (zod stays out of the bundle).' },
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
    files: ['tests/**', 'bench/**', 'scripts/**', '**/*.test.ts', '**/*.test.tsx', '**/*.preview.ts'],
    rules: { 'import-x/no-restricted-paths': 'off' },
  },
);
