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

export async function startAlertmanager(binary: string): Promise<AlertmanagerProcess> {
  const dir = mkdtempSync(join(tmpdir(), 'alertmanager-'));
  const config = join(dir, 'alertmanager.yml');
  writeFileSync(config, 'route:\n  receiver: blackhole\nreceivers:\n  - name: blackhole\n');
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
