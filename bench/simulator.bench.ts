// Page requests per second of the simulator on 100-row /api/v1/transactions pages, on a 50,000-transaction
// ledger: in-process handler calls, and over loopback HTTP with undici against a server in a child process (its
// own core; the client runs here). Target: ≥ 2,000 requests/s on one core. `npm run bench:simulator`
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';
import { defaultSimulatorConfig } from '@ledger-sentinel/simulator/config';
import { sampleTransactionRow } from '@ledger-sentinel/simulator/sample-rows';
import { startSimulator } from '@ledger-sentinel/simulator/server';
import { SimulatorStore } from '@ledger-sentinel/simulator/store';
import { makeSimTransaction } from '@ledger-sentinel/simulator/transaction-json';

const TARGET = 2_000;
const LEDGER_SIZE = 50_000;
const START = 1_700_000_000_000_000_000n;
const STEP = 250_000_000n;
const NOW = START + BigInt(LEDGER_SIZE) * STEP;

function buildStore(): SimulatorStore {
  const store = new SimulatorStore();
  for (let i = 0; i < LEDGER_SIZE; i++) {
    const payer = 1000n + BigInt(i % 500);
    const row = sampleTransactionRow(START + BigInt(i) * STEP, payer, {
      memo: Buffer.from(`payment ${i}`),
      transfers: [
        { account: 3n, amount: 2_000n },
        { account: 98n, amount: 84_000n },
        { account: payer, amount: -(100_086_000n + BigInt(i)) },
        { account: 2000n + BigInt(i % 300), amount: 100_000_000n + BigInt(i) },
      ],
      tokenTransfers:
        i % 3 === 0
          ? [
              { tokenId: 456858n, account: payer, amount: -9223372036847275807n },
              { tokenId: 456858n, account: 3000n, amount: 9223372036847275807n },
            ]
          : [],
    });
    store.addTransaction(makeSimTransaction(row));
  }
  return store;
}

/** Cursor URLs spread over the ledger, so pages are not all the same slice. */
function urls(count: number): string[] {
  return Array.from({ length: count }, (_, i) => {
    const cursor = NOW - BigInt((i * 7919) % (LEDGER_SIZE - 200)) * STEP;
    const ts = `${cursor / 1_000_000_000n}.${(cursor % 1_000_000_000n).toString().padStart(9, '0')}`;
    return i % 4 === 3
      ? `/api/v1/transactions?account.id=0.0.${1000 + (i % 500)}&limit=100`
      : `/api/v1/transactions?limit=100&timestamp=lt:${ts}`;
  });
}

async function inProcess(
  dispatch: (m: string, u: string) => Promise<{ body: string | Buffer }>,
  list: string[],
) {
  let bytes = 0;
  for (const url of list) await dispatch('GET', url); // warm-up
  const started = performance.now();
  for (const url of list) bytes += (await dispatch('GET', url)).body.length;
  const seconds = (performance.now() - started) / 1000;
  return { rps: list.length / seconds, avgBytes: bytes / list.length };
}

async function overHttp(origin: string, list: string[], connections: number) {
  const pool = new Pool(origin, { connections, pipelining: 1 });
  let next = 0;
  const worker = async () => {
    while (next < list.length) {
      const response = await pool.request({ method: 'GET', path: list[next++] as string });
      await response.body.arrayBuffer();
    }
  };
  await Promise.all(Array.from({ length: connections }, worker)); // warm-up pass
  next = 0;
  const started = performance.now();
  await Promise.all(Array.from({ length: connections }, worker));
  const seconds = (performance.now() - started) / 1000;
  await pool.close();
  return list.length / seconds;
}

/** Child process: build the ledger, serve it, report the URL, serve until killed. */
async function serve(): Promise<void> {
  const sim = await startSimulator({
    store: buildStore(),
    config: defaultSimulatorConfig({ now: () => NOW }),
  });
  process.send?.(sim.origin);
  process.on('message', () => process.send?.(process.cpuUsage()));
}

interface ServerProcess {
  readonly origin: string;
  /** The child's CPU time so far (user + system), seconds. */
  cpuSeconds(): Promise<number>;
  stop(): void;
}

function startServerProcess(): Promise<ServerProcess> {
  const child = fork(fileURLToPath(import.meta.url), ['serve'], {
    execArgv: ['--conditions=source', '--import', 'tsx'],
  });
  const cpuSeconds = () =>
    new Promise<number>((resolve) => {
      child.once('message', (usage) => {
        const { user, system } = usage as NodeJS.CpuUsage;
        resolve((user + system) / 1e6);
      });
      child.send('cpu');
    });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('message', (origin) =>
      resolve({ origin: String(origin), cpuSeconds, stop: () => child.kill() }),
    );
  });
}

async function main(): Promise<void> {
  const built = performance.now();
  const store = buildStore();
  console.log(
    `ledger: ${LEDGER_SIZE} transactions built in ${((performance.now() - built) / 1000).toFixed(1)} s`,
  );
  const sim = await startSimulator({ store, config: defaultSimulatorConfig({ now: () => NOW }) });
  const list = urls(5_000);
  const local = await inProcess(sim.handler.dispatch, list);
  const sameProcess = await overHttp(sim.origin, list, 8);
  await sim.close();
  const server = await startServerProcess();
  const cpuBefore = await server.cpuSeconds();
  const separate = await overHttp(server.origin, list, 8);
  const serverCpu = (await server.cpuSeconds()) - cpuBefore;
  server.stop();

  const row = (label: string, rps: number) =>
    console.log(
      `${label.padEnd(44)} ${rps.toFixed(0).padStart(7)} req/s   ${(rps / TARGET).toFixed(2)}× target`,
    );
  console.log(`100-row pages, ${(local.avgBytes / 1024).toFixed(1)} KiB each, target ${TARGET} req/s`);
  row('in-process handler (dispatch)', local.rps);
  row('HTTP, server in child process (1 core)', separate);
  row('HTTP, server and client in one process', sameProcess);
  // Wall-clock figures depend on what else runs on the machine; CPU time of the server process does not.
  row('HTTP, per second of server CPU (child)', (list.length * 2) / serverCpu);
  console.log(`HTTP (own core) / in-process ratio: ${(separate / local.rps).toFixed(2)}`);
}

if (process.argv[2] === 'serve') await serve();
else await main();
