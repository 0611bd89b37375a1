// Scenario 18: the wall clock steps while the daemon runs. The daemon process runs under libfaketime (Debian
// package `faketime`) with only the wall clock faked, as on a real host, and the offset changes through
// FAKETIME_TIMESTAMP_FILE: back an hour for 30 s (`--quick`: 10 s) and back to real time, then an hour ahead for as
// long and back. Debits on two watched accounts go on throughout, one at a time: every one must be alerted
// (the tail never stops), each step logged and counted, `sentinel-clock-step` raised, and while the clock runs an
// hour ahead a 10-minute throttle must still send once (docs/tailing.md, "Clock steps"). Without libfaketime the
// scenario fails (it is installed by .ci/apt-packages).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { checked, failed, figure, round, type Figure } from '../bench/lib/figures.js';
import { metricSum, metricsText, spawnSentinel, until } from '../bench/lib/daemon-process.js';
import { sentinelDir, type SentinelDir } from '../bench/lib/sentinel-config.js';
import { startLivingLedger, type RunningLivingLedger } from '@ledger-sentinel/simulator/living-ledger-server';
import { LIBFAKETIME } from '../test/helpers/faults/fake-clock.js';
import type { ChaosContext, Scenario } from './lib/scenario.js';
import { startChaosSlack, type ChaosSlack } from './lib/slack.js';

const SUITE = '18 clock step';
const ACCOUNTS = ['0.0.1500', '0.0.1501'];
const HBAR = 100_000_000n;

const RULES = `rules:
  - id: debit
    when: { all: [{ debit: '1000 hbar' }, { memo: { contains: 'step-' } }] }
    summary: "debit {{memo}}"
    description: "memo={{memo}}"
    throttle: 0s
    notify: [ops-slack]
  - id: throttled
    when: { all: [{ debit: '1000 hbar' }, { memo: { contains: 'throttle-' } }] }
    summary: "throttled {{memo}}"
    description: "throttled memo={{memo}}"
    throttle: 10m
    notify: [ops-slack]
`;

function writeConfig(dir: SentinelDir, ledgerUrl: string, slack: ChaosSlack): void {
  const accounts = ACCOUNTS.map((id) => `  - { id: ${id} }`).join('\n');
  writeFileSync(
    dir.configPath,
    `ledger:
  base_url: ${ledgerUrl}
  retry: { max_attempts: 5, base_delay: 100ms, max_delay: 2s }
accounts:
${accounts}
tail: { poll_interval: 300ms, overlap: 2s }
rules: { paths: [rules/*.yaml] }
notifiers:
  ops-slack: { kind: slack, webhook_url: ${slack.webhookUrl}, group_wait: 0s, min_interval: 10ms }
state: { dir: ${join(dir.dir, 'state')} }
http: { host: 127.0.0.1, port: 0 }
daemon: { watch_files: false, shutdown_grace: 5s, tick_interval: 200ms }
self_monitoring: { notify: [ops-slack], check_interval: 500ms }
`,
  );
}

function debit(ledger: RunningLivingLedger, account: string, memo: string): void {
  ledger.ledger.inject({
    payer: account,
    memo,
    transfers: [
      { account, amount: -2_000n * HBAR },
      { account: '0.0.1001', amount: 2_000n * HBAR },
    ],
  });
}

const said = (slack: ChaosSlack, text: string) => slack.accepted().filter((b) => b.includes(text)).length;

interface Tally {
  made: number;
  alerted: number;
  slowestMs: number;
}

/** Debits one at a time for `ms`, round-robin; each waits for its alert (20 s at most). */
async function debitsFor(
  ms: number,
  ledger: RunningLivingLedger,
  slack: ChaosSlack,
  t: Tally,
  log: (l: string) => void,
) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    const memo = `step-${t.made}`;
    const started = Date.now();
    debit(ledger, ACCOUNTS[t.made % ACCOUNTS.length] ?? '', memo);
    t.made += 1;
    if (await until(() => said(slack, `memo=${memo}`) > 0, 20_000, 50)) {
      t.alerted += 1;
      t.slowestMs = Math.max(t.slowestMs, Date.now() - started);
    } else log(`${SUITE}: no alert for ${memo}`);
  }
}

async function run(ctx: ChaosContext): Promise<Figure[]> {
  if (!LIBFAKETIME) return [failed(SUITE, new Error('libfaketime is missing: apt-get install faketime'))];
  const stepMs = ctx.quick ? 10_000 : 30_000;
  const ledger = await startLivingLedger({ seed: 'chaos-clock', tps: 20, lagMs: 300 });
  const slack = await startChaosSlack();
  ctx.session.secrets.set('slack webhook token (clock step run)', slack.token);
  const dir = sentinelDir();
  const offset = join(dir.dir, 'faketime');
  writeFileSync(offset, '+0\n');
  const t: Tally = { made: 0, alerted: 0, slowestMs: 0 };
  try {
    writeConfig(dir, ledger.url, slack);
    dir.writeRule('rules.yaml', RULES);
    const daemon = spawnSentinel(['run', '--config', dir.configPath], {
      env: {
        LD_PRELOAD: LIBFAKETIME,
        FAKETIME_TIMESTAMP_FILE: offset,
        FAKETIME_NO_CACHE: '1',
        FAKETIME_DONT_FAKE_MONOTONIC: '1',
      },
    });
    let steps = 0;
    let ready = 0;
    try {
      const url = await daemon.httpUrl();
      await until(async () => (await fetch(`${url}/readyz`)).status === 200, 30_000);
      await debitsFor(2_000, ledger, slack, t, ctx.log);
      writeFileSync(offset, '-1h\n');
      await debitsFor(stepMs, ledger, slack, t, ctx.log);
      writeFileSync(offset, '+0\n');
      await debitsFor(3_000, ledger, slack, t, ctx.log);
      writeFileSync(offset, '+1h\n');
      await debitsFor(1_000, ledger, slack, t, ctx.log);
      for (let i = 0; i < 5; i++) {
        debit(ledger, ACCOUNTS[0] ?? '', `throttle-${i}`);
        await debitsFor(stepMs / 5, ledger, slack, t, ctx.log);
      }
      writeFileSync(offset, '+0\n');
      await debitsFor(3_000, ledger, slack, t, ctx.log);
      await until(() => said(slack, 'wall clock jumped') > 0, 10_000);
      steps = metricSum(await metricsText(url), 'ledger_sentinel_clock_steps_total');
      ready = (await fetch(`${url}/readyz`)).status;
    } finally {
      daemon.kill('SIGTERM');
      await daemon.exited;
    }
    const out = daemon.stdout();
    ctx.session.outputs.push({ label: 'clock step daemon output', text: out });
    return [
      figure(SUITE, 'wall-clock steps made (−1 h, back, +1 h, back)', 4),
      checked(SUITE, `debits alerted (of ${t.made})`, t.alerted, '==', t.made),
      checked(SUITE, 'slowest debit to its alert', round(t.slowestMs / 1000, 1), '<=', 10, { unit: 's' }),
      checked(SUITE, 'ledger_sentinel_clock_steps_total', steps, '>=', 4),
      checked(SUITE, 'step log lines', (out.match(/wall clock jumped/g) ?? []).length, '>=', 4),
      checked(SUITE, 'sentinel-clock-step alerts', said(slack, 'wall clock jumped'), '>=', 1),
      checked(
        SUITE,
        'sends of the 10-minute throttle while an hour ahead (5 matches)',
        said(slack, 'throttled memo='),
        '==',
        1,
      ),
      checked(SUITE, '/readyz after the steps', ready, '==', 200),
    ];
  } finally {
    await slack.close();
    await ledger.close();
    dir.remove();
  }
}

export const clockStep: Scenario = { n: 18, name: 'clock step', run };
