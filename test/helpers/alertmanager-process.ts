// Starts Debian's prometheus-alertmanager on loopback for the Alertmanager notifier tests. Locally a missing binary
// skips those tests (they say so in one line); under CI=true it fails them with the fix, as README.md promises
// (.ci/apt-packages installs `prometheus-alertmanager`).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';

const CANDIDATES = [
  '/usr/bin/prometheus-alertmanager',
  '/usr/local/bin/alertmanager',
  '/usr/bin/alertmanager',
];

export const ALERTMANAGER_BINARY = CANDIDATES.find((path) => existsSync(path));

/** Under CI=true the real Alertmanager is required: its tests run and fail when the binary is missing. */
export const ALERTMANAGER_REQUIRED = process.env.CI === 'true';

/** Whether the real-Alertmanager tests run here: the binary is installed, or CI requires it. */
export const ALERTMANAGER_TESTS_RUN = ALERTMANAGER_BINARY !== undefined || ALERTMANAGER_REQUIRED;

/** The binary, or an error that says how to install it (reached only when CI requires it and it is missing). */
export function alertmanagerBinary(): string {
  if (ALERTMANAGER_BINARY) return ALERTMANAGER_BINARY;
  throw new Error(
    `prometheus-alertmanager is required in CI (CI=true) but none of ${CANDIDATES.join(', ')} exists: apt-get install prometheus-alertmanager`,
  );
}

export interface AlertmanagerProcess {
  readonly url: string;
  stop(): Promise<void>;
}

export interface AlertmanagerOptions {
  /** `global.resolve_timeout` (Alertmanager's default: 5m). */
  readonly resolveTimeout?: string;
  /** A webhook receiver URL: Alertmanager's own notifications (firing, resolved) go there, grouped per alert. */
  readonly webhookUrl?: string;
}

export async function startAlertmanager(
  binary: string,
  options: AlertmanagerOptions = {},
): Promise<AlertmanagerProcess> {
  const dir = mkdtempSync(join(tmpdir(), 'alertmanager-'));
  const config = join(dir, 'alertmanager.yml');
  writeFileSync(config, configText(options));
  const port = await freePort();
  const child = spawn(binary, [
    `--config.file=${config}`,
    `--storage.path=${join(dir, 'data')}`,
    `--web.listen-address=127.0.0.1:${port}`,
    '--cluster.listen-address=',
  ]);
  await listening(child);
  return {
    url: `http://127.0.0.1:${port}`,
    async stop() {
      child.kill('SIGTERM');
      if (child.exitCode === null) await once(child, 'exit');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function configText(options: AlertmanagerOptions): string {
  const global = options.resolveTimeout ? `global:\n  resolve_timeout: ${options.resolveTimeout}\n` : '';
  if (!options.webhookUrl) return `${global}route:\n  receiver: blackhole\nreceivers:\n  - name: blackhole\n`;
  return `${global}route:
  receiver: hook
  group_by: ['alert_key']
  group_wait: 1s
  group_interval: 1s
  repeat_interval: 1h
receivers:
  - name: hook
    webhook_configs:
      - url: ${options.webhookUrl}
        send_resolved: true
`;
}

/** Resolves when Alertmanager logs that its web server listens; rejects if it exits first. */
function listening(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('msg="Listening on"')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`alertmanager exited with ${code}:\n${output}`)));
  });
}

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}
