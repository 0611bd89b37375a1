// The replay ledger (packages/simulator/src/replay-server.ts) in a process of its own, the load generator of the peak
// benchmark, so its CPU and memory are measured apart from the daemon's:
//   node --conditions=source --import tsx bench/lib/replay-process.ts '<json ReplayServerOptions without clock>'
// Prints {"url","startMs"} on one line, serves until SIGTERM.
import { startReplayLedger, type ReplayServerOptions } from '@ledger-sentinel/simulator/replay-server';

const options = JSON.parse(process.argv[2] ?? '{}') as Omit<ReplayServerOptions, 'clock'>;
const startMs = Date.now();
const ledger = await startReplayLedger({ ...options, startMs });
console.log(JSON.stringify({ url: ledger.url, startMs }));
process.once('SIGTERM', () => void ledger.close().then(() => process.exit(0)));
