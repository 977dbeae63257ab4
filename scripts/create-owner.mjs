// `npm run create-owner -- --username … --email … --first-name … --last-name …`
import path from 'node:path';
import { ensureBuilt, ensureInstalled, root, runAsync } from './lib.mjs';

ensureInstalled();
if (ensureBuilt() !== 0) process.exit(1);
process.exit(
  await runAsync(process.execPath, [path.join(root, 'apps/api/dist/create-owner.js'), ...process.argv.slice(2)]),
);
