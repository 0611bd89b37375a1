// Process entry: the only place that reads process.* or calls process.exit (docs/architecture.md).
//
// A process that decides to exit, exits (docs/operations.md, "Exit bound"). The command says when it decided
// (ctx.exiting: SIGTERM, a lost lease, a lost state store) and how long its own graceful stop may take; from then
// on three layers bound the exit, each one only for when the one before it did not happen:
//   1. the command returns and every handle is closed: Node exits by itself with the command's code;
//   2. the command returned but something is still open (a pool client, a keep-alive socket, a timer): after
//      LINGER_MS the process exits with the command's code anyway, naming what was open;
//   3. the command never returned: EXIT_SLACK_MS after its grace the process exits with EXIT_DEADLINE, naming what
//      was open; and should even that timer never run (an event loop kept busy), a watchdog thread kills the
//      process WATCHDOG_MS later (SIGKILL, so exit status 137).
import { Worker } from 'node:worker_threads';
import { runCli } from './cli/cli.js';
import type { ExitDecision } from './cli/command.js';

/** Beyond the command's own grace: room for closing the HTTP server, the state store and the lease. */
const EXIT_SLACK_MS = 5_000;
/** A command that returned gets this long for its last handles to close by themselves. */
const LINGER_MS = 1_000;
/** After the exit deadline, the watchdog thread's wait before SIGKILL. */
const WATCHDOG_MS = 3_000;
/** The exit code of a process that had to be ended by its exit deadline (docs/operations.md, "Exit codes"). */
const EXIT_DEADLINE = 3;

const controller = new AbortController();
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => controller.abort(new Error(`received ${signal}`)));
}
// Without a listener SIGHUP would kill the process; with one, `run` reloads its config.
const hangups = new EventTarget();
process.on('SIGHUP', () => hangups.dispatchEvent(new Event('SIGHUP')));

/** What keeps the process alive, counted by kind ("3 TCPSocketWrap, 1 Timeout"), for the exit line. */
function stillOpen(): string {
  const counts = new Map<string, number>();
  for (const kind of process.getActiveResourcesInfo()) counts.set(kind, (counts.get(kind) ?? 0) + 1);
  const list = [...counts].map(([kind, n]) => `${n} ${kind}`).join(', ');
  return list || 'nothing';
}

function exitNow(code: number, why: string): never {
  process.stderr.write(`ledger-sentinel: ${why}; exiting with code ${code}. Still open: ${stillOpen()}\n`);
  process.exit(code);
}

/** Kills the process from another thread, whose timers run even when this thread's event loop never yields. */
function startWatchdog(ms: number): void {
  const source = `const { workerData } = require('node:worker_threads');
const { writeSync } = require('node:fs');
setTimeout(() => {
  writeSync(2, 'ledger-sentinel: ' + workerData.why + '; the event loop did not run the exit, killing (SIGKILL)\\n');
  process.kill(workerData.pid, 'SIGKILL');
}, workerData.ms);`;
  const why = `still running ${Math.round(ms / 1000)} s after deciding to exit`;
  const worker = new Worker(source, { eval: true, workerData: { pid: process.pid, ms, why } });
  worker.unref();
  worker.on('error', (err) =>
    process.stderr.write(`ledger-sentinel: exit watchdog failed: ${err.message}\n`),
  );
}

let deadline: NodeJS.Timeout | undefined;
function exiting(decision: ExitDecision): void {
  if (deadline !== undefined) return;
  const boundMs = decision.graceMs + EXIT_SLACK_MS;
  // Ref'd: a process waiting on nothing but a promise that never settles still reaches its deadline.
  deadline = setTimeout(
    () => exitNow(EXIT_DEADLINE, `still running ${boundMs} ms after deciding to exit (${decision.reason})`),
    boundMs,
  );
  startWatchdog(boundMs + WATCHDOG_MS);
}

function finished(code: number): void {
  clearTimeout(deadline);
  process.exitCode = code;
  // Unref'd: a process with nothing left open exits at once, as it always did.
  setTimeout(
    () => exitNow(code, `the command ended ${LINGER_MS} ms ago but handles stayed open`),
    LINGER_MS,
  ).unref();
}

runCli({
  argv: process.argv.slice(2),
  env: process.env,
  stdout: process.stdout,
  stderr: process.stderr,
  cwd: process.cwd(),
  signal: controller.signal,
  hangups,
  pid: process.pid,
  exiting,
}).then(finished, (err: unknown) => {
  process.stderr.write(`ledger-sentinel: ${err instanceof Error ? err.message : String(err)}\n`);
  finished(1);
});
