// CPU time of a process from /proc/<pid>/stat (Linux): utime + stime, so a benchmark can tell the daemon's cores
// from its load generator's. Clock ticks are converted with the system's CLK_TCK, read once.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

let ticksPerSecond: number | undefined;

function clockTicks(): number {
  if (ticksPerSecond === undefined) {
    const text = execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim();
    const n = Number(text);
    // 100 is the Linux default on every common architecture; getconf missing is no reason to fail a run.
    ticksPerSecond = Number.isInteger(n) && n > 0 ? n : 100;
  }
  return ticksPerSecond;
}

/** User + system CPU seconds the process has used so far (children not included). */
export function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name (field 2) is in parentheses and may hold spaces: count fields after the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // After the name: state is field 3, so utime (14) and stime (15) are at 11 and 12.
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  return (utime + stime) / clockTicks();
}

/** Cores used between two readings: CPU seconds over wall seconds. */
export function cores(from: { cpu: number; at: number }, to: { cpu: number; at: number }): number {
  const wall = (to.at - from.at) / 1000;
  return wall > 0 ? (to.cpu - from.cpu) / wall : Number.NaN;
}

/**
 * Seconds the process's main thread (the JavaScript thread) has spent runnable but waiting for a CPU, from
 * /proc/<pid>/schedstat: on a shared machine, how much of the wall time it was starved rather than busy or idle.
 */
export function runQueueSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/schedstat`, 'utf8').trim().split(' ');
  return Number(fields[1]) / 1e9;
}
