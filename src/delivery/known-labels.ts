// The label names an alert can carry: the built-in ones, every rule's `labels:` and `group_by:` keys, and every
// watched account's labels. A matcher (API silence, `inhibit_rules`, `routes`, `silences`) on any other name can
// never match as written — `constructor=~".+"` once silenced everything — so it is refused with this list.
import { didYouMean } from '../config/did-you-mean.js';

/** Labels of every alert (`alertname` is Alertmanager's name for `rule`; self-monitoring alerts add `category`). */
export const BUILT_IN_LABELS: readonly string[] = ['account', 'alertname', 'category', 'rule', 'severity'];

export interface LabelSources {
  readonly rules: readonly {
    readonly labels: Readonly<Record<string, string>>;
    readonly group_by: readonly string[];
  }[];
  readonly accounts: readonly { readonly labels: Readonly<Record<string, string>> }[];
}

/** Sorted, without duplicates. */
export function knownLabels(sources: LabelSources): string[] {
  const names = new Set(BUILT_IN_LABELS);
  for (const rule of sources.rules) {
    for (const name of Object.keys(rule.labels)) names.add(name);
    for (const key of rule.group_by) names.add(key);
  }
  for (const account of sources.accounts) for (const name of Object.keys(account.labels)) names.add(name);
  return [...names].sort();
}

/** Why no alert can carry `name`, with the labels that exist; undefined when some alert can. */
export function unknownLabelMessage(name: string, known: readonly string[]): string | undefined {
  if (known.includes(name)) return undefined;
  const guess = didYouMean(name, known);
  const hint = guess ? `did you mean "${guess}"? ` : '';
  return (
    `no alert carries the label "${name}"; ${hint}the labels are: ${known.join(', ')} ` +
    `(built in, the rules' labels and group_by, the accounts' labels)`
  );
}
