// Generation rate of the living ledger (target: sustain 10,000 TPS). Not part of npm test.
//   node --conditions=source --import tsx bench/traffic.bench.ts [transactions]
import { createTraffic } from '@ledger-sentinel/simulator/traffic';
import { createLivingLedger } from '@ledger-sentinel/simulator/living-ledger';

const TARGET_TPS = 10_000;
const COUNT = Number(process.argv[2] ?? 200_000);

interface Rate {
  /** Transactions per wall-clock second. */
  readonly tps: number;
  /** Transactions per CPU second of this process (robust when other processes share the cores). */
  readonly cpuTps: number;
}

function measure(run: () => number): Rate & { count: number } {
  const cpu = process.cpuUsage();
  const start = performance.now();
  const count = run();
  const wallMs = performance.now() - start;
  const used = process.cpuUsage(cpu);
  const cpuMs = (used.user + used.system) / 1000;
  return { count, tps: (count / wallMs) * 1000, cpuTps: (count / cpuMs) * 1000 };
}

function generatorOnly(count: number): Rate {
  const traffic = createTraffic({ seed: 1 });
  let ts = 1_700_000_000_000_000_000n;
  return measure(() => {
    for (let i = 0; i < count; i++) {
      traffic.generate(ts);
      ts += 100_000n;
    }
    return count;
  });
}

function livingLedger(count: number): Rate & { records: number; heapMb: number } {
  let now = 1_700_000_000_000;
  const ledger = createLivingLedger({
    seed: 1,
    tps: TARGET_TPS,
    clock: () => now,
    maxCatchUpMs: 3_600_000,
    lateVisibility: { fraction: 0.05, delay_ms: 10_000 },
  });
  const rate = measure(() => {
    for (let s = 0; s < Math.ceil(count / TARGET_TPS); s++) {
      now += 1000;
      ledger.advance();
    }
    return ledger.stats().transactions;
  });
  return {
    ...rate,
    records: ledger.stats().records,
    heapMb: process.memoryUsage().heapUsed / 1024 / 1024,
  };
}

const gen = generatorOnly(COUNT);
const live = livingLedger(COUNT);
const fmt = (n: number) => Math.round(n).toLocaleString('en-US').padStart(9);
const row = (name: string, r: Rate) =>
  `${name.padEnd(38)} ${fmt(r.tps)} tx/s wall (${(r.tps / TARGET_TPS).toFixed(2)}x)  ` +
  `${fmt(r.cpuTps)} tx/cpu-s (${(r.cpuTps / TARGET_TPS).toFixed(2)}x target)`;
console.log(
  `traffic generation, ${COUNT.toLocaleString('en-US')} transactions, target ${TARGET_TPS.toLocaleString('en-US')} TPS`,
);
console.log(row('generator only (records built)', gen));
console.log(row('living ledger (store + ground truth)', live));
console.log(
  `records per transaction ${(live.records / COUNT).toFixed(3)}; heap after ${live.heapMb.toFixed(0)} MB`,
);
