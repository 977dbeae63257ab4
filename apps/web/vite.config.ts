import { createHash } from 'node:crypto';
import { constants } from 'node:zlib';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig, type Plugin } from 'vite';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';
import { compileMessages } from './build/compile-messages.ts';
import { STORAGE_KEYS } from './src/lib/auth-storage';
import { EARLY_RESPONSES_GLOBAL } from './src/lib/early-responses';

// What hasValidSession (src/lib/auth-storage.ts) reads, read by the early script before any app code runs.
const SESSION_KEYS = [STORAGE_KEYS.accessToken, STORAGE_KEYS.deviceId];
const SIGN_IN_PAGE = 'src/features/auth/pages/auth-page.tsx';
const FRAME = 'src/app/layout/app-shell.tsx';
const DASHBOARD_PAGE = 'src/features/dashboard/pages/dashboard-page.tsx';
// The first reads of a signed-in visit (src/app/early-start.ts asks for the same, later).
const EARLY_READS = { frame: ['/api/auth/user'], dashboard: ['/api/auth/user', '/api/dashboard', '/api/onboarding'] };

/**
 * On a slow phone network every step of "page → entry → the entry runs → the screen's chunks" is
 * a round trip. A tiny script in the page's head (a file: the CSP allows no inline script) looks
 * whether a session is stored and asks at once for what the first screen needs: the sign-in screen
 * without one; with one, the frame, and on / the dashboard too. It runs while the entry is still
 * arriving, so those chunks come beside it instead of after it has run. (The entry's own
 * `import()`s then find them loaded: Vite's preload skips a file already linked.)
 */
function earlyPreload(): Plugin {
  let fileName: string | undefined;
  return {
    name: 'outlay-early-preload',
    apply: 'build',
    generateBundle: {
      order: 'pre',
      handler(_options, bundle) {
        const chunks = Object.values(bundle).filter((c) => c.type === 'chunk');
        const entry = chunks.find((c) => c.isEntry);
        if (!entry) throw new Error('no entry chunk: nothing to preload beside');
        const byFile = new Map(chunks.map((c) => [c.fileName, c]));
        const facade = (page: string) => {
          const chunk = chunks.find((c) => c.facadeModuleId?.replaceAll('\\', '/').endsWith(page));
          if (!chunk) throw new Error(`no chunk for ${page}: the early script can no longer preload it`);
          return chunk.fileName;
        };
        const closure = (start: string[], seen = new Set<string>()) => {
          for (const file of start) {
            if (seen.has(file)) continue;
            seen.add(file);
            closure(byFile.get(file)?.imports ?? [], seen);
          }
          return seen;
        };
        const loaded = closure([entry.fileName]);
        const beyondEntry = (pages: string[]) =>
          [...closure(pages.map(facade))].filter((f) => !loaded.has(f)).map((f) => `/${f}`);
        const lists = {
          signIn: beyondEntry([SIGN_IN_PAGE]),
          frame: beyondEntry([FRAME]),
          dashboard: beyondEntry([FRAME, DASHBOARD_PAGE]),
        };
        const source =
          `(function(){var l=${JSON.stringify(lists)},k=${JSON.stringify(SESSION_KEYS)},s=false;` +
          `try{s=k.every(function(n){return localStorage.getItem(n)})}catch(e){}` +
          `var p=location.pathname.replace(/\\/+$/,'')||'/';` +
          `var f=document.createDocumentFragment();` +
          `(s?(p==='/'?l.dashboard:l.frame):l.signIn).forEach(function(h){var e=document.createElement('link');e.rel='modulepreload';e.crossOrigin='';e.href=h;f.appendChild(e)});` +
          `document.head.appendChild(f);` +
          // The session check and the first screen's data start now too, rather than once the entry has
          // arrived and run; the app takes each answer once (src/lib/early-responses.ts). Not when the
          // address asks for a fresh sign-in (applyForceLogin), nor when the app has started already.
          `var g=${JSON.stringify(EARLY_RESPONSES_GLOBAL)};if(!s||window[g]||/[?&]forceLogin=true(&|$)/.test(location.search))return;` +
          `var r=${JSON.stringify(EARLY_READS)},t=localStorage.getItem(k[0]),h={Authorization:'Bearer '+t,'X-Device-ID':localStorage.getItem(k[1])},a={};` +
          `(p==='/'?r.dashboard:r.frame).forEach(function(u){a[u]=fetch(u,{headers:h,credentials:'include'});a[u].catch(function(){})});` +
          `window[g]={token:t,responses:a}})();\n`;
        fileName = `assets/early-${createHash('sha256').update(source).digest('base64url').slice(0, 10)}.js`;
        this.emitFile({ type: 'asset', fileName, source });
      },
    },
    transformIndexHtml: {
      order: 'post',
      handler() {
        if (!fileName) throw new Error('the early script was not written before the page: its plugin runs too late');
        return [{ tag: 'script', attrs: { async: true, src: `/${fileName}` }, injectTo: 'head-prepend' as const }];
      },
    },
  };
}

/**
 * The modules a signed-in visit needs before its first screen, in few files: everything the
 * navigation frame imports statically that a signed-out visit never loads is one file, the
 * dashboard's own another, and what the sign-in screen shares with the frame a third. On a slow
 * phone network the browser fetches six files at a time and each waits its turn, so the frame's
 * thirty-odd small shared chunks cost more round trips than bytes. The sets are read from the
 * module graph at the end of the build, so a new import joins the right file without a list to
 * keep. Modules are taken without their dependencies (those belong to the entry or the sign-in
 * screen); the pages themselves stay the facades of their own chunks, which rolldown needs to
 * write correct exports for an import() of them.
 */
function firstScreenGroups() {
  const sets = {
    shared: new Set<string>(),
    sharedLater: new Set<string>(),
    frame: new Set<string>(),
    dashboard: new Set<string>(),
  };
  const plugin: Plugin = {
    name: 'outlay-first-screen-groups',
    apply: 'build',
    buildEnd() {
      const ids = [...this.getModuleIds()];
      const find = (page: string) => {
        const id = ids.find((m) => m.replaceAll('\\', '/').endsWith(page));
        if (!id) throw new Error(`no module ${page}: the first-screen groups cannot be drawn`);
        return id;
      };
      // The icon library's index re-exports every icon: walking through it would put all of them in
      // every closure. An import of it stands for the icons the importer names.
      const iconIndex = ids.find((m) =>
        /node_modules[\\/]lucide-react[\\/]dist[\\/]esm[\\/]lucide-react\.mjs$/.test(m),
      );
      const iconFiles = new Map<string, string>();
      if (iconIndex) {
        const dir = path.dirname(iconIndex);
        for (const [, names = '', file = ''] of (this.getModuleInfo(iconIndex)?.code ?? '').matchAll(
          /export \{([^}]*)\} from '(\.\/icons\/[^']+)'/g,
        )) {
          for (const [, name = ''] of names.matchAll(/default as (\w+)/g)) iconFiles.set(name, path.join(dir, file));
        }
      }
      const iconsNamedBy = (id: string) => {
        const code = this.getModuleInfo(id)?.code ?? '';
        const named = [...code.matchAll(/import\s*\{([^}]*)\}\s*from\s*["']lucide-react["']/g)].flatMap(
          ([, list = '']) => list.split(',').map((part) => part.trim().split(/\s+as\s+/)[0] ?? ''),
        );
        return named.map((name) => iconFiles.get(name)).filter((file): file is string => file !== undefined);
      };
      const closure = (start: string[], stop: Set<string> = new Set()) => {
        const seen = new Set<string>();
        const walk = (id: string) => {
          if (seen.has(id) || stop.has(id)) return;
          seen.add(id);
          for (const next of this.getModuleInfo(id)?.importedIds ?? []) {
            if (next === iconIndex) iconsNamedBy(id).forEach(walk);
            else walk(next);
          }
        };
        start.forEach(walk);
        return seen;
      };
      const entries = ids.filter((id) => this.getModuleInfo(id)?.isEntry);
      const inEntry = closure(entries);
      // The pages themselves stay the facades of their own chunks (what their import() loads).
      const signInPage = find(SIGN_IN_PAGE);
      const frame = find(FRAME);
      const dashboard = find(DASHBOARD_PAGE);
      // A signed-out visit loads the entry, the sign-in screen and what those load later (the toasts,
      // the sign-in form's schema), but neither the frame nor any screen.
      let signedOutStart = [...entries, signInPage];
      let signedOut = closure(signedOutStart);
      for (;;) {
        const later = [...signedOut]
          .flatMap((id) => this.getModuleInfo(id)?.dynamicallyImportedIds ?? [])
          .filter((id) => id !== frame && !/[\\/]pages[\\/]/.test(id) && !signedOutStart.includes(id));
        if (later.length === 0) break;
        signedOutStart = [...signedOutStart, ...new Set(later)];
        signedOut = closure(signedOutStart);
      }
      const signIn = closure([signInPage], inEntry);
      const signedIn = closure([frame, dashboard], inEntry);
      // What the sign-in screen shares with the frame (form parts, the brand) is one file for both.
      sets.shared = new Set([...signIn].filter((id) => signedIn.has(id)));
      // What it loads later that the frame needs at once (the toasts' parts) is another.
      sets.sharedLater = new Set(
        [...signedOut].filter((id) => signedIn.has(id) && !inEntry.has(id) && !signIn.has(id)),
      );
      sets.frame = closure([frame], signedOut);
      sets.dashboard = closure([dashboard], new Set([...signedOut, ...sets.frame]));
      sets.frame.delete(frame);
      sets.dashboard.delete(dashboard);
    },
  };
  return {
    plugin,
    inShared: (id: string) => sets.shared.has(id),
    inSharedLater: (id: string) => sets.sharedLater.has(id),
    inFrame: (id: string) => sets.frame.has(id),
    inDashboard: (id: string) => sets.dashboard.has(id),
  };
}

const firstScreen = firstScreenGroups();

export default defineConfig({
  plugins: [
    compileMessages(),
    react(),
    tailwindcss(),
    earlyPreload(),
    firstScreen.plugin,
    // Brotli and gzip copies of every text file, at the highest levels (paid once, at build time);
    // the server sends whichever the browser accepts (apps/api/src/plugins/web.ts).
    compression({
      algorithms: [
        defineAlgorithm('brotliCompress', {
          params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY },
        }),
        defineAlgorithm('gzip', { level: 9 }),
      ],
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
      // A group that takes modules without their dependencies may add exports to a chunk (rolldown's
      // advice for includeDependenciesRecursively: false). Its other advice, strictExecutionOrder,
      // wraps every module in an initializer: 4 KB more on the sign-in path. Left off: the app's
      // modules do not rely on another chunk's side effects running first (the browser tests open
      // every screen on this build).
      preserveEntrySignatures: 'allow-extension',
      output: {
        codeSplitting: {
          groups: [
            // The first screen of a signed-in visit in few files (firstScreenGroups).
            {
              name: 'signed-in-and-out',
              test: firstScreen.inShared,
              priority: 4,
              includeDependenciesRecursively: false,
            },
            {
              name: 'signed-in-and-out-later',
              test: firstScreen.inSharedLater,
              priority: 4,
              includeDependenciesRecursively: false,
            },
            { name: 'frame', test: firstScreen.inFrame, priority: 4, includeDependenciesRecursively: false },
            {
              name: 'dashboard-first',
              test: firstScreen.inDashboard,
              priority: 3,
              includeDependenciesRecursively: false,
            },
            // React is in every screen's path; on its own it caches across releases of the app's code
            // and keeps the entry under the per-chunk budget.
            {
              name: 'react',
              test: /node_modules[\\/](?:react|react-dom|scheduler|use-sync-external-store)[\\/]/,
              priority: 2,
            },
            // What the chart library draws with (scales, shapes, its state store) is a chunk of its
            // own, so neither half is over the per-chunk budget and screens share one copy.
            {
              name: 'chart-engine',
              priority: 1,
              test: /node_modules[\\/](?:d3-[\w-]+|internmap|victory-vendor|decimal\.js-light|es-toolkit|@reduxjs[\\/]toolkit|redux|redux-thunk|reselect|react-redux|immer|eventemitter3)[\\/]/,
            },
            // Icons used by six screens or more (the frame's among them) come as one file, not one request each:
            // on a slow phone network every request waits its turn for one of the browser's six connections.
            { name: 'icons', test: /node_modules[\\/]lucide-react[\\/]/, priority: 1, minShareCount: 6 },
          ],
        },
      },
    },
  },
  server: { proxy: { '/api': 'http://localhost:3000' } },
});
