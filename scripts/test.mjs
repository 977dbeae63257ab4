// `npm test`: the whole suite in one command — typecheck, lint, build, unit and integration
// tests (PGlite, and PostgreSQL too when TEST_DATABASE_URL is set), then browser tests.
// The last line is the one summary: "N passed, M failed".
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ensureBuilt, ensureInstalled, root, runAsync } from './lib.mjs';
import { TEST_CHROMIUM } from './test-chromium.mjs';

const results = [];
const record = (name, passed, failed, note = '') => {
  results.push({ name, passed, failed, note });
  console.log(`\n▶ ${name}: ${passed} passed, ${failed} failed${note ? ` (${note})` : ''}\n`);
};
const step = async (name, cmd, args, env) => {
  console.log(`\n▶ ${name}…`);
  const code = await runAsync(cmd, args, env ? { env: { ...process.env, ...env } } : {});
  record(name, code === 0 ? 1 : 0, code === 0 ? 0 : 1);
  return code === 0;
};

ensureInstalled();
const npx = 'npx';
const tmp = mkdtempSync(path.join(tmpdir(), 'outlay-test-'));

await step('typecheck (api, packages)', npx, ['tsc', '-p', 'apps/api/tsconfig.json']);
await step('typecheck (web)', npx, ['tsc', '-p', 'apps/web/tsconfig.json']);
await step('lint', npx, ['eslint', '.', '--max-warnings=0']);
await step('format', npx, ['prettier', '--check', '.']);
console.log('\n▶ build…');
const buildOk = ensureBuilt({ force: true }) === 0;
record('build', buildOk ? 1 : 0, buildOk ? 0 : 1);

async function vitest(label, args, env) {
  const out = path.join(tmp, `${label.replace(/\W+/g, '-')}.json`);
  console.log(`\n▶ ${label}…`);
  const code = await runAsync(
    npx,
    ['vitest', 'run', ...args, '--reporter=default', '--reporter=json', `--outputFile.json=${out}`],
    {
      env: { ...process.env, ...env },
    },
  );
  if (!existsSync(out)) return record(label, 0, 1, `vitest exited ${code} without a report`);
  const report = JSON.parse(readFileSync(out, 'utf8'));
  // A file that fails to load has no tests in it but must still count as a failure.
  const brokenFiles = report.testResults.filter((f) => f.status === 'failed' && f.assertionResults.length === 0).length;
  record(
    label,
    report.numPassedTests,
    report.numFailedTests + brokenFiles + (code !== 0 && report.numFailedTests + brokenFiles === 0 ? 1 : 0),
  );
}

const { TEST_DATABASE_URL, ...withoutPg } = process.env;
await vitest(
  'unit and integration tests (PGlite)',
  ['--project', 'api', '--project', 'contracts', '--project', 'web'],
  { ...withoutPg, TEST_DATABASE_URL: '' },
);
if (TEST_DATABASE_URL) {
  await vitest('integration tests (PostgreSQL)', ['--project', 'api'], { TEST_DATABASE_URL });
}
// The outage tests time health and readiness against a 1 s bound while they load a server of
// their own: they run alone, so another test file's work does not eat into that second.
await vitest('outage tests (throwaway PostgreSQL cluster)', ['--project', 'resilience'], withoutPg);

// Browser tests need Debian's chromium; without it they are skipped with one line, except in CI.
const chromium = TEST_CHROMIUM;
const playwrightConfig = path.join(root, 'apps/web/playwright.config.ts');
if (!existsSync(playwrightConfig)) {
  console.log('\n▶ browser tests: none yet (apps/web/playwright.config.ts is missing)');
} else if (!existsSync(chromium)) {
  if (process.env.CI === 'true') record('browser tests', 0, 1, `no Chromium at ${chromium}; CI must have it`);
  else
    console.log(
      `\n▶ browser tests skipped: no Chromium at ${chromium} (apt-get install chromium, or set CHROMIUM_PATH)`,
    );
} else if (buildOk) {
  const out = path.join(tmp, 'playwright.json');
  console.log('\n▶ browser tests (Playwright, Chromium)…');
  const code = await runAsync(npx, ['playwright', 'test', '-c', playwrightConfig, '--reporter=list,json'], {
    env: { ...process.env, PLAYWRIGHT_JSON_OUTPUT_NAME: out, CHROMIUM_PATH: chromium },
  });
  if (!existsSync(out)) record('browser tests', 0, 1, `playwright exited ${code} without a report`);
  else {
    const { stats } = JSON.parse(readFileSync(out, 'utf8'));
    const failed = stats.unexpected + (code !== 0 && stats.unexpected === 0 ? 1 : 0);
    record('browser tests', stats.expected + stats.flaky, failed, stats.flaky ? `${stats.flaky} flaky` : '');
  }
} else {
  record('browser tests', 0, 1, 'not run: the build failed');
}

rmSync(tmp, { recursive: true, force: true });
const passed = results.reduce((n, r) => n + r.passed, 0);
const failed = results.reduce((n, r) => n + r.failed, 0);
console.log('\nSummary:');
for (const r of results)
  console.log(
    `  ${r.failed ? '✗' : '✓'} ${r.name}: ${r.passed} passed, ${r.failed} failed${r.note ? ` (${r.note})` : ''}`,
  );
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
