// Synthetic rule files for the benchmarks and the chaos suite: N rules cycling through the condition kinds
// (amounts, types, results, memos, counterparties, fees, windows), valid against a given notifier name.
const WHENS: readonly ((i: number) => string)[] = [
  (i) => `{ debit: "${(i + 1) * 100} hbar", result: success }`,
  (i) => `{ credit: "${(i + 1) * 50} hbar" }`,
  () => `{ type: [TOKENASSOCIATE, CRYPTODELETE, TOKENDISSOCIATE], payer: self }`,
  (i) => `{ fee: "${(i % 7) + 1} hbar" }`,
  (i) => `{ memo: { regex: "^bench-${i}-\\\\d+$" } }`,
  (i) => `{ counterparty: { in: [0.0.${5000 + i}] } }`,
  () => `{ result: fail, type: [CRYPTOTRANSFER, CONTRACTCALL] }`,
  (i) => `{ any: [{ debit: "${i + 1000} hbar" }, { memo: { contains: "sweep-${i}" } }] }`,
];

/**
 * How often rules fire: `storm` alerts on the first match of each rule per account (with 10,000 accounts that is
 * about one alert per record); `typical` puts every rule behind a count window of 20 matches in 10 minutes, so
 * alerts are rare but every rule still keeps window state per account.
 */
export type Selectivity = 'storm' | 'typical';

/** One rule, as YAML list-item text. In a storm every fifth rule has a count window. */
function ruleText(i: number, notifier: string, selectivity: Selectivity): string {
  const count = selectivity === 'typical' ? 20 : i % 5 === 4 ? i + 3 : 0;
  const window = count > 0 ? `\n    window: { duration: 10m, count: ${count} }` : '';
  const when = (WHENS[i % WHENS.length] as (i: number) => string)(i);
  return `  - id: bench-rule-${i}
    summary: "{{account.name}} {{name}} {{amount_hbar}} HBAR"
    when: ${when}${window}
    notify: [${notifier}]
    throttle: 10m`;
}

/** `count` rules in one file's text. */
export function ruleFileText(
  count: number,
  notifier: string,
  first = 0,
  selectivity: Selectivity = 'storm',
): string {
  return `rules:\n${Array.from({ length: count }, (_, i) => ruleText(first + i, notifier, selectivity)).join('\n')}\n`;
}

/** `files` rule files of `perFile` rules each: `[name, text]`. */
export function ruleFiles(files: number, perFile: number, notifier: string): [string, string][] {
  return Array.from({ length: files }, (_, f) => [
    `rules-${String(f).padStart(3, '0')}.yaml`,
    ruleFileText(perFile, notifier, f * perFile),
  ]);
}
