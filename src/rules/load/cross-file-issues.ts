// The checks that span files: duplicate rule ids, unknown notifiers, unknown accounts, group_by labels no account
// has. They run over the rules of every file, including files that failed validation (rule-refs.ts), so every
// problem comes out in one run.
import type { ConfigIssue } from '../../config/config-error.js';
import { didYouMean } from '../../config/did-you-mean.js';
import { locate } from '../../config/locate.js';
import { parseYaml, type ParsedYaml } from '../../config/parse-yaml.js';
import type { RuleRefs } from './rule-refs.js';
import type { WatchedAccount } from '../../accounts/watched-account.js';

export interface CrossFileContext {
  /** Every rule file's text, for the positions of the issues. */
  readonly texts: readonly { readonly file: string; readonly text: string }[];
  /** `any`: notifiers are not checked (a rule test sends nothing, so it configures none). */
  readonly knownNotifiers: readonly string[] | 'any';
  readonly accounts: readonly WatchedAccount[];
}

type At = (refs: RuleRefs, path: (string | number)[], message: string) => ConfigIssue;

/** `refs` in file order, then rule order: the first rule with an id is the one the others duplicate. */
export function crossFileIssues(refs: readonly RuleRefs[], ctx: CrossFileContext): ConfigIssue[] {
  // Parsed only for a file with an issue: positions are needed then, and a clean load (every reload) skips a
  // second YAML parse of every rule file.
  const texts = new Map(ctx.texts.map((t) => [t.file, t.text]));
  const docs = new Map<string, ParsedYaml>();
  const parsedOf = (file: string): ParsedYaml | undefined => {
    const text = texts.get(file);
    if (text === undefined) return undefined;
    let parsed = docs.get(file);
    if (!parsed) docs.set(file, (parsed = parseYaml(file, text)));
    return parsed;
  };
  const at: At = (r, path, message) => {
    const parsed = parsedOf(r.file);
    const offset = locate(parsed?.documents[0], ['rules', r.index, ...path]);
    const { line, col } = parsed?.lines.linePos(offset) ?? { line: 0, col: 0 };
    return { file: r.file, line, col, path: path.join('.'), message };
  };
  // Built once, not per rule: 100 rules × 100,000 accounts rebuilt these sets 100 times (most of a load's time).
  const watched = watchIndex(ctx.accounts);
  return [
    ...duplicateIds(refs, at),
    ...refs.flatMap((r) => unknownNotifiers(r, ctx.knownNotifiers, at)),
    ...refs.flatMap((r) => unknownAccounts(r, watched, at)),
    ...refs.flatMap((r) => unknownGroupLabels(r, watched, at)),
  ];
}

interface WatchIndex {
  readonly ids: ReadonlySet<string>;
  readonly names: ReadonlySet<string>;
  /** Every label name of any account, sorted. */
  readonly labels: readonly string[];
}

function watchIndex(accounts: readonly WatchedAccount[]): WatchIndex {
  const labels = new Set<string>();
  for (const account of accounts) for (const name of Object.keys(account.labels)) labels.add(name);
  return {
    ids: new Set(accounts.map((a) => a.id)),
    names: new Set(accounts.map((a) => a.name)),
    labels: [...labels].sort(),
  };
}

function duplicateIds(refs: readonly RuleRefs[], at: At): ConfigIssue[] {
  // The first definition's position is looked up only when a duplicate needs it (it parses that file).
  const firstById = new Map<string, RuleRefs>();
  const issues: ConfigIssue[] = [];
  for (const r of refs) {
    if (r.id === undefined) continue;
    const firstRef = firstById.get(r.id);
    const first = firstRef && at(firstRef, ['id'], '');
    if (!first) firstById.set(r.id, r);
    else
      issues.push(
        at(
          r,
          ['id'],
          `duplicate rule id "${r.id}", first defined at ${first.file}:${first.line}:${first.col}; rule ids must be unique`,
        ),
      );
  }
  return issues;
}

function unknownNotifiers(r: RuleRefs, known: readonly string[] | 'any', at: At): ConfigIssue[] {
  if (known === 'any') return [];
  return r.notify.flatMap((name, i) => {
    if (name === undefined || known.includes(name)) return [];
    const guess = didYouMean(name, known);
    const fix = guess ? `did you mean "${guess}"?` : 'define it under notifiers: in the config file';
    return [at(r, ['notify', i], `unknown notifier "${name}"; ${fix}`)];
  });
}

function unknownAccounts(r: RuleRefs, watched: WatchIndex, at: At): ConfigIssue[] {
  const { ids } = watched;
  const byId = r.accountIds.flatMap((id, i) =>
    id === undefined || ids.has(id)
      ? []
      : [
          at(
            r,
            ['accounts', 'ids', i],
            `account ${id} is not watched; add it under accounts: in the config file or remove it here`,
          ),
        ],
  );
  const byName = r.accountNames.flatMap((name, i) => {
    if (name === undefined || watched.names.has(name)) return [];
    const guess = didYouMean(name, [...watched.names]);
    const fix = guess ? `did you mean "${guess}"?` : 'check the names under accounts: in the config file';
    return [at(r, ['accounts', 'names', i], `no watched account is named "${name}"; ${fix}`)];
  });
  return [...byId, ...byName];
}

/** `group_by: [labels.x]` where no watched account has the label x: every alert would group under "". */
function unknownGroupLabels(r: RuleRefs, watched: WatchIndex, at: At): ConfigIssue[] {
  const names = watched.labels;
  return r.groupBy.flatMap((key, i) => {
    const name = key?.startsWith('labels.') ? key.slice('labels.'.length) : undefined;
    if (name === undefined || names.includes(name)) return [];
    const guess = didYouMean(name, names);
    const known = names.length
      ? `the accounts' labels are: ${names.join(', ')}`
      : 'no watched account has labels';
    const fix = guess ? `did you mean "labels.${guess}"? ` : '';
    return [at(r, ['group_by', i], `no watched account has the label "${name}"; ${fix}${known}`)];
  });
}
