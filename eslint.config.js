// Lint for the whole monorepo: typescript-eslint, plus the import boundaries of
// ARCHITECTURE.md §2 — between workspaces, between web features, and between API modules.
import { readdirSync, existsSync } from 'node:fs';
import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import tseslint from 'typescript-eslint';

const dirs = (path) =>
  existsSync(path)
    ? readdirSync(path, { withFileTypes: true })
        .filter((d) => d.isDirectory())
        .map((d) => d.name)
    : [];

const restrict = (files, patterns, paths = []) => ({
  files,
  rules: { 'no-restricted-imports': ['error', { patterns, paths }] },
});

// The contracts' index re-exports every module, and each module's schemas run when it loads, so one
// value imported through it puts every contract in the importing chunk: the web app names the module.
const contractsByModule = [
  {
    name: '@outlay/contracts',
    message:
      "Import from the contract's own module (@outlay/contracts/<module>): the index pulls every contract into the chunk.",
  },
];

// A web feature may use shared code (components, lib), contracts, and another feature's
// public data hooks (its api/ folder); never another feature's components, pages or utils, and
// never the app shell, which imports every screen (the route catalogue is lib/route-catalogue.ts).
const noShell = {
  group: ['@/app/*', '@/app/**'],
  message:
    'The app shell imports the screens; screens and shared code never import it (routes are in lib/route-catalogue.ts).',
};
const featureBoundaries = dirs('apps/web/src/features').map((feature) =>
  restrict(
    [`apps/web/src/features/${feature}/**/*.{ts,tsx}`],
    [
      {
        group: [
          '@/features/*/*/**',
          `!@/features/${feature}/**`,
          '!@/features/*/api/**',
          '../../*/**',
          '../../../features/*/**',
        ],
        message: 'Features share only their api/ hooks; move shared components and utils to components/ or lib/.',
      },
      {
        group: ['@outlay/db', '@outlay/db/*', '**/apps/api/**'],
        message: 'The web app talks to the API over HTTP only.',
      },
      noShell,
    ],
    contractsByModule,
  ),
);

// An API module may call another module's service or repository, never its routes.
const noForeignRoutes = {
  group: ['../*/*.routes', '../*/*.routes.ts'],
  message: "Modules call services, not other modules' routes.",
};
// One-way dependencies between modules that would otherwise import each other: approvals ask
// budgets through one narrow door (the approvals/gates/ folder); budgets never import approvals.
const oneWay = {
  budgets: {
    group: ['../approvals/*', '../../approvals/*'],
    message: 'Budgets never import approvals; approvals reach budgets through approvals/gates/.',
  },
  approvals: {
    group: ['../budgets/*', '../../budgets/*'],
    message: 'Approvals reach budgets only through approvals/gates/.',
  },
};
const doors = { approvals: 'apps/api/src/modules/approvals/gates/**/*.ts' };
const moduleBoundaries = dirs('apps/api/src/modules').flatMap((mod) => {
  const files = [`apps/api/src/modules/${mod}/**/*.ts`];
  if (!oneWay[mod]) return [restrict(files, [noForeignRoutes])];
  const rule = { ...restrict(files, [noForeignRoutes, oneWay[mod]]), ...(doors[mod] ? { ignores: [doors[mod]] } : {}) };
  return doors[mod] ? [rule, restrict([doors[mod]], [noForeignRoutes])] : [rule];
});

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'data/**',
      '**/test-results/**',
      '**/playwright-report/**',
      'packages/db/migrations/**',
      'bench-results/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node }, ecmaVersion: 2023, sourceType: 'module' },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-console': 'off',
    },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    rules: { 'no-console': ['warn', { allow: ['warn', 'error'] }] },
  },
  { files: ['apps/web/src/**/*.{ts,tsx}'], ...reactHooks.configs.flat.recommended },
  restrict(
    ['packages/contracts/**/*.ts'],
    [
      {
        group: ['@outlay/db', '@outlay/db/*', '**/apps/**', 'drizzle-orm', 'drizzle-orm/*', 'fastify', 'react'],
        message: 'contracts is shared by web and API: zod and plain TypeScript only.',
      },
    ],
  ),
  restrict(
    ['packages/db/**/*.ts'],
    [{ group: ['**/apps/**', 'fastify', 'react'], message: 'The data package knows nothing of the apps.' }],
  ),
  restrict(
    ['apps/api/**/*.ts'],
    [{ group: ['**/apps/web/**', 'react', 'react-dom'], message: 'The API does not import the web app.' }],
  ),
  restrict(['apps/web/src/**/*.{ts,tsx}'], [], contractsByModule),
  restrict(['apps/web/src/{components,lib}/**/*.{ts,tsx}'], [noShell], contractsByModule),
  ...featureBoundaries,
  ...moduleBoundaries,
  // No import cycles anywhere: a cycle makes two files one unit that neither can be read,
  // tested or moved without the other, and its load order decides what is undefined at start.
  {
    files: ['apps/*/src/**/*.{ts,tsx}', 'packages/*/src/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': importX.flatConfigs.typescript.settings['import-x/extensions'],
      'import-x/parsers': importX.flatConfigs.typescript.settings['import-x/parsers'],
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          project: ['apps/api/tsconfig.json', 'apps/web/tsconfig.json'],
          noWarnOnMultipleProjects: true,
        }),
      ],
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
);
