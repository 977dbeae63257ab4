#!/usr/bin/env node
// Prints every chunk's gzip size and the initial JavaScript of the sign-in route
// (entry + its static imports + the /auth screen's chunk and its static imports).
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dist = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');
const manifest = JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8'));
const gz = (file) => gzipSync(readFileSync(join(dist, file))).length;
const kb = (bytes) => `${(bytes / 1024).toFixed(2)} KB`;

function closure(keys, seen = new Set()) {
  for (const key of keys) {
    if (seen.has(key)) continue;
    seen.add(key);
    closure(manifest[key]?.imports ?? [], seen);
  }
  return seen;
}

const entryKey = Object.keys(manifest).find((k) => manifest[k].isEntry);
const authKey = Object.keys(manifest).find((k) => k.endsWith('features/auth/pages/auth-page.tsx'));
const initial = closure([entryKey, authKey]);
const initialBytes = [...initial].reduce((sum, k) => sum + gz(manifest[k].file), 0);

const rows = Object.values(manifest)
  .filter((c) => c.file.endsWith('.js'))
  .map((c) => ({ file: c.file, gzip: gz(c.file) }))
  .sort((a, b) => b.gzip - a.gzip);

if (process.argv.includes('--all')) for (const r of rows) console.log(`${kb(r.gzip).padStart(11)}  ${r.file}`);
console.log(`chunks: ${rows.length}, total gzip ${kb(rows.reduce((s, r) => s + r.gzip, 0))}`);
console.log(`sign-in route initial JS: ${kb(initialBytes)} gzip in ${initial.size} chunks`);
for (const k of initial) console.log(`  ${kb(gz(manifest[k].file)).padStart(10)}  ${manifest[k].file}`);
if (process.argv.includes('--check') && initialBytes > 150 * 1024) {
  console.error('Sign-in route initial JavaScript exceeds 150 KB gzip');
  process.exit(1);
}
