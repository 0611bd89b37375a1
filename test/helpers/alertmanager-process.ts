// Starts Debian's prometheus-alertmanager on loopback for the Alertmanager notifier test, or tells the test to
// skip when the binary is absent (CI installs the apt package `prometheus-alertmanager`).
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
