/**
 * The real server (and CLI) as child processes, because what is under test is whether the
 * process survives: an unhandled 'error' event would end it, which in-process tests cannot see.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const API_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const HARD_LIMIT_MS = 240_000;

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface Proc {
  child: ChildProcess;
  readonly output: string;
  readonly exit: Exit | null;
  exited: Promise<Exit>;
  waitFor(re: RegExp, ms?: number): Promise<RegExpMatchArray>;
  stop(signal?: NodeJS.Signals, ms?: number): Promise<Exit>;
}

export function runTs(script: string, args: string[], env: Record<string, string>): Proc {
  const base: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'warn' };
  for (const key of ['DATABASE_URL', 'TEST_DATABASE_URL', 'DATA_DIR', 'PORT', 'HOST', 'JWT_SECRET', 'SEED_DEMO', 'SMTP_URL']) delete base[key];
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], { cwd: API_DIR, env: { ...base, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  let exit: Exit | null = null;
  const listeners = new Set<() => void>();
  const notify = () => [...listeners].forEach((l) => l());
  for (const stream of [child.stdout!, child.stderr!]) {
    stream.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
      notify();
    });
  }
  // Whatever happens to the test, no child outlives this.
  const hardLimit = setTimeout(() => child.kill('SIGKILL'), HARD_LIMIT_MS);
  hardLimit.unref();
  const exited = new Promise<Exit>((resolve) => {
    child.on('close', (code, signal) => {
      clearTimeout(hardLimit);
      exit = { code, signal };
      notify();
      resolve(exit);
    });
  });
  return {
    child,
    get output() {
      return output;
    },
    get exit() {
      return exit;
    },
    exited,
    waitFor(re, ms = 60_000) {
      return new Promise((resolve, reject) => {
        const done = (settle: () => void) => {
          clearTimeout(timer);
          listeners.delete(check);
          settle();
        };
        const check = () => {
          const match = output.match(re);
          if (match) return done(() => resolve(match));
          if (exit) done(() => reject(new Error(`${script} exited (${exit!.code ?? exit!.signal}) before printing ${re}\n${output}`)));
        };
        const timer = setTimeout(() => done(() => reject(new Error(`${script} did not print ${re} within ${ms} ms\n${output}`))), ms);
        listeners.add(check);
        check();
      });
    },
    async stop(signal = 'SIGTERM', ms = 20_000) {
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
}
