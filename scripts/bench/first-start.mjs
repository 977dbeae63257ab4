// The embedded first start for `npm run bench`: how long a server given an empty data folder
// takes until GET /api/ready answers 200 (PGlite created, migrations applied, demo world seeded,
// routes ready), against the limit a newcomer is promised. The server's own CPU seconds are
// reported beside the wall time: on a busy box the wall time mostly measures the neighbours.
import { readFileSync } from 'node:fs';

export const FIRST_START_LIMIT_SECONDS = 15;

/** CPU seconds (user + system) a process has used so far, from /proc; null where there is none. */
function cpuSecondsOf(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(rest[11]) + Number(rest[12])) / 100;
  } catch {
    return null;
  }
}

/**
 * Runs `start` (which resolves with `{ server, port }` once /api/ready is 200) and times it.
 * Returns the started server and `{ seconds, cpuSeconds, limitSeconds, pass }`.
 */
export async function timeFirstStart(start) {
  const startedAt = performance.now();
  const outlay = await start();
  const seconds = (performance.now() - startedAt) / 1000;
  const cpuSeconds = cpuSecondsOf(outlay.server.child.pid);
  return {
    outlay,
    firstStart: {
      seconds,
      cpuSeconds,
      limitSeconds: FIRST_START_LIMIT_SECONDS,
      pass: seconds <= FIRST_START_LIMIT_SECONDS,
    },
  };
}

export function firstStartLine(firstStart) {
  const cpu = firstStart.cpuSeconds === null ? '' : ` (server CPU ${firstStart.cpuSeconds.toFixed(1)} s)`;
  return (
    `embedded first start: ${firstStart.seconds.toFixed(1)} s${cpu} until /api/ready on an empty data folder ` +
    `→ ${firstStart.pass ? 'PASS' : 'FAIL'} (limit ${firstStart.limitSeconds} s)`
  );
}
