import { constants } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig, type Plugin } from 'vite';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';

/**
 * Most visits start signed out, on the sign-in screen, which is a lazy chunk: the browser would
 * only ask for it once the entry has run. Preloading it (and what it imports beyond the entry)
 * from the page saves that round trip, about a second on a slow phone network; for a signed-in
 * visitor it costs a few KB fetched beside the entry.
 */
function preloadSignInScreen(): Plugin {
  const page = 'src/features/auth/pages/auth-page.tsx';
  return {
    name: 'outlay-preload-sign-in',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, { bundle, chunk: entry }) {
        if (!bundle || !entry) return [];
        const chunks = Object.values(bundle).filter((c) => c.type === 'chunk');
        const screen = chunks.find((c) => c.facadeModuleId?.replaceAll('\\', '/').endsWith(page));
        if (!screen) throw new Error(`no chunk for ${page}: the sign-in screen is no longer preloaded`);
        const byFile = new Map(chunks.map((c) => [c.fileName, c]));
        const closure = (start: string[], seen = new Set<string>()) => {
          for (const file of start) {
            if (seen.has(file)) continue;
            seen.add(file);
            closure(byFile.get(file)?.imports ?? [], seen);
          }
          return seen;
        };
        const loaded = closure([entry.fileName]);
        return [...closure([screen.fileName])]
          .filter((file) => !loaded.has(file))
          .map((file) => ({ tag: 'link', attrs: { rel: 'modulepreload', crossorigin: true, href: `/${file}` }, injectTo: 'head' as const }));
      },
    },
  };
}

export default defineConfig({
  plugins: [
    react(),
    tailwindcss(),
    preloadSignInScreen(),
    // Brotli and gzip copies of every text file, at the highest levels (paid once, at build time);
    // the server sends whichever the browser accepts (apps/api/src/plugins/web.ts).
    compression({
      algorithms: [defineAlgorithm('brotliCompress', { params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY } }), defineAlgorithm('gzip', { level: 9 })],
      exclude: [/\.vite[\\/]/],
      logLevel: 'silent',
    }),
  ],
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    manifest: true,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            // React is in every screen's path; on its own it caches across releases of the app's code
            // and keeps the entry under the per-chunk budget.
            { name: 'react', test: /node_modules[\\/](?:react|react-dom|scheduler|use-sync-external-store)[\\/]/, priority: 2 },
            // What the chart library draws with (scales, shapes, its state store) is a chunk of its
            // own, so neither half is over the per-chunk budget and screens share one copy.
            {
              name: 'chart-engine',
              priority: 1,
              test: /node_modules[\\/](?:d3-[\w-]+|internmap|victory-vendor|decimal\.js-light|es-toolkit|@reduxjs[\\/]toolkit|redux|redux-thunk|reselect|react-redux|immer|eventemitter3)[\\/]/,
            },
          ],
        },
      },
    },
  },
  server: { proxy: { '/api': 'http://localhost:3000' } },
});
