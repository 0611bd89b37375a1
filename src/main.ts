// Process entry: the only place that reads process.* or calls process.exit (docs/architecture.md).
import { runCli } from './cli/cli.js';

const controller = new AbortController();
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => controller.abort(new Error(`received ${signal}`)));
}
// Without a listener SIGHUP would kill the process; with one, `run` reloads its config.
const hangups = new EventTarget();
process.on('SIGHUP', () => hangups.dispatchEvent(new Event('SIGHUP')));

runCli({
  argv: process.argv.slice(2),
  env: process.env,
  stdout: process.stdout,
  stderr: process.stderr,
  cwd: process.cwd(),
  signal: controller.signal,
  hangups,
  pid: process.pid,
}).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`ledger-sentinel: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);
