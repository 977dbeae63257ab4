// Shared by start, test and create-owner: make a fresh clone runnable without manual steps.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Node's options for the server, wherever it runs (npm start, the bench). The old generation is
 * capped at 1 GB, which is also what makes V8 collect it at about twice the live heap instead of
 * four times: on a busy server the live heap is some 60 MB, and uncapped the process grew to
 * 370–490 MB of garbage waiting for a collection (capped: about 225 MB, at the same throughput).
 */
export const SERVER_NODE_ARGS = ['--enable-source-maps', '--max-old-space-size=1024'];

export function run(cmd, args, options = {}) {
  const result = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', ...options });
  return result.status ?? 1;
}

export function runAsync(cmd, args, options = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, stdio: 'inherit', ...options });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

function newest(target) {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = stat.mtimeMs;
  for (const entry of readdirSync(target)) {
    if (entry === 'node_modules' || entry === 'dist') continue;
    latest = Math.max(latest, newest(path.join(target, entry)));
  }
  return latest;
}

/** Installs dependencies when node_modules is missing or older than the lock file. */
export function ensureInstalled() {
  const marker = path.join(root, 'node_modules/.package-lock.json');
  const lock = path.join(root, 'package-lock.json');
  if (existsSync(marker) && statSync(marker).mtimeMs >= statSync(lock).mtimeMs) return;
  console.log('Installing dependencies (npm ci)…');
  if (run('npm', ['ci', '--no-audit', '--no-fund']) !== 0) {
    console.error('npm ci failed');
    process.exit(1);
  }
}

const SOURCES = [
  'apps/web/src',
  'apps/web/index.html',
  'apps/web/vite.config.ts',
  'apps/api/src',
  'packages/contracts/src',
  'packages/db/src',
  'packages/db/migrations',
];

/** Builds the web app and the API bundle when any source is newer than the last build. */
export function ensureBuilt({ force = false } = {}) {
  const stamps = ['apps/web/dist/index.html', 'apps/api/dist/server.js'].map((p) => path.join(root, p));
  const built = Math.min(...stamps.map((p) => (existsSync(p) ? statSync(p).mtimeMs : 0)));
  const changed = Math.max(...SOURCES.map((p) => newest(path.join(root, p))));
  if (!force && built > 0 && built >= changed) return 0;
  console.log('Building the web app and the API…');
  return run('npm', ['run', 'build', '--silent']);
}
