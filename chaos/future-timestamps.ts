// Scenario 9: records dated in the future. The query service serves, for one watched account, a transaction
// dated 2100 and one dated a day ahead, among ordinary traffic on three accounts. Nothing may move a cursor or
// the head beyond now + tail.max_clock_skew: every later debit of every account is still alerted, the future
// records are evaluated (their rule fires) and counted once, self-monitoring says so, and after a restart, with
// every cursor poisoned on disk meanwhile, the daemon repairs them and alerts on.
import { checked, figure, type Figure } from '../bench/lib/figures.js';
import { metricSum, metricsText, spawnSentinel, until } from '../bench/lib/daemon-process.js';
import { sentinelDir, type SentinelDir } from '../bench/lib/sentinel-config.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { timestampFromMillis } from '../src/ledger/timestamp.js';
import { startLivingLedger, type RunningLivingLedger } from '../src/simulator/living-ledger-server.js';
import { sampleTransactionRow } from '../src/simulator/sample-rows.js';
import { makeSimTransaction } from '../src/simulator/transaction-json.js';
import { openStateStore } from '../src/state/store.js';
import { TailState } from '../src/tail/tail-state.js';
import type { ChaosContext, Scenario } from './lib/scenario.js';
import { startChaosSlack, type ChaosSlack } from './lib/slack.js';

const SUITE = '9 future timestamps';
const ACCOUNTS = ['0.0.1500', '0.0.1501', '0.0.1502'];
const HBAR = 100_000_000n;
const S = 1_000_000_000n;
const YEAR_2100 = 4_102_444_800n * S;
const SKEW_MS = 300_000;

const RULE = `rules:
  - id: debit
    when: { debit: '1000 hbar' }
    summary: "debit {{memo}}"
    description: "memo={{memo}}"
    throttle: 0s
    notify: [ops-slack]
`;

function writeConfig(dir: SentinelDir, ledgerUrl: string, slack: ChaosSlack, strategy: string): void {
  const accounts = ACCOUNTS.map((id) => `  - { id: ${id}, sources: [transactions] }`).join('\n');
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

/** A debit of 2000 HBAR from `account` whose memo names it, at `ts` (a future date), visible at once. */
function serveFuture(ledger: RunningLivingLedger, account: string, ts: bigint, memo: string): void {
  const num = BigInt(account.split('.')[2] ?? '0');
  const transfers = [
    { account: num, amount: -2_000n * HBAR },
    { account: 1001n, amount: 2_000n * HBAR },
  ];
  const row = sampleTransactionRow(ts, num, { transfers, memo: Buffer.from(memo) });
  ledger.ledger.store.addTransaction(makeSimTransaction(row));
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

/** Cursors beyond now + max_clock_skew in the stopped daemon's state; with `poison`, sets every one to 2100 first. */
function cursorsBeyond(dir: SentinelDir, poison = false): { beyond: number; streams: number } {
  const store = openStateStore({ dir: join(dir.dir, 'state') });
  try {
    const tail = new TailState(store);
    if (poison)
      store.transaction(() => {
        for (const stream of [...tail.all().keys()]) tail.reset(stream, { safe: YEAR_2100, read: YEAR_2100 });
      });
    const bound = timestampFromMillis(Date.now() + SKEW_MS);
    const all = [...tail.all().values()];
    return { beyond: all.filter((c) => c.safe > bound || c.read > bound).length, streams: all.length };
  } finally {
    store.close();
  }
}

/** Alerts grouped into one Slack message list each one's description (not its summary): match on that. */
const said = (slack: ChaosSlack, text: string) => slack.accepted().filter((b) => b.includes(text)).length;

/** Injects `n` debits round-robin over the accounts, one at a time; returns how many were alerted. */
async function debits(
  ledger: RunningLivingLedger,
  slack: ChaosSlack,
  tag: string,
  n: number,
  log: (line: string) => void,
): Promise<number> {
  let alerted = 0;
  for (let i = 0; i < n; i++) {
    const memo = `${tag}-${i}`;
    debit(ledger, ACCOUNTS[i % ACCOUNTS.length] ?? '', memo);
    if (await until(() => said(slack, `memo=${memo}`) > 0, 20_000, 50)) alerted += 1;
    else log(`${SUITE}: no alert for ${memo}`);
  }
  return alerted;
}

async function life(dir: SentinelDir, body: (url: string) => Promise<void>) {
  const daemon = spawnSentinel(['run', '--config', dir.configPath]);
  try {
    const url = await daemon.httpUrl();
    await until(async () => (await fetch(`${url}/readyz`)).status === 200, 30_000);
    await body(url);
  } finally {
    daemon.kill('SIGTERM');
    await daemon.exited;
  }
  return daemon;
}

async function runStrategy(ctx: ChaosContext, strategy: string): Promise<Figure[]> {
  const suite = `${SUITE} (${strategy})`;
  const n = ctx.quick ? 4 : 30;
  const ledger = await startLivingLedger({
    seed: 'chaos-future',
    tps: 20,
    lagMs: 300,
    bindTimestampRange: false,
  });
  const slack = await startChaosSlack();
  ctx.session.secrets.set(`slack webhook token (future run, ${strategy})`, slack.token);
  const dir = sentinelDir();
  try {
    writeConfig(dir, ledger.url, slack, strategy);
    dir.writeRule('debit.yaml', RULE);
    let counted = 0;
    let before = 0;
    const first = await life(dir, async (url) => {
      serveFuture(ledger, ACCOUNTS[0] ?? '', YEAR_2100, 'future-2100');
      serveFuture(ledger, ACCOUNTS[1] ?? '', timestampFromMillis(Date.now()) + 86_400n * S, 'future-day');
      // The later debits come after the future records' own alerts: a future record's rule state takes its
      // stream's read position as its time, so behind a debit of the same account in one page it is throttled.
      await until(() => said(slack, 'memo=future-2100') + said(slack, 'memo=future-day') >= 2, 20_000);
      before = await debits(ledger, slack, 'before-restart', n, ctx.log);
      await until(() => said(slack, 'The query service returned a record') > 0, 10_000);
      await until(
        async () => metricSum(await metricsText(url), 'ledger_sentinel_future_records_total') >= 2,
        10_000,
      );
      counted = metricSum(await metricsText(url), 'ledger_sentinel_future_records_total');
    });
    const afterFirst = cursorsBeyond(dir);
    const poisoned = cursorsBeyond(dir, true);
    let after = 0;
    const second = await life(dir, async () => {
      after = await debits(ledger, slack, 'after-restart', n, ctx.log);
    });
    const end = cursorsBeyond(dir);
    if (before < n || after < n)
      ctx.log(
        first
          .stdout()
          .split('\n')
          .filter((l) => /"level":(40|50)/.test(l))
          .join('\n')
          .slice(0, 3000),
      );
    ctx.session.outputs.push({
      label: `future daemon output (${strategy})`,
      text: first.stdout() + second.stdout(),
    });
    const evaluated = said(slack, 'memo=future-2100') + said(slack, 'memo=future-day');
    return [
      figure(suite, 'records from the future served', 2),
      checked(suite, 'future records evaluated (their rule fired)', evaluated, '==', 2),
      checked(suite, 'ledger_sentinel_future_records_total', counted, '==', 2),
      checked(
        suite,
        'future records logged',
        (first.stdout().match(/record from the future/g) ?? []).length,
        '==',
        2,
      ),
      checked(
        suite,
        'self-monitoring future-record alerts',
        said(slack, 'The query service returned a record'),
        '>=',
        1,
      ),
      checked(suite, `later debits alerted before the restart (of ${n})`, before, '==', n),
      checked(suite, 'cursors beyond now + max_clock_skew after the first life', afterFirst.beyond, '==', 0),
      checked(
        suite,
        'cursors poisoned on disk and repaired at start',
        (second.stdout().match(/cursor beyond now/g) ?? []).length,
        '==',
        poisoned.streams,
      ),
      checked(suite, `later debits alerted after the restart (of ${n})`, after, '==', n),
      checked(
        suite,
        'future records evaluated again after the restart',
        said(slack, 'memo=future-2100') + said(slack, 'memo=future-day'),
        '==',
        2,
      ),
      checked(suite, 'cursors beyond now + max_clock_skew at the end', end.beyond, '==', 0),
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

export const futureTimestamps: Scenario = { n: 9, name: 'future timestamps', run };
