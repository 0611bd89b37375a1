// Rule engine throughput: 100-record transaction pages through 50 rules (the shipped examples plus variants),
// against plain JSON.parse of the same pages, in one run. Target: ratio ≥ 0.5. `npm run bench:rules`
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Transaction } from '@ledger-sentinel/ledger-model/schema';
import { createEngine, type EngineEvent } from '../src/rules/engine/engine.js';
import { loadRules } from '../src/rules/load/load-rules.js';
import type { WatchedAccount } from '../src/accounts/watched-account.js';
import { transactionsPage } from './client-page.js';

const ROUNDS = 7;
const PAGES = 300;
const REPO = fileURLToPath(new URL('..', import.meta.url));

type Run = () => (page: number) => void;

/**
 * Best of ROUNDS per contender, in microseconds per 100-record page. The contenders alternate round by round, so
 * both see the same machine load (the cores are shared). `setup` runs untimed before each round; round 0 warms up.
 */
function timePerPage(contenders: readonly Run[]): number[] {
  const best = contenders.map(() => Infinity);
  for (let r = 0; r <= ROUNDS; r++) {
    contenders.forEach((setup, c) => {
      const run = setup();
      const start = process.hrtime.bigint();
      for (let page = 0; page < PAGES; page++) run(page);
      const elapsed = Number(process.hrtime.bigint() - start) / PAGES / 1000;
      if (r > 0) best[c] = Math.min(best[c] ?? Infinity, elapsed);
    });
  }
  return best;
}

/** 37 variants of the condition kinds, so that 13 examples + these = 50 rules. */
function variantRules(): string {
  const whens = [
    (i: number) => `{ debit: "${i * 10} hbar", result: success }`,
    (i: number) => `{ credit: "${i} hbar" }`,
    (i: number) => `{ type: [TOKENASSOCIATE, CRYPTODELETE], payer: self, fee: "${i} tinybar" }`,
    (i: number) => `{ token_debit: { token_id: 0.0.456858, min: ${i * 1000} } }`,
    (i: number) => `{ memo: { regex: "^x${i}" } }`,
    (i: number) => `{ counterparty: { not_in: [0.0.${2000 + i}] }, debit: "${i} hbar" }`,
    () => `{ any: [{ result: [FAIL_FEE, INSUFFICIENT_PAYER_BALANCE] }, { not: { child: false } }] }`,
  ];
  const rules = Array.from({ length: 37 }, (_, i) => {
    const window = i % 5 === 0 ? `\n    window: { duration: 10m, count: ${i + 2} }` : '';
    return `  - id: variant-${i}\n    summary: "{{account.name}} {{name}} {{amount_hbar}}"\n    when: ${whens[i % whens.length]?.(i + 1)}${window}`;
  });
  return `rules:\n${rules.join('\n')}\n`;
}

function watched(labels: Record<string, string>): WatchedAccount[] {
  return Array.from({ length: 50 }, (_, i) => ({
    id: `0.0.${1000 + i}`,
    name: `account-${i}`,
    labels,
    priority: 0,
    rewardsPath: `0.0.${1000 + i}`,
  }));
}

function load(accounts: readonly WatchedAccount[]) {
  const loaded = loadRules({
    paths: [join(REPO, 'rules/*.yaml')],
    files: [{ file: 'variants.yaml', text: variantRules() }],
    env: {},
    knownNotifiers: ['ops-slack', 'security-pager'],
    accounts,
    explorerUrl: 'https://hashscan.io/mainnet/transaction/{{consensus_timestamp}}',
  });
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.issues));
  return loaded.ruleSet;
}

/** A tail's worth of records: the page's records again and again, one second apart in consensus time. */
function events(text: string, accounts: readonly WatchedAccount[]): EngineEvent[] {
  const page = (JSON.parse(text) as { transactions: unknown[] }).transactions.map((t) =>
    Transaction.parse(t),
  );
  const byId = new Map(accounts.map((a) => [a.id, a]));
  return Array.from({ length: PAGES * 100 }, (_, i) => {
    const record = page[i % 100] as Transaction;
    return {
      source: 'transactions',
      record: { ...record, consensus_timestamp: `${1_700_000_000 + i}.000000000` },
      account: byId.get(record.transaction_id.split('-')[0] ?? '') ?? (accounts[0] as WatchedAccount),
      traces: [],
      annotations: {},
    };
  });
}

function scenario(label: string, labels: Record<string, string>): void {
  const accounts = watched(labels);
  const ruleSet = load(accounts);
  const text = transactionsPage(false);
  const all = events(text, accounts);
  let alerts = 0;
  const [plain = 0, rules = 0] = timePerPage([
    () => () => JSON.parse(text),
    () => {
      const engine = createEngine(ruleSet);
      alerts = 0;
      return (p) => {
        for (let i = p * 100; i < p * 100 + 100; i++)
          alerts += engine.evaluate(all[i] as EngineEvent).alerts.length;
      };
    },
  ]);
  const perSecond = (us: number) => Math.round((100 / us) * 1e6).toLocaleString('en');
  console.log(
    `${label}: ${ruleSet.rules.length} rules, ${PAGES} pages of 100 records, ${alerts} alerts per pass`,
  );
  console.log(
    `  JSON.parse          ${plain.toFixed(0).padStart(6)} µs/page  ${perSecond(plain).padStart(9)} records/s`,
  );
  console.log(
    `  50 rules evaluated  ${rules.toFixed(0).padStart(6)} µs/page  ${perSecond(rules).padStart(9)} records/s   ratio ${(plain / rules).toFixed(2)} (target ≥ 0.50)`,
  );
}

// Typical: the label-selected examples (allowlist, staking) do not apply; a few percent of records alert.
scenario('typical traffic', { team: 'ops' });
// Storm: the allowlist rule applies and every payment goes to an unlisted account, so nearly every record alerts.
scenario('alert storm', { role: 'treasury', staking: 'true' });
