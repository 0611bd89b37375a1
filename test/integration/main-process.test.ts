// The real process entry (src/main.ts) as a child process: SIGHUP must reload, not kill (Node's default for
// SIGHUP is to exit), and SIGTERM must stop gracefully with exit code 0.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { REPO_DIR } from '../helpers/shared.js';
import { LARGE_DEBIT_RULE, startDaemonEnv, type DaemonEnv } from './daemon-harness.js';

function waitForLine(child: ChildProcess, output: { text: string }, pattern: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const line = output.text.split('\n').find((l) => pattern.test(l));
      if (line !== undefined) {
        child.stdout?.off('data', check);
        child.off('exit', onExit);
        resolve(line);
      }
    };
    const onExit = (code: number | null) => reject(new Error(`daemon exited (${code}) before ${pattern}`));
    child.stdout?.on('data', check);
    child.once('exit', onExit);
    check();
  });
}

describe('ledger-sentinel run as a process', () => {
  let env: DaemonEnv | undefined;
  let child: ChildProcess | undefined;
  afterEach(async () => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
    await env?.close();
  });

  it('reloads on SIGHUP and exits 0 on SIGTERM', async () => {
    env = await startDaemonEnv();
    env.writeConfig();
    env.writeRule('large.yaml', LARGE_DEBIT_RULE);
    const output = { text: '' };
    child = spawn(
      process.execPath,
      ['--conditions=source', '--import', 'tsx', 'src/main.ts', 'run', '--config', env.configPath],
      {
        cwd: REPO_DIR,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    child.stdout?.on('data', (d: Buffer) => (output.text += d.toString()));
    await waitForLine(child, output, /"msg":"started"/);

    child.kill('SIGHUP');
    await waitForLine(child, output, /"msg":"config reloaded"/);
    child.kill('SIGTERM');
    const [code] = (await once(child, 'exit')) as [number | null];

    expect(code).toBe(0);
    expect(output.text).toMatch(/"msg":"stopped"/);
  });
});
