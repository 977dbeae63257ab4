// Bundles the server and CLI into dist/. Workspace packages (TypeScript source) are bundled in;
// everything from node_modules stays external and is loaded at run time.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = path.dirname(fileURLToPath(import.meta.url));

await build({
  entryPoints: { server: path.join(here, 'src/server.ts'), 'create-owner': path.join(here, 'src/cli/create-owner.ts') },
  outdir: path.join(here, 'dist'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
  plugins: [
    {
      name: 'externalize-node-modules',
      setup(b) {
        b.onResolve({ filter: /^[^./]/ }, (args) =>
          args.kind === 'entry-point' || args.path.startsWith('@outlay/') ? undefined : { external: true },
        );
      },
    },
  ],
});
