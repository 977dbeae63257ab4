// Helpers for scripts/bench.mjs: child processes, cleanup, HTTP probes and load runs.
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import autocannon from 'autocannon';

// Every URL the benchmark hits is built from this host; servers are told to bind to it too,
// so nothing is ever exposed on, or sent to, another interface.
export const HOST = '127.0.0.1';

/* ------------------------------------------------------------------ cleanup */

// Cleanup steps run last-in-first-out, so a database is only dropped after the server
// holding connections to it has exited, and a data dir is only removed after PGlite closed it.
const cleanups = [];
let cleaningUp = null;

/** Registers an async cleanup step; returns a function that runs it early (and only once). */
export function onCleanup(label, fn) {
  let done = false;
  const entry = {
    label,
    run: async () => {
      if (done) return;
      done = true;
      await fn();
    },
  };
  cleanups.push(entry);
  return async () => {
    const i = cleanups.indexOf(entry);
    if (i !== -1) cleanups.splice(i, 1);
    await entry.run();
  };
}

/** True once cleanup has begun (signal, watchdog or the end of the run). */
export function isCleaningUp() {
  return cleaningUp !== null;
}

/**
 * Throws once cleanup has begun. Called before acquiring anything new, so a step that was
 * already awaiting when Ctrl-C arrived cannot start a server or create a database that the
 * (already finished) cleanup would never see.
 */
export function assertNotCleaningUp() {
  if (cleaningUp !== null) throw new Error('benchmark aborted');
}

/** Runs every pending cleanup step; each is bounded so one stuck step cannot block the rest. */
export function cleanupAll() {
  cleaningUp ??= (async () => {
    while (cleanups.length > 0) {
      const entry = cleanups.pop();
      try {
        await withTimeout(entry.run(), 20_000, `cleanup: ${entry.label}`);
      } catch (error) {
        console.error(`  ! cleanup step "${entry.label}" failed: ${error.message}`);
      }
    }
  })();
  return cleaningUp;
}

export async function withTimeout(promise, ms, what) {
  let timer;
  try {
    return await Promise.race([
      promise,
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${what} did not finish within ${Math.round(ms / 1000)} s`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/* ----------------------------------------------------------------- processes */

/** Asks the OS for a port that is free right now on 127.0.0.1. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, HOST, () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

// Children still alive when the bench process exits abruptly (uncaught crash, process.exit in
// a watchdog) get a SIGKILL from this synchronous hook, so no server is left holding a port.
const liveChildren = new Set();
process.on('exit', () => {
  for (const child of liveChildren) {
    try {
      child.kill('SIGKILL');
    } catch {
      /* already gone */
    }
  }
});

/**
 * Starts a Node child process and resolves once a line of its output matches `readyPattern`.
 * Output is kept (bounded) so that a failed start can show why, and so warnings the server
 * logs under load can be reported afterwards.
 */
export async function startNode({ name, script, args = [], nodeArgs = [], cwd, env, readyPattern, timeoutMs }) {
  assertNotCleaningUp();
  const child = spawn(process.execPath, [...nodeArgs, script, ...args], {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  liveChildren.add(child);
  const lines = [];
  const exited = new Promise((resolve) => {
    child.on('exit', (code, signal) => {
      liveChildren.delete(child);
      resolve({ code, signal });
    });
  });
  let markReady;
  const ready = new Promise((resolve) => (markReady = resolve));
  const take = (stream) => {
    let buf = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk) => {
      buf += chunk;
      let nl;
      while ((nl = buf.indexOf('\n')) !== -1) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        lines.push(line);
        // Bounded: a server spamming logs under load must not grow the bench process's heap.
        if (lines.length > 2000) lines.splice(0, lines.length - 2000);
        if (readyPattern.test(line)) markReady();
      }
    });
  };
  take(child.stdout);
  take(child.stderr);

  const handle = {
    name,
    child,
    lines,
    exited,
    /**
     * SIGTERM (the server closes its pool / PGlite cleanly), SIGKILL if it hangs. It can: Outlay's
     * shutdown waits for keep-alive sockets that were busy when it began (up to Fastify's 72 s
     * keepAliveTimeout), which happens when the run is aborted mid-request.
     */
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return exited;
      child.kill('SIGTERM');
      const result = await Promise.race([exited, sleep(10_000).then(() => null)]);
      if (result) return result;
      console.error(`  ! ${name} ignored SIGTERM for 10 s; sending SIGKILL`);
      child.kill('SIGKILL');
      return exited;
    },
  };
  // Registered before waiting, so a server that hangs while starting is still stopped.
  handle.release = onCleanup(`stop ${name}`, () => handle.stop());

  const outcome = await Promise.race([
    ready.then(() => 'ready'),
    exited.then(() => 'exited'),
    sleep(timeoutMs).then(() => 'timeout'),
  ]);
  if (outcome !== 'ready') {
    await handle.release();
    const tail = lines
      .slice(-30)
      .map((l) => `      ${l}`)
      .join('\n');
    const why =
      outcome === 'exited'
        ? `exited early (code ${child.exitCode}, signal ${child.signalCode})`
        : `not ready within ${timeoutMs / 1000} s`;
    throw new Error(`${name} ${why}. Last output:\n${tail}`);
  }
  return handle;
}

/** Runs a command to completion with a deadline (used for the build). */
export function runToCompletion(command, args, { cwd, timeoutMs }) {
  assertNotCleaningUp();
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: 'inherit' });
    liveChildren.add(child);
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${command} ${args.join(' ')} timed out after ${timeoutMs / 1000} s`));
    }, timeoutMs);
    child.on('exit', (code) => {
      liveChildren.delete(child);
      clearTimeout(timer);
      if (code === 0) resolve();
      else reject(new Error(`${command} ${args.join(' ')} exited with code ${code}`));
    });
  });
}

/**
 * Runs a command to completion with a deadline and returns its standard output (used for the
 * history seed, which reports what it wrote as its last line). Standard error is kept for the
 * failure message; an abort (Ctrl-C, watchdog) kills it through the cleanup stack.
 */
export function runCapture(command, args, { cwd, env = {}, timeoutMs }) {
  assertNotCleaningUp();
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    liveChildren.add(child);
    const release = onCleanup(`stop ${args[args.length - 1] ?? command}`, async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr = (stderr + chunk).slice(-8_000)));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${command} ${args.join(' ')} timed out after ${timeoutMs / 1000} s`));
    }, timeoutMs);
    // 'close', not 'exit': the output streams are complete by then.
    child.on('close', (code) => {
      liveChildren.delete(child);
      clearTimeout(timer);
      void release();
      if (code === 0) resolve(stdout);
      else
        reject(
          new Error(
            `${command} ${args.join(' ')} exited with code ${code}:\n${stderr.trim().split('\n').slice(-15).join('\n')}`,
          ),
        );
    });
  });
}

/* ---------------------------------------------------------------------- HTTP */

export async function request(port, path, { method = 'GET', headers = {}, body, timeoutMs = 10_000 } = {}) {
  const res = await fetch(`http://${HOST}:${port}${path}`, {
    method,
    headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await res.text();
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, text, json };
}

/** Polls until the path answers 200 (e.g. /api/ready once migrations are applied). */
export async function waitFor200(port, path, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer';
  while (Date.now() < deadline) {
    try {
      const res = await request(port, path, { timeoutMs: 2_000 });
      if (res.status === 200) return res;
      last = `HTTP ${res.status}: ${res.text.slice(0, 200)}`;
    } catch (error) {
      last = error.message;
    }
    await sleep(250);
  }
  throw new Error(`GET ${path} on port ${port} did not answer 200 within ${timeoutMs / 1000} s (last: ${last})`);
}

/* ---------------------------------------------------------------------- load */

function runAutocannon(opts, onResponse) {
  return new Promise((resolve, reject) => {
    let finished = false;
    const instance = autocannon(opts, (error, result) => {
      finished = true;
      clearTimeout(watchdog);
      if (error) reject(error);
      else resolve(result);
    });
    if (onResponse) instance.on('response', (_client, _status, _bytes, responseTime) => onResponse(responseTime));
    // autocannon stops itself after `duration`; this only guards against it never returning
    // (e.g. every connection stuck on a dead server).
    const watchdog = setTimeout(
      () => {
        if (!finished) instance.stop();
      },
      (opts.duration + 15) * 1000,
    );
  });
}

/** A process's peak resident set in MB (VmHWM from /proc), or null where there is none. */
export function peakRssMb(pid) {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Math.round(Number(match[1]) / 1024) : null;
  } catch {
    return null;
  }
}

/**
 * CPU seconds (user + system) a process has used so far, from /proc; null where there is none.
 * Requests/s swings with whatever else the machine is doing; CPU time per request mostly
 * does not, so it is the steadier number for comparing the server's own cost between runs.
 */
function cpuSeconds(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the parenthesised command name (which may itself contain spaces).
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(rest[11]) + Number(rest[12]); // utime + stime, fields 14 and 15
    return ticks / 100; // USER_HZ is 100 on Linux
  } catch {
    return null;
  }
}

/**
 * CPU seconds every local PostgreSQL process (backends and the server's own) has used so far: the
 * database's share of a request, which the server's own figure leaves out. Only meaningful while
 * nothing else uses the database server.
 */
function postgresCpuSeconds() {
  let total = 0;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      if (readFileSync(`/proc/${pid}/comm`, 'utf8').trim() !== 'postgres') continue;
    } catch {
      continue;
    }
    total += cpuSeconds(pid) ?? 0;
  }
  return total;
}

/**
 * Warm-up then measured run against one URL. The warm-up lets V8 optimise the hot path and
 * fills the connection pools, so the measured seconds reflect the steady state, not start-up.
 */
export async function measure({ label, port, path, headers = {}, connections, duration, warmup, serverPid }) {
  const url = `http://${HOST}:${port}${path}`;
  const common = { url, connections, headers, timeout: 10 };
  if (warmup > 0) await runAutocannon({ ...common, duration: warmup });
  const cpuBefore = cpuSeconds(serverPid);
  const postgresBefore = postgresCpuSeconds();
  // autocannon's histogram has no p95; every response time of the measured seconds is kept instead.
  const times = [];
  const r = await runAutocannon({ ...common, duration }, (ms) => times.push(ms));
  const cpuAfter = cpuSeconds(serverPid);
  const postgresAfter = postgresCpuSeconds();
  times.sort((a, b) => a - b);
  const p95 =
    times.length > 0
      ? Math.round(times[Math.min(times.length - 1, Math.ceil(times.length * 0.95) - 1)] * 100) / 100
      : null;
  const served = r['2xx'] + r.non2xx;
  return {
    label,
    url,
    connections,
    durationSeconds: duration,
    requestsPerSecond: r.requests.average,
    totalRequests: r.requests.total,
    latencyMs: { average: r.latency.average, p50: r.latency.p50, p95, p99: r.latency.p99, max: r.latency.max },
    // The server's peak resident memory since it started (VmHWM), so a run shows what the load cost.
    serverRssMaxMb: peakRssMb(serverPid),
    // The server process only: PostgreSQL's own backends are not in it, PGlite (in-process) is.
    serverCpuMicrosPerRequest:
      cpuBefore !== null && cpuAfter !== null && served > 0 ? ((cpuAfter - cpuBefore) * 1e6) / served : null,
    // Local PostgreSQL processes (0 for PGlite, which is in the server's own figure).
    postgresCpuMicrosPerRequest: served > 0 ? ((postgresAfter - postgresBefore) * 1e6) / served : null,
    errors: r.errors,
    timeouts: r.timeouts,
    non2xx: r.non2xx,
    statusCodes: Object.fromEntries(Object.entries(r.statusCodeStats).map(([code, s]) => [code, s.count])),
  };
}

/**
 * Two targets measured in turns: `rounds` pairs of `slice`-second runs, the order swapped every
 * round (A B, B A, …) so a machine that speeds up or slows down over the minute favours neither.
 * On a shared 2-core box requests/s drift by a third from one half-minute to the next; a ratio
 * of two runs taken a minute apart mostly measures that drift. Each round gives a ratio of runs
 * seconds apart, and the median of the rounds is the figure. Both servers stay up; the one not
 * being measured is idle.
 */
export async function measureInTurns({ a, b, connections, rounds, slice }) {
  const run = async (t) => {
    const r = await runAutocannon({
      url: `http://${HOST}:${t.port}${t.path}`,
      connections,
      headers: t.headers ?? {},
      timeout: 10,
      duration: slice,
    });
    if (r.errors > 0 || r.non2xx > 0)
      throw new Error(`${t.path}: ${r.errors} errors, ${r.non2xx} non-2xx answers in turns`);
    return r.requests.average;
  };
  const results = [];
  for (let i = 0; i < rounds; i++) {
    let aRate;
    let bRate;
    if (i % 2 === 0) {
      aRate = await run(a);
      bRate = await run(b);
    } else {
      bRate = await run(b);
      aRate = await run(a);
    }
    results.push({ a: aRate, b: bRate, ratio: bRate > 0 ? aRate / bRate : null });
  }
  const ratios = results
    .map((r) => r.ratio)
    .filter((r) => r !== null)
    .sort((x, y) => x - y);
  const mid = Math.floor(ratios.length / 2);
  const median = ratios.length === 0 ? null : ratios.length % 2 ? ratios[mid] : (ratios[mid - 1] + ratios[mid]) / 2;
  return { rounds: results, sliceSeconds: slice, medianRatio: median };
}
