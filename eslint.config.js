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

const files = (path) =>
  existsSync(path)
    ? readdirSync(path, { withFileTypes: true })
        .filter((d) => d.isFile())
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

// A web feature may use shared code (components, lib), contracts, and what another feature
// exports from its index.ts, its public face (`@/features/<x>`); never a path inside another
// feature, by alias or relative. Shared code never imports a feature, and nothing but the app shell
// imports the shell (the route catalogue is lib/route-catalogue.ts). The paths are resolved, so
// `../../<x>/api/...` is caught as `@/features/<x>/api/...` is.
const noShell = {
  group: ['@/app/*', '@/app/**'],
  message:
    'The app shell imports the screens; screens and shared code never import it (routes are in lib/route-catalogue.ts).',
};
const webFeatures = dirs('apps/web/src/features');
const FEATURES = './apps/web/src/features';
const indexesOf = (features) => features.map((f) => `./${f}/index.ts`);
const throughIndex =
  'Another feature is imported through its index.ts (`@/features/<x>`), which exports what other features use; add the export there.';
// The app shell's named exception: its lazy `import()` of a feature's pages (the route catalogue's
// screens, app/routes.ts) and of the forced-password dialog (app/session-sync.tsx), which load on
// first use and so never pull into the first screen what an index would. Its static imports go
// through the indexes like everyone's (no-restricted-imports does not look at `import()`).
const SHELL_LAZY_IMPORTS = [...webFeatures.map((f) => `./${f}/pages`), './auth/components/forced-password-dialog.tsx'];
const featureZones = [
  ...webFeatures.map((feature) => ({
    target: `${FEATURES}/${feature}`,
    from: FEATURES,
    except: [`./${feature}`, ...indexesOf(webFeatures.filter((f) => f !== feature))],
    message: throughIndex,
  })),
  {
    target: ['./apps/web/src/components', './apps/web/src/lib'],
    from: FEATURES,
    message: 'Shared code (components/, lib/) never imports a feature: move what it needs to components/ or lib/.',
  },
  {
    target: './apps/web/src/app',
    from: FEATURES,
    except: [...indexesOf(webFeatures), ...SHELL_LAZY_IMPORTS],
    message: `${throughIndex} The shell's one exception is its lazy import() of pages (SHELL_LAZY_IMPORTS).`,
  },
];
const webOverHttp = {
  group: ['@outlay/db', '@outlay/db/*', '**/apps/api/**'],
  message: 'The web app talks to the API over HTTP only.',
};
const featureBoundaries = [
  ...webFeatures.map((feature) =>
    restrict([`apps/web/src/features/${feature}/**/*.{ts,tsx}`], [webOverHttp, noShell], contractsByModule),
  ),
  restrict(
    ['apps/web/src/app/**/*.{ts,tsx}'],
    [{ group: ['@/features/*/**'], message: `${throughIndex} Only lazy import() may name a page.` }],
    contractsByModule,
  ),
];

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

// Each API module has a public face, its index.ts: from another module, the jobs, the plugins,
// app.ts or server.ts, a module is imported through it and never by one of its files, so a
// module can rearrange its files without its callers noticing (ARCHITECTURE.md §2). Tests under
// apps/api/test may reach a module's files.
const apiSrc = './apps/api/src';
const moduleFaces = dirs('apps/api/src/modules').flatMap((mod) => {
  const from = `${apiSrc}/modules/${mod}`;
  const message = `Import the ${mod} module through its public face, modules/${mod}/index.ts.`;
  return [
    {
      target: [`${apiSrc}/modules/!(${mod})/**`, `${apiSrc}/!(modules)/**`, `${apiSrc}/!(app).ts`],
      from,
      except: ['./index.ts'],
      message,
    },
    // app.ts registers every module's routes plugins: those it may name by file (the requests
    // module's are not in its face, which approvals and routing import).
    {
      target: `${apiSrc}/app.ts`,
      from,
      except: [
        './index.ts',
        ...files(`apps/api/src/modules/${mod}`)
          .filter((f) => f.endsWith('.routes.ts'))
          .map((f) => `./${f}`),
      ],
      message,
    },
  ];
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
  // The web's feature boundaries on resolved paths (featureZones above).
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    rules: { 'import-x/no-restricted-paths': ['error', { zones: featureZones }] },
  },
  // The API's module faces (moduleFaces above).
  {
    files: ['apps/api/src/**/*.ts'],
    ignores: ['apps/api/src/**/*.test.ts'],
    plugins: { 'import-x': importX },
    rules: { 'import-x/no-restricted-paths': ['error', { zones: moduleFaces }] },
  },
);
