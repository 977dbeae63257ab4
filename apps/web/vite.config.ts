import { constants } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'vite';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';

export default defineConfig({
  plugins: [
    react(),
    tailwindcss(),
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
