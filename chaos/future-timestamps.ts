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
import { timestampFromMillis } from '@ledger-sentinel/ledger-model/timestamp';
import { startLivingLedger, type RunningLivingLedger } from '@ledger-sentinel/simulator/living-ledger-server';
import { sampleTransactionRow } from '@ledger-sentinel/simulator/sample-rows';
import { makeSimTransaction } from '@ledger-sentinel/simulator/transaction-json';
import { openStateStore } from '../src/state/store.js';
import { CursorStore } from '../src/tail/cursor/cursor-store.js';
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
    const tail = new CursorStore(store);
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

/** The daemon's warnings and errors: the first place to look when a debit went unalerted. */
function warnings(out: string): string {
  return out
    .split('\n')
    .filter((l) => /"level":(40|50)/.test(l))
    .join('\n')
    .slice(0, 3000);
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

/** What one strategy's two lives showed. */
interface Outcome {
  readonly n: number;
  /** Alerts of the future records after the first life, and at the end. */
  readonly evaluated: number;
  readonly evaluatedAtEnd: number;
  readonly counted: number;
  readonly logged: number;
  readonly selfAlerts: number;
  readonly before: number;
  readonly after: number;
  readonly beyondAfterFirst: number;
  readonly poisoned: number;
  readonly repaired: number;
  readonly beyondAtEnd: number;
}

function figures(suite: string, o: Outcome): Figure[] {
  return [
    figure(suite, 'records from the future served', 2),
    checked(suite, 'future records evaluated (their rule fired)', o.evaluated, '==', 2),
    checked(suite, 'ledger_sentinel_future_records_total', o.counted, '==', 2),
    checked(suite, 'future records logged', o.logged, '==', 2),
    checked(suite, 'self-monitoring future-record alerts', o.selfAlerts, '>=', 1),
    checked(suite, `later debits alerted before the restart (of ${o.n})`, o.before, '==', o.n),
    checked(suite, 'cursors beyond now + max_clock_skew after the first life', o.beyondAfterFirst, '==', 0),
    checked(suite, 'cursors poisoned on disk and repaired at start', o.repaired, '==', o.poisoned),
    checked(suite, `later debits alerted after the restart (of ${o.n})`, o.after, '==', o.n),
    checked(suite, 'future records alerted again after the restart', o.evaluatedAtEnd - o.evaluated, '==', 0),
    checked(suite, 'cursors beyond now + max_clock_skew at the end', o.beyondAtEnd, '==', 0),
  ];
}

const futureAlerts = (slack: ChaosSlack) => said(slack, 'memo=future-2100') + said(slack, 'memo=future-day');
const count = (text: string, re: RegExp) => (text.match(re) ?? []).length;

async function runStrategy(ctx: ChaosContext, strategy: string): Promise<Figure[]> {
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
    const o = { n, evaluated: 0, counted: 0, before: 0, after: 0 };
    const first = await life(dir, async (url) => {
      serveFuture(ledger, ACCOUNTS[0] ?? '', YEAR_2100, 'future-2100');
      serveFuture(ledger, ACCOUNTS[1] ?? '', timestampFromMillis(Date.now()) + 86_400n * S, 'future-day');
      // The later debits come after the future records' own alerts: a future record's rule state takes its
      // stream's read position as its time, so behind a debit of the same account in one page it is throttled.
      await until(() => futureAlerts(slack) >= 2, 20_000);
      o.before = await debits(ledger, slack, 'before-restart', n, ctx.log);
      await until(() => said(slack, 'The query service returned a record') > 0, 10_000);
      const total = async () => metricSum(await metricsText(url), 'ledger_sentinel_future_records_total');
      await until(async () => (await total()) >= 2, 10_000);
      o.counted = await total();
      o.evaluated = futureAlerts(slack);
    });
    const beyondAfterFirst = cursorsBeyond(dir).beyond;
    const poisoned = cursorsBeyond(dir, true).streams;
    const second = await life(dir, async () => {
      o.after = await debits(ledger, slack, 'after-restart', n, ctx.log);
    });
    const out = first.stdout() + second.stdout();
    if (o.before < n || o.after < n) ctx.log(warnings(out));
    ctx.session.outputs.push({ label: `future daemon output (${strategy})`, text: out });
    return figures(`${SUITE} (${strategy})`, {
      ...o,
      evaluatedAtEnd: futureAlerts(slack),
      logged: count(first.stdout(), /record from the future/g),
      selfAlerts: said(slack, 'The query service returned a record'),
      beyondAfterFirst,
      poisoned,
      repaired: count(second.stdout(), /cursor beyond now/g),
      beyondAtEnd: cursorsBeyond(dir).beyond,
    });
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
