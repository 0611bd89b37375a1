// The rule regex and memo that froze the daemon (issue 14): `^(\w+\s?)*$` against "zzredos" + 49 × "a" + "!"
// backtracks for days on a RegExp. The real daemon, as a child process so a frozen event loop cannot freeze the
// test too, evaluates that record and a matching one; /healthz answers after each and both verdicts arrive.
import { spawn, type ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { REPO_DIR } from '../helpers/shared.js';
import { startDaemonEnv, type DaemonEnv } from './daemon-harness.js';

const REDOS = '^(\\\\w+\\\\s?)*$';
const HOSTILE = `zzredos${'a'.repeat(49)}!`;
const MATCHING = 'zzredos pay the rent';

const RULES = `rules:
  - id: redos-match
    accounts: { ids: [0.0.1003] }
    when: { all: [{ memo: { contains: zzredos } }, { memo: { regex: "${REDOS}" } }] }
    summary: "regex matched: {{memo}}"
    notify: [ops-slack]
    throttle: 0s
  - id: redos-no-match
    accounts: { ids: [0.0.1003] }
    when: { all: [{ memo: { contains: zzredos } }, { not: { memo: { regex: "${REDOS}" } } }] }
    summary: "regex did not match: {{memo}}"
    notify: [ops-slack]
    throttle: 0s
`;

/** Waits for Slack requests until their bodies, together, satisfy `done`. */
async function slackUntil(env: DaemonEnv, done: (bodies: string) => boolean): Promise<string> {
  for (let n = 1; ; n++) {
    const bodies = (await env.slack.waitForRequests(n)).map((r) => r.body).join('\n');
    if (done(bodies)) return bodies;
  }
}

async function healthz(url: string): Promise<number> {
  return (await fetch(`${url}/healthz`)).status;
}

describe('a catastrophic-backtracking rule regex against a hostile memo', () => {
  let env: DaemonEnv | undefined;
  let child: ChildProcess | undefined;
  afterEach(async () => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
    await env?.close();
  });

  it('keeps /healthz answering and gives both verdicts', async () => {
    env = await startDaemonEnv();
    env.writeConfig();
    env.writeRule('redos.yaml', RULES);
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
    const started = await startedLine(child, output);
    const url = (JSON.parse(started) as { http: string }).http;

    env.ledger.ledger.inject({ payer: '0.0.1003', memo: HOSTILE });
    const afterHostile = await slackUntil(env, (b) => b.includes('regex did not match'));
    const healthAfterHostile = await healthz(url);
    env.ledger.ledger.inject({ payer: '0.0.1003', memo: MATCHING });
    const bodies = await slackUntil(env, (b) => b.includes('regex matched'));
    const healthAfterMatch = await healthz(url);

    expect(afterHostile).toContain(`regex did not match: ${HOSTILE}`);
    expect(bodies).toContain(`regex matched: ${MATCHING}`);
    expect(bodies).not.toContain(`regex matched: ${HOSTILE}`);
    expect(bodies).not.toContain(`regex did not match: ${MATCHING}`);
    expect([healthAfterHostile, healthAfterMatch]).toEqual([200, 200]);
  }, 60_000);
});

/** The `started` log line (it carries the HTTP URL); rejects if the daemon exits first. */
function startedLine(child: ChildProcess, output: { text: string }): Promise<string> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const line = output.text.split('\n').find((l) => l.includes('"msg":"started"'));
      if (line === undefined) return;
      child.stdout?.off('data', check);
      resolve(line);
    };
    child.once('exit', (code) =>
      reject(new Error(`daemon exited (${code}) before starting: ${output.text}`)),
    );
    child.stdout?.on('data', check);
  });
}
