// Lighthouse on the phone profile (simulated slow 4G and a 4× slower CPU, Lighthouse's default
// mobile settings) for the sign-in page and the dashboard, against the real server on PGlite
// serving a fresh production build of the web app. Debian's Chromium, no download.
//
// The dashboard needs a signed-in session. The web app keeps it in localStorage (accessToken,
// refreshToken, deviceId: apps/web/src/lib/auth-storage.ts), which request headers cannot fill,
// so the tokens are written into the origin's storage on an asset-free page first, the HTTP
// cache is emptied, and Lighthouse is told not to reset storage on that page.
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import puppeteer from 'puppeteer-core';
import { SERVER_NODE_ARGS } from '../lib.mjs';
import {
  HOST,
  assertNotCleaningUp,
  cleanupAll,
  freePort,
  onCleanup,
  request,
  runToCompletion,
  startNode,
  waitFor200,
} from './lib.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const WEB_DIR = path.join(ROOT, 'apps/web');
const SERVER = path.join(ROOT, 'apps/api/dist/server.js');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
// Set BENCH_LIGHTHOUSE_REPORTS to a directory to keep each page's full Lighthouse report (JSON).
const REPORT_DIR = process.env.BENCH_LIGHTHOUSE_REPORTS || null;
const LIGHTHOUSE_VERSION = JSON.parse(
  readFileSync(path.join(ROOT, 'node_modules/lighthouse/package.json'), 'utf8'),
).version;

export const LIGHTHOUSE_TARGET = 90;
const LOGIN = { username: 'adam', password: 'Meridian!2026' };
const PAGES = [
  { key: 'signIn', label: 'Sign in (/auth)', path: '/auth', signedIn: false },
  { key: 'dashboard', label: 'Dashboard (/) as adam', path: '/', signedIn: true },
];

const round = (n) => (typeof n === 'number' ? Math.round(n) : null);

function summarize(page, lhr) {
  const audit = (id) => lhr.audits[id]?.numericValue;
  const score = lhr.categories.performance.score;
  const performance = score === null ? null : Math.round(score * 100);
  const requests = lhr.audits['network-requests']?.details?.items ?? [];
  const scripts = requests.filter((r) => r.resourceType === 'Script');
  return {
    label: page.label,
    path: page.path,
    finalUrl: lhr.finalDisplayedUrl ?? lhr.finalUrl,
    performance,
    firstContentfulPaintMs: round(audit('first-contentful-paint')),
    largestContentfulPaintMs: round(audit('largest-contentful-paint')),
    totalBlockingTimeMs: round(audit('total-blocking-time')),
    speedIndexMs: round(audit('speed-index')),
    cumulativeLayoutShift: audit('cumulative-layout-shift') ?? null,
    transferBytes: round(audit('total-byte-weight')),
    scriptTransferBytes: scripts.reduce((sum, r) => sum + (r.transferSize ?? 0), 0),
    unusedJavaScriptBytes: round(lhr.audits['unused-javascript']?.details?.overallSavingsBytes ?? 0),
    runtimeError: lhr.runtimeError?.message ?? null,
    pass: performance !== null && performance >= LIGHTHOUSE_TARGET,
  };
}

async function signIn(port) {
  const res = await request(port, '/api/auth/login', { method: 'POST', body: LOGIN, timeoutMs: 15_000 });
  const tokens = res.json?.tokens;
  if (res.status !== 200 || !tokens?.accessToken || !res.json?.deviceId) {
    throw new Error(`sign-in as ${LOGIN.username} failed: HTTP ${res.status} ${res.text.slice(0, 300)}`);
  }
  return { accessToken: tokens.accessToken, refreshToken: tokens.refreshToken, deviceId: res.json.deviceId };
}

async function storeSession(page, origin, session) {
  await page.goto(`${origin}/favicon.svg`);
  await page.evaluate((s) => {
    localStorage.setItem('accessToken', s.accessToken);
    localStorage.setItem('refreshToken', s.refreshToken);
    localStorage.setItem('deviceId', s.deviceId);
  }, session);
}

/**
 * One visit to the page first, in a browser context of its own that is then thrown away (so none of
 * its cache reaches the measured visit): the figures are of a server that has answered the page
 * before (its queries planned, its code compiled), as a running one has, not of its first call.
 */
async function warmUp(browser, origin, path, session) {
  const context = await browser.createBrowserContext();
  try {
    const page = await context.newPage();
    if (session) await storeSession(page, origin, session);
    await page.goto(`${origin}${path}`, { waitUntil: 'networkidle2', timeout: 60_000 });
  } finally {
    await context.close();
  }
}

/**
 * Builds the web app into a directory of its own (so a build in apps/web/dist that a browser
 * test is serving is left alone), starts the server on a fresh PGlite that seeds the demo world,
 * and runs Lighthouse on each page in one Chromium.
 */
export async function measureLighthouse({ log = console.log } = {}) {
  assertNotCleaningUp();
  const work = await mkdtemp(path.join(os.tmpdir(), 'outlay-lighthouse-'));
  onCleanup(`remove ${work}`, () => rm(work, { recursive: true, force: true }));
  const webDist = path.join(work, 'web');
  log('building the web app for Lighthouse');
  await runToCompletion(
    process.execPath,
    [path.join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn', '--outDir', webDist],
    {
      cwd: WEB_DIR,
      timeoutMs: 300_000,
    },
  );

  const port = await freePort();
  const server = await startNode({
    name: 'Outlay (PGlite, Lighthouse)',
    script: SERVER,
    nodeArgs: SERVER_NODE_ARGS,
    cwd: ROOT,
    env: {
      PORT: String(port),
      HOST,
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      DATA_DIR: path.join(work, 'data'),
      WEB_DIST: webDist,
      NODE_ENV: 'production',
      JOB_INTERVAL_MS: '0',
    },
    readyPattern: /Outlay is running at/,
    timeoutMs: 120_000,
  });
  await waitFor200(port, '/api/ready', 30_000);
  const origin = `http://${HOST}:${port}`;

  await mkdir(path.join(work, 'chrome'));
  const chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM,
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
    userDataDir: path.join(work, 'chrome'),
    logLevel: 'silent',
  });
  const releaseChrome = onCleanup('stop Chromium', async () => chrome.kill());
  const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}`, defaultViewport: null });
  const pages = {};
  try {
    for (const target of PAGES) {
      assertNotCleaningUp();
      const session = target.signedIn ? await signIn(port) : null;
      await warmUp(browser, origin, target.path, session);
      const page = await browser.newPage();
      if (session) {
        // favicon.svg: the origin's storage without loading (and caching) any of the app.
        await storeSession(page, origin, session);
      }
      const cdp = await page.createCDPSession();
      await cdp.send('Network.clearBrowserCache');
      await cdp.detach();
      log(`Lighthouse (mobile): ${target.label}`);
      const run = () =>
        lighthouse(
          `${origin}${target.path}`,
          { output: 'json', logLevel: 'error', onlyCategories: ['performance'], disableStorageReset: target.signedIn },
          undefined,
          page,
        );
      let result = await run();
      // A trace that failed to record (NO_NAVSTART and the like, seen on a busy machine) says nothing about the page.
      if (result?.lhr.runtimeError) {
        log(`Lighthouse: ${result.lhr.runtimeError.code}; once more`);
        result = await run();
      }
      if (!result) throw new Error(`Lighthouse returned no result for ${target.path}`);
      pages[target.key] = summarize(target, result.lhr);
      if (REPORT_DIR)
        await writeFile(path.join(REPORT_DIR, `lighthouse-${target.key}.json`), JSON.stringify(result.lhr));
      await page.close();
    }
  } finally {
    await browser.disconnect();
    await releaseChrome();
    await server.release();
  }
  const pass = Object.values(pages).every((p) => p.pass);
  return {
    profile: 'mobile (Lighthouse default: simulated slow 4G, 4× CPU slowdown)',
    lighthouse: LIGHTHOUSE_VERSION,
    chromium: CHROMIUM,
    target: LIGHTHOUSE_TARGET,
    pages,
    pass,
  };
}

export function lighthouseLines(result) {
  const lines = [`Lighthouse ${result.lighthouse}, ${result.profile}; target performance ≥ ${result.target}`];
  for (const p of Object.values(result.pages)) {
    const s = (ms) => (ms === null ? '—' : `${(ms / 1000).toFixed(1)} s`);
    lines.push(
      `  ${p.label.padEnd(24)} performance ${String(p.performance ?? '—').padStart(3)}  FCP ${s(p.firstContentfulPaintMs)}  LCP ${s(p.largestContentfulPaintMs)}  ` +
        `TBT ${p.totalBlockingTimeMs ?? '—'} ms  CLS ${p.cumulativeLayoutShift?.toFixed(3) ?? '—'}  JS ${(p.scriptTransferBytes / 1024).toFixed(0)} KB transferred  → ${p.pass ? 'PASS' : 'FAIL'}` +
        (p.runtimeError ? `  (${p.runtimeError})` : ''),
    );
  }
  return lines;
}

// `node scripts/bench/lighthouse.mjs`: this part of the bench alone (after building the API).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  let exitCode = 0;
  try {
    await runToCompletion(process.execPath, ['build.mjs'], { cwd: path.join(ROOT, 'apps/api'), timeoutMs: 120_000 });
    const result = await measureLighthouse({ log: (m) => console.log(`[lighthouse] ${m}`) });
    for (const line of lighthouseLines(result)) console.log(line);
    exitCode = result.pass ? 0 : 1;
  } catch (error) {
    console.error(`[lighthouse] failed: ${error.stack ?? error.message}`);
    exitCode = 1;
  } finally {
    await cleanupAll();
  }
  process.exit(exitCode);
}
