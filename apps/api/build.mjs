// Bundles the server and CLI into dist/. Workspace packages (TypeScript source) are bundled in;
// everything from node_modules stays external and is loaded at run time.
import { build } from 'esbuild';

await build({
  entryPoints: { server: 'src/server.ts', 'create-owner': 'src/cli/create-owner.ts' },
  outdir: 'dist',
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
        b.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('@outlay/') ? undefined : { external: true }));
      },
    },
  ],
});
