// `npm start`: install what is missing, build what changed, then run the server, which
// migrates the database and seeds the demo world on first start.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { SERVER_NODE_ARGS, ensureBuilt, ensureInstalled, root } from './lib.mjs';

ensureInstalled();
if (ensureBuilt() !== 0) {
  console.error('The build failed; see above.');
  process.exit(1);
}
const server = spawn(process.execPath, [...SERVER_NODE_ARGS, path.join(root, 'apps/api/dist/server.js')], {
  cwd: root,
  stdio: 'inherit',
  env: process.env,
});
// Let the server shut down cleanly (it releases the data-folder lock) on either signal.
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
