// Scenario 17: a row dated inside tail.max_clock_skew. The query service serves, among ordinary traffic, one
// transaction of an account nobody watches dated now + 40 s; debits are then made on the three watched accounts,
// one at a time, with their own current timestamps — all of them before the skewed row's own time. No timestamp
// may move the head or a cursor past the daemon's own clock: every debit is alerted, the row is counted and
// logged once, and `sentinel-head-ahead` fires (docs/tailing.md, "Timestamps from the future").
import { checked, figure, type Figure } from '../bench/lib/figures.js';
import { metricSum, metricsText, spawnSentinel, until } from '../bench/lib/daemon-process.js';
import { sentinelDir, type SentinelDir } from '../bench/lib/sentinel-config.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { timestampFromMillis } from '@ledger-sentinel/ledger-model/timestamp';
import { startLivingLedger, type RunningLivingLedger } from '@ledger-sentinel/simulator/living-ledger-server';
import { sampleTransactionRow } from '@ledger-sentinel/simulator/sample-rows';
import { makeSimTransaction } from '@ledger-sentinel/simulator/transaction-json';
import { openStateStore } from '../src/state/store.js';
import { CursorStore } from '../src/tail/cursor/cursor-store.js';
import type { ChaosContext, Scenario } from './lib/scenario.js';
import { startChaosSlack, type ChaosSlack } from './lib/slack.js';

const SUITE = '17 near-future head';
const ACCOUNTS = ['0.0.1500', '0.0.1501', '0.0.1502'];
const UNWATCHED = 1777n;
const HBAR = 100_000_000n;
const AHEAD_MS = 40_000;

const RULE = `rules:
  - id: debit
    when: { debit: '1000 hbar' }
    summary: "debit {{memo}}"
    description: "memo={{memo}}"
    throttle: 0s
    notify: [ops-slack]
`;

function writeConfig(dir: SentinelDir, ledgerUrl: string, slack: ChaosSlack, strategy: string): void {
  const accounts = ACCOUNTS.map((id) => `  - { id: ${id} }`).join('\n');
  writeFileSync(
    dir.configPath,
    `ledger:
  base_url: ${ledgerUrl}
  retry: { max_attempts: 5, base_delay: 100ms, max_delay: 2s }
accounts:
${accounts}
tail: { strategy: ${strategy}, poll_interval: 300ms, overlap: 2s, max_clock_skew: 5m }
rules: { paths: [rules/*.yaml] }
notifiers:
  ops-slack: { kind: slack, webhook_url: ${slack.webhookUrl}, group_wait: 0s, min_interval: 10ms }
state: { dir: ${join(dir.dir, 'state')} }
http: { host: 127.0.0.1, port: 0 }
daemon: { watch_files: false, shutdown_grace: 5s }
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

/** Cursors ahead of this host's clock in the stopped daemon's state. */
function cursorsAhead(dir: SentinelDir): number {
  const store = openStateStore({ dir: join(dir.dir, 'state') });
  try {
    const now = timestampFromMillis(Date.now());
    return [...new CursorStore(store).all().values()].filter((c) => c.safe > now || c.read > now).length;
  } finally {
    store.close();
  }
}

async function runStrategy(ctx: ChaosContext, strategy: string): Promise<Figure[]> {
  const n = ctx.quick ? 6 : 18;
  const ledger = await startLivingLedger({
    seed: 'chaos-near',
    tps: 20,
    lagMs: 300,
    bindTimestampRange: false,
  });
  const slack = await startChaosSlack();
  ctx.session.secrets.set(`slack webhook token (near-future run, ${strategy})`, slack.token);
  const dir = sentinelDir();
  const suite = `${SUITE} (${strategy})`;
  try {
    writeConfig(dir, ledger.url, slack, strategy);
    dir.writeRule('debit.yaml', RULE);
    const daemon = spawnSentinel(['run', '--config', dir.configPath]);
    let alerted = 0;
    let inTime = 0;
    let counted = 0;
    try {
      const url = await daemon.httpUrl();
      await until(async () => (await fetch(`${url}/readyz`)).status === 200, 30_000);
      const skewedAt = Date.now() + AHEAD_MS;
      ledger.ledger.store.addTransaction(
        makeSimTransaction(sampleTransactionRow(timestampFromMillis(skewedAt), UNWATCHED)),
      );
      for (let i = 0; i < n; i++) {
        const memo = `near-${i}`;
        debit(ledger, ACCOUNTS[i % ACCOUNTS.length] ?? '', memo);
        if (await until(() => said(slack, `memo=${memo}`) > 0, 20_000, 50)) alerted += 1;
        else ctx.log(`${suite}: no alert for ${memo}`);
        if (Date.now() < skewedAt) inTime += 1;
      }
      await until(() => said(slack, 'ahead of this host') > 0, 10_000);
      counted = metricSum(await metricsText(url), 'ledger_sentinel_tail_head_ahead_total');
    } finally {
      daemon.kill('SIGTERM');
      await daemon.exited;
    }
    const out = daemon.stdout();
    ctx.session.outputs.push({ label: `near-future daemon output (${strategy})`, text: out });
    return [
      figure(suite, 'debits made before the skewed row’s own time', inTime),
      checked(suite, `debits alerted (of ${n})`, alerted, '==', n),
      checked(suite, 'ledger_sentinel_tail_head_ahead_total', counted, '<=', 1),
      checked(
        suite,
        'head-ahead log lines',
        (out.match(/row dated ahead of this host’s clock/g) ?? []).length,
        '==',
        counted,
      ),
      checked(suite, 'sentinel-head-ahead alerts', said(slack, 'ahead of this host'), '<=', 1),
      checked(suite, 'cursors ahead of the clock at the end', cursorsAhead(dir), '==', 0),
    ];
  } finally {
    await slack.close();
    await ledger.close();
    dir.remove();
  }
}

async function run(ctx: ChaosContext): Promise<Figure[]> {
  const strategies = ctx.quick ? ['per-account', 'global'] : ['per-account', 'global', 'auto'];
  const figures: Figure[] = [];
  for (const strategy of strategies) figures.push(...(await runStrategy(ctx, strategy)));
  return figures;
}

export const nearFutureHead: Scenario = { n: 17, name: 'near-future head', run };
