/**
 * A throwaway PostgreSQL cluster for tests that kill backends or restart the server: initdb and
 * pg_ctl from the installed PostgreSQL, in a temporary folder, on a free port, never the shared
 * server. initdb refuses to run as root, so as root the binaries run as the `postgres` user.
 */
import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '../child-process.ts';

const run = promisify(execFile);

export interface PgCluster {
  port: number;
  /** A connection URL for a database of this cluster (default `postgres`). */
  url(database?: string): string;
  /** Fast shutdown (backends are told to terminate, a checkpoint is written). */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops (immediately) and deletes the cluster. */
  destroy(): Promise<void>;
  /** The server log, for failure messages. */
  log(): string;
}

function binDir(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => existsSync(path.join(root, v, 'bin/initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (!versions[0]) throw new Error(`No PostgreSQL server binaries under ${root} (apt-get install postgresql)`);
  return path.join(root, versions[0], 'bin');
}

async function userIds(name: string): Promise<{ uid: number; gid: number }> {
  const [{ stdout: uid }, { stdout: gid }] = await Promise.all([run('id', ['-u', name]), run('id', ['-g', name])]);
  return { uid: Number(uid.trim()), gid: Number(gid.trim()) };
}

export async function startCluster(): Promise<PgCluster> {
  const bin = binDir();
  const dir = mkdtempSync(path.join(tmpdir(), 'outlay-pg-'));
  const data = path.join(dir, 'data');
  const logFile = path.join(dir, 'server.log');
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const { uid, gid } = await userIds('postgres');
    chownSync(dir, uid, gid);
  }
  const pgRun = (tool: string, args: string[]) =>
    asRoot ? run('runuser', ['-u', 'postgres', '--', path.join(bin, tool), ...args]) : run(path.join(bin, tool), args);

  const port = await freePort();
  await pgRun('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--no-sync', '--no-instructions']);
  // Durability across an OS crash is not what these tests are about; fsync off keeps them quick.
  const serverOptions = `-k ${dir} -c listen_addresses=127.0.0.1 -p ${port} -c fsync=off -c max_connections=60`;
  const start = async () => {
    await pgRun('pg_ctl', ['-D', data, '-l', logFile, '-o', serverOptions, '-w', '-t', '60', 'start']);
  };
  await start();

  return {
    port,
    url: (database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`,
    stop: async () => {
      await pgRun('pg_ctl', ['-D', data, '-m', 'fast', '-w', '-t', '60', 'stop']);
    },
    start,
    destroy: async () => {
      await pgRun('pg_ctl', ['-D', data, '-m', 'immediate', '-w', '-t', '30', 'stop']).catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
    log: () => (existsSync(logFile) ? readFileSync(logFile, 'utf8') : ''),
  };
}
