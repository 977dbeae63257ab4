/**
 * The real server and CLI as child processes, for tests about what a process does on its own:
 * starting, refusing, surviving an outage, exiting cleanly. An unhandled 'error' event would end
 * the process, which in-process tests cannot see. Every child is bounded and can be killed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const API_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const WAIT_MS = 60_000;
const STOP_MS = 30_000;

/** Settings a developer's shell might carry over; a child gets only what the test gives it. */
const CLEARED_ENV = [
  'DATABASE_URL',
  'TEST_DATABASE_URL',
  'DATA_DIR',
  'PORT',
  'HOST',
  'JWT_SECRET',
  'SEED_DEMO',
  'SMTP_URL',
  'AUTHORIZED_DOMAINS',
  'TRUST_PROXY',
  'WEB_DIST',
  'METRICS_TOKEN',
  'METRICS_PORT',
  'METRICS_HOST',
];

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface Proc {
  child: ChildProcess;
  readonly stdout: string;
  readonly stderr: string;
  /** stdout and stderr as they arrived. */
  readonly output: string;
  readonly exit: Exit | null;
  exited: Promise<Exit>;
  /** Resolves with the match once the output matches; rejects on exit or timeout. */
  waitFor(re: RegExp, ms?: number): Promise<RegExpMatchArray>;
  /** Sends a signal and waits for the exit; a child still running after `ms` is killed. */
  stop(signal?: NodeJS.Signals, ms?: number): Promise<Exit>;
}

const running = new Set<Proc>();

interface RunOptions {
  hardLimitMs?: number;
  /** How failure messages name the child (default: the script or the command). */
  label?: string;
}

/** Runs a TypeScript entry point of the API (`src/server.ts`, `src/cli/...`) with tsx. */
export function runTs(script: string, args: string[], env: Record<string, string>, options: RunOptions = {}): Proc {
  return runCommand(process.execPath, ['--import', 'tsx', script, ...args], env, { label: script, ...options });
}

/** Runs a bundled entry point (`dist/server.js`, built by `npm run build`) as production does. */
export function runBuilt(script: string, args: string[], env: Record<string, string>, options: RunOptions = {}): Proc {
  return runCommand(process.execPath, [script, ...args], env, { label: script, ...options });
}

/** Runs any program from the API folder with the test's environment (a load balancer, a tool). */
export function runCommand(
  command: string,
  args: string[],
  env: Record<string, string>,
  { hardLimitMs = 240_000, label = command }: RunOptions = {},
): Proc {
  const base: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'warn' };
  for (const key of CLEARED_ENV) delete base[key];
  const child = spawn(command, args, { cwd: API_DIR, env: { ...base, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  let output = '';
  let exit: Exit | null = null;
  const listeners = new Set<() => void>();
  const notify = () => [...listeners].forEach((l) => l());
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    output += chunk;
    notify();
  });
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
    output += chunk;
    notify();
  });
  // Whatever happens to the test, no child outlives this.
  const hardLimit = setTimeout(() => child.kill('SIGKILL'), hardLimitMs);
  hardLimit.unref();
  const exited = new Promise<Exit>((resolve) => {
    child.on('close', (code, signal) => {
      clearTimeout(hardLimit);
      exit = { code, signal };
      running.delete(proc);
      notify();
      resolve(exit);
    });
    child.on('error', (error) => {
      stderr += `\n[spawn error] ${error.message}`;
      output += `\n[spawn error] ${error.message}`;
    });
  });
  const describeOutput = () => `\n--- stdout ---\n${stdout}\n--- stderr ---\n${stderr}`;

  const proc: Proc = {
    child,
    get stdout() {
      return stdout;
    },
    get stderr() {
      return stderr;
    },
    get output() {
      return output;
    },
    get exit() {
      return exit;
    },
    exited,
    waitFor(re, ms = WAIT_MS) {
      return new Promise((resolve, reject) => {
        const done = (settle: () => void) => {
          clearTimeout(timer);
          listeners.delete(check);
          settle();
        };
        const check = () => {
          const match = output.match(re);
          if (match) return done(() => resolve(match));
          if (exit)
            done(() =>
              reject(
                new Error(`${label} exited (${exit!.code ?? exit!.signal}) before printing ${re}${describeOutput()}`),
              ),
            );
        };
        const timer = setTimeout(
          () => done(() => reject(new Error(`${label} did not print ${re} within ${ms} ms${describeOutput()}`))),
          ms,
        );
        listeners.add(check);
        check();
      });
    },
    async stop(signal = 'SIGTERM', ms = STOP_MS) {
      if (exit) return exit;
      child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), ms);
      try {
        return await exited;
      } finally {
        clearTimeout(timer);
      }
    },
  };
  running.add(proc);
  return proc;
}

export function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Kills every child still running (a test's afterAll). */
export async function killAll() {
  await Promise.all(
    [...running].map(async (p) => {
      p.child.kill('SIGKILL');
      await withTimeout(p.exited, 10_000, 'child did not die').catch(() => {});
    }),
  );
}

/** A TCP port nothing listens on right now. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}
