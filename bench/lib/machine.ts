// The machine a figure was measured on, recorded next to every result: figures from a shared, loaded box are
// noisy, so the load average goes with them.
import { cpus, loadavg, totalmem, type as osType, release } from 'node:os';

export interface Machine {
  readonly date: string;
  readonly cores: number;
  readonly cpu: string;
  readonly memoryMiB: number;
  readonly node: string;
  readonly os: string;
  /** 1, 5 and 15 minute load averages when the run started. */
  readonly loadAverage: readonly number[];
}

export function machine(now = new Date()): Machine {
  return {
    date: now.toISOString(),
    cores: cpus().length,
    cpu: cpus()[0]?.model ?? 'unknown',
    memoryMiB: Math.round(totalmem() / 1024 / 1024),
    node: process.version,
    os: `${osType()} ${release()}`,
    loadAverage: loadavg().map((l) => Math.round(l * 100) / 100),
  };
}

export function describeMachine(m: Machine): string {
  return `${m.date} · ${m.cores} cores (${m.cpu}) · ${m.memoryMiB} MiB · Node ${m.node} · ${m.os} · load ${m.loadAverage.join(' ')}`;
}
