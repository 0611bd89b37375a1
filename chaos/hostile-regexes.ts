// Scenario 10: catastrophic-backtracking rule regexes × adversarial memos. Five patterns that take a backtracking
// engine exponential time run as memo rules of one daemon while memos built to trigger them arrive; the daemon's
// event-loop lag (prom-client's monitorEventLoopDelay gauge, reset at every scrape) and /healthz response time are
// sampled throughout, and every (pattern, memo) verdict is compared with the one the regex defines. Patterns RE2
// cannot run (lookaround, backreferences) must be refused by `check` with file:line:col.
import { checked, figure, round, type Figure } from '../bench/lib/figures.js';
import { metricSum, metricsText, spawnSentinel, until } from '../bench/lib/daemon-process.js';
import { sentinelDir, type SentinelConfigOptions } from '../bench/lib/sentinel-config.js';
import { startLivingLedger } from '@ledger-sentinel/simulator/living-ledger-server';
import type { ChaosContext, Scenario } from './lib/scenario.js';
import { startChaosSlack } from './lib/slack.js';

const SUITE = '10 hostile regexes';
const WATCHED = '0.0.1510';
const LAG = 'ledger_sentinel_nodejs_eventloop_lag_max_seconds';
/** Healthy daemons on this shared machine show tens of ms; a backtracking regex blocks for seconds to days. */
const MAX_BLOCK_MS = 200;

/** id → pattern; each is exponential on a backtracking engine for some memo below. */
const PATTERNS: Record<string, string> = {
  'words-spaces': '^(\\w+\\s?)*$',
  'nested-plus': '^(a+)+$',
  'overlapping-x': '(x+x+)+y',
  'alternation-overlap': '^(a|aa)+$',
  'words-then-comma': '^(\\w+\\s?)+,$',
};

/** Memo → the patterns it matches (by construction; every other pattern must not match). */
function memos(n: number): [string, string[]][] {
  return [
    [`${'a'.repeat(n)}!`, []],
    ['a'.repeat(n), ['words-spaces', 'nested-plus', 'alternation-overlap']],
    [`${'x'.repeat(n)}y`, ['words-spaces', 'overlapping-x']],
    ['ab '.repeat(Math.floor(n / 3)), ['words-spaces']],
    [`${'a'.repeat(1000)}!`, []],
  ];
}

function ruleFile(): string {
  const rules = Object.entries(PATTERNS).map(
    ([id, pattern]) => `  - id: ${id}
    accounts: { ids: [${WATCHED}] }
    when: { memo: { regex: ${JSON.stringify(pattern)} } }
    summary: "${id} matched"
    description: "${id} [{{memo}}]"
    throttle: 0s
    notify: [ops-slack]`,
  );
  return `rules:\n${rules.join('\n')}\n`;
}

/** Samples the largest event-loop lag and /healthz time until `stop()`; every scrape resets the lag gauge. */
function sampler(url: string) {
  const state = { lagMs: 0, healthMs: 0, healthOk: 0, healthFailed: 0, running: true };
  const loop = (async () => {
    while (state.running) {
      const started = performance.now();
      const ok = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(10_000) })
        .then((r) => r.status === 200)
        .catch(() => false);
      state.healthMs = Math.max(state.healthMs, performance.now() - started);
      if (ok) state.healthOk++;
      else state.healthFailed++;
      const lag = metricSum(await metricsText(url).catch(() => ''), LAG);
      state.lagMs = Math.max(state.lagMs, lag * 1000);
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  return {
    state,
    async stop() {
      state.running = false;
      await loop;
      return state;
    },
  };
}

/** `check` on rules RE2 cannot run: how many are refused with a file:line:col line naming the construct. */
async function refusedByCheck(config: SentinelConfigOptions): Promise<number> {
  const dir = sentinelDir('ledger-sentinel-chaos-regex-check-');
  try {
    dir.writeConfig(config);
    dir.writeRule(
      'refused.yaml',
      `rules:
  - { id: lookahead, summary: s, when: { memo: { regex: "^refund-(?=\\\\d)" } } }
  - { id: backreference, summary: s, when: { memo: { regex: "^(\\\\w+)-\\\\1$" } } }
`,
    );
    const proc = spawnSentinel(['check', '--config', dir.configPath]);
    const { code } = await proc.exited;
    const lines = proc.stderr().split('\n');
    const located = (what: string) => lines.some((l) => /refused\.yaml:\d+:\d+ /.test(l) && l.includes(what));
    return code === 1
      ? [located('lookahead `(?=`'), located('backreference `\\1`')].filter(Boolean).length
      : 0;
  } finally {
    dir.remove();
  }
}

async function run(ctx: ChaosContext): Promise<Figure[]> {
  const ledger = await startLivingLedger({ seed: 'chaos-regex', tps: 20, lagMs: 300, autoAdvanceMs: 200 });
  const slack = await startChaosSlack();
  ctx.session.secrets.set('slack webhook token (hostile regex run)', slack.token);
  const dir = sentinelDir();
  const notifiers = `  ops-slack: { kind: slack, webhook_url: ${slack.webhookUrl}, group_wait: 0s, min_interval: 10ms }`;
  const config = { ledgerUrl: ledger.url, accounts: [WATCHED], pollInterval: '300ms', notifiers };
  dir.writeConfig(config);
  dir.writeRule('hostile-regexes.yaml', ruleFile());
  const daemon = spawnSentinel(['run', '--config', dir.configPath]);
  try {
    const url = await daemon.httpUrl();
    const baseline = sampler(url);
    await new Promise((r) => setTimeout(r, ctx.quick ? 2_000 : 5_000));
    const quiet = await baseline.stop();
    const cases = memos(ctx.quick ? 30 : 49);
    const expected = cases.reduce((n, [, matches]) => n + matches.length, 0);
    const hostile = sampler(url);
    for (const [memo] of cases)
      ledger.ledger.inject({
        payer: WATCHED,
        memo,
        transfers: [
          { account: WATCHED, amount: -1n },
          { account: '0.0.1001', amount: 1n },
        ],
      });
    const bodies = () => slack.accepted().join('\n');
    const seen = (id: string, memo: string) => bodies().includes(`${id} [${memo}]`);
    const arrived = await until(() => cases.every(([m, ids]) => ids.every((id) => seen(id, m))), 60_000, 200);
    await new Promise((r) => setTimeout(r, 2_000)); // let any wrong (extra) verdict arrive too
    const loaded = await hostile.stop();
    let correct = 0;
    for (const [memo, matches] of cases)
      for (const id of Object.keys(PATTERNS)) if (seen(id, memo) === matches.includes(id)) correct++;
    const cells = cases.length * Object.keys(PATTERNS).length;
    if (!arrived) ctx.log(`${SUITE}: not every expected alert arrived within 60 s`);
    const refused = await refusedByCheck(config);
    return [
      figure(SUITE, 'patterns × memos', `${Object.keys(PATTERNS).length} × ${cases.length}`),
      figure(SUITE, 'expected matches', expected),
      checked(SUITE, 'verdicts correct', correct, '==', cells),
      figure(SUITE, 'max event-loop lag, quiet', round(quiet.lagMs, 1), { unit: 'ms' }),
      checked(SUITE, 'max event-loop lag, hostile', round(loaded.lagMs, 1), '<=', MAX_BLOCK_MS, {
        unit: 'ms',
      }),
      checked(SUITE, 'max /healthz time, hostile', round(loaded.healthMs, 1), '<=', MAX_BLOCK_MS, {
        unit: 'ms',
      }),
      checked(SUITE, '/healthz failures', loaded.healthFailed + quiet.healthFailed, '==', 0),
      checked(SUITE, 'unsupported patterns refused by check (file:line:col)', refused, '==', 2),
    ];
  } finally {
    daemon.kill('SIGTERM');
    await daemon.exited;
    ctx.session.outputs.push({
      label: 'hostile regex daemon output',
      text: daemon.stdout() + daemon.stderr(),
    });
    await slack.close();
    await ledger.close();
    dir.remove();
  }
}

export const hostileRegexes: Scenario = { n: 10, name: 'hostile regexes', run };
