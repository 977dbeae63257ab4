#!/usr/bin/env node
// The web app's size budget, checked after every build (`npm run build`): a phone on a slow
// network must not download more than this before the sign-in form works, and no screen's
// chunk may grow past the per-chunk limit. Sizes are gzip level 9 of the built files, what the
// server sends to a browser without brotli (brotli copies are smaller still).
//
//   node scripts/check-bundle-budget.mjs [dist] [--all]   prints the report; exits 1 over budget
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const BUDGET = {
  /** Entry + its static imports + the sign-in screen's chunk and its static imports. */
  signInInitialJs: 120 * 1024,
  /** Any one JavaScript chunk. */
  chunkJs: 80 * 1024,
  /**
   * JavaScript files a signed-in visit to the dashboard needs before it shows (the entry, the frame
   * and the dashboard with their static imports): on a slow phone network the browser fetches six
   * at a time, so their number costs round trips whatever their size.
   */
  dashboardFiles: 20,
};
const SIGN_IN_PAGE = 'src/features/auth/pages/auth-page.tsx';
const FRAME = 'src/app/layout/app-shell.tsx';
const DASHBOARD_PAGE = 'src/features/dashboard/pages/dashboard-page.tsx';

/** Every manifest key reachable from `keys` through static imports. */
function staticClosure(manifest, keys, seen = new Set()) {
  for (const key of keys) {
    if (seen.has(key) || !manifest[key]) continue;
    seen.add(key);
    staticClosure(manifest, manifest[key].imports ?? [], seen);
  }
  return seen;
}

/** Measures a build: the sign-in route's initial JavaScript and every chunk, with what exceeds the budget. */
export function measureBundle(dist, budget = BUDGET) {
  const manifest = JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8'));
  const sizes = new Map();
  const gz = (file) => {
    if (!sizes.has(file)) sizes.set(file, gzipSync(readFileSync(join(dist, file)), { level: 9 }).length);
    return sizes.get(file);
  };
  const entryKey = Object.keys(manifest).find((k) => manifest[k].isEntry);
  if (!entryKey) throw new Error(`no entry chunk in ${join(dist, '.vite', 'manifest.json')}`);
  if (!manifest[SIGN_IN_PAGE])
    throw new Error(`the manifest has no ${SIGN_IN_PAGE}: is it still the sign-in screen's lazy chunk?`);
  const initial = [...staticClosure(manifest, [entryKey, SIGN_IN_PAGE])].map((k) => ({
    file: manifest[k].file,
    gzip: gz(manifest[k].file),
  }));
  const signInInitialJs = initial.reduce((sum, c) => sum + c.gzip, 0);
  for (const page of [FRAME, DASHBOARD_PAGE])
    if (!manifest[page]) throw new Error(`the manifest has no ${page}: is it still a lazy chunk?`);
  const dashboardFiles = new Set(
    [...staticClosure(manifest, [entryKey, FRAME, DASHBOARD_PAGE])].map((k) => manifest[k].file),
  ).size;
  const chunks = [...new Set(Object.values(manifest).map((c) => c.file))]
    .filter((file) => file.endsWith('.js'))
    .map((file) => ({ file, gzip: gz(file) }))
    .sort((a, b) => b.gzip - a.gzip);
  const problems = [];
  if (signInInitialJs > budget.signInInitialJs)
    problems.push(
      `sign-in route initial JavaScript is ${kb(signInInitialJs)} gzip, over the ${kb(budget.signInInitialJs)} budget`,
    );
  if (dashboardFiles > budget.dashboardFiles)
    problems.push(
      `the dashboard's first screen needs ${dashboardFiles} JavaScript files, over the budget of ${budget.dashboardFiles}`,
    );
  for (const c of chunks)
    if (c.gzip > budget.chunkJs)
      problems.push(`${c.file} is ${kb(c.gzip)} gzip, over the ${kb(budget.chunkJs)} per-chunk budget`);
  return { signInInitialJs, dashboardFiles, initial, chunks, problems };
}

export const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const dist = resolve(
    process.argv.slice(2).find((a) => !a.startsWith('--')) ??
      join(dirname(fileURLToPath(import.meta.url)), '..', 'dist'),
  );
  const { signInInitialJs, dashboardFiles, initial, chunks, problems } = measureBundle(dist);
  if (process.argv.includes('--all')) for (const c of chunks) console.log(`${kb(c.gzip).padStart(9)}  ${c.file}`);
  console.log(
    `bundle: ${chunks.length} chunks, ${kb(chunks.reduce((s, c) => s + c.gzip, 0))} gzip in all; largest ${chunks[0]?.file} ${kb(chunks[0]?.gzip ?? 0)} (budget ${kb(BUDGET.chunkJs)}); ` +
      `sign-in route initial JS ${kb(signInInitialJs)} in ${initial.length} chunks (budget ${kb(BUDGET.signInInitialJs)}); ` +
      `dashboard's first screen ${dashboardFiles} files (budget ${BUDGET.dashboardFiles})`,
  );
  if (problems.length > 0) {
    for (const p of problems) console.error(`over budget: ${p}`);
    for (const c of initial.sort((a, b) => b.gzip - a.gzip)) console.error(`  ${kb(c.gzip).padStart(9)}  ${c.file}`);
    process.exit(1);
  }
}
